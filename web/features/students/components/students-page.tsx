import { useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, Plus, Search, SearchX, Users, X } from 'lucide-react';
import type { Student } from '@contract/students';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useStudentMutations, useStudents, useStudentsProgress } from '../api/students';
import { filterStudents } from '@web/lib/filter-students';
import { StudentsTable, type StudentSort } from './students-table';
import type { StudentFormValues } from './student-form';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// The form (its dialog, fields and limits) opens on a click: fetched then, or when the pointer or
// the focus reaches "Schüler hinzufügen", not before the list can paint (docs/decisions/first-load-on-a-phone.md).
const loadStudentForm = () => import('./student-form').then((m) => ({ default: m.StudentForm }));
const StudentForm = lazyPart(loadStudentForm);

function StudentsSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="grid gap-4 md:grid-cols-2 2xl:grid-cols-3">
      {Array.from({ length: 4 }, (_, i) => (
        <Card key={i} className="p-5">
          <div className="flex gap-3">
            <Skeleton className="size-11 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-3.5 w-2/3" />
              <Skeleton className="h-3.5 w-1/3" />
            </div>
          </div>
          <Skeleton className="mt-5 h-5 w-24 rounded-full" />
          <div className="mt-5 flex justify-between border-t border-slate-100 pt-3">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-8 w-48" />
          </div>
        </Card>
      ))}
    </div>
  );
}

export type StudentsPageProps = {
  /** The course selected in the sidebar (null = all courses): filters the list. */
  courseId: number | null;
  /** The teacher's courses, for the form and the filter line. */
  courses: ReadonlyArray<{ id: number; name: string }>;
  /** Open the form for a new student at once (the first steps' link, `?new=1`). */
  startCreating?: boolean;
};

/** The students screen: search, count 'x von y', cards, add/edit modal, delete after confirmation. */
export function StudentsPage({ courseId, courses, startCreating = false }: StudentsPageProps) {
  const { t } = useTranslation(['students', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const searchId = useId();
  const list = useStudents(courseId);
  const progress = useStudentsProgress(courseId);
  const [sort, setSort] = useState<StudentSort>({ key: 'name', dir: 'asc' });
  const { save, remove } = useStudentMutations();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Student | null>(null);
  const [formOpen, setFormOpen] = useState(startCreating);

  useEffect(() => {
    if (list.isError) toast.error(t('students:toast.loadError'));
  }, [list.isError, list.errorUpdatedAt, toast, t]);

  // The cards from deferred values: the read's answer is a blocking render (a store's update), and
  // a school's whole list drawn in it was an 80 ms task at a phone's speed. React now draws the
  // cards in a transition, in slices that yield to input (docs/decisions/first-load-on-a-phone.md).
  // (null, not undefined, for 'nothing yet': React treats an initial value of undefined as none
  // and would draw the first answer at once.)
  const listData = useDeferredValue(list.data ?? null, null);
  const progressData = useDeferredValue(progress.data ?? null, null) ?? undefined;
  const all = useMemo(() => listData ?? [], [listData]);
  const shown = useMemo(() => filterStudents(all, search), [all, search]);
  const courseName = courseId ? courses.find((c) => c.id === courseId)?.name : undefined;

  const warmForm = () => void loadStudentForm();
  const [formUsed, setFormUsed] = useState(false);
  if (!formUsed && formOpen) setFormUsed(true);

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (s: Student) => {
    setEditing(s);
    setFormOpen(true);
  };

  async function submit(values: StudentFormValues) {
    try {
      if (editing) await save.mutateAsync({ id: editing.id, body: values });
      else await save.mutateAsync({ body: { ...values, password: values.password ?? '' } });
      toast.success(editing ? t('students:toast.updated') : t('students:toast.created'));
      setFormOpen(false);
    } catch (err) {
      toast.error(isApiError(err, 422) ? t('common:errors.validation') : t('students:toast.saveError'));
      throw err;
    }
  }

  async function askDelete(s: Student) {
    const ok = await confirm({ message: t('students:confirmDelete'), confirmLabel: t('common:actions.delete') });
    if (!ok) return;
    try {
      await remove.mutateAsync(s.id);
      toast.success(t('students:toast.deleted'));
    } catch (err) {
      if (isApiError(err, 404)) void list.refetch();
      toast.error(t('students:toast.deleteError'));
    }
  }

  const addButton = (
    <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={openCreate} onPointerEnter={warmForm} onFocus={warmForm}>
      {t('students:add')}
    </Button>
  );

  let body;
  if (list.isError && !list.data) {
    body = (
      <EmptyState
        icon={AlertTriangle}
        title={t('students:error.title')}
        text={t('students:error.text')}
        action={
          <Button variant="secondary" onClick={() => void list.refetch()} loading={list.isFetching}>
            {t('common:actions.retry')}
          </Button>
        }
      />
    );
  } else if (listData === null) {
    body = <StudentsSkeleton label={t('common:actions.loading')} />;
  } else if (all.length === 0) {
    body = courseName ? (
      <EmptyState icon={Users} title={t('students:emptyCourse.title')} text={t('students:emptyCourse.text', { course: courseName })} action={addButton} />
    ) : (
      <EmptyState icon={Users} title={t('students:empty.title')} text={t('students:empty.text')} action={addButton} />
    );
  } else if (shown.length === 0) {
    body = (
      <EmptyState
        icon={SearchX}
        title={t('students:noResults.title')}
        text={t('students:noResults.text', { search: search.trim() })}
        action={
          <Button variant="secondary" onClick={() => setSearch('')}>
            {t('students:noResults.reset')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <div aria-busy={list.isFetching || undefined}>
        <StudentsTable
          students={shown}
          progress={progressData}
          progressLoading={progressData === undefined && !progress.isError}
          sort={sort}
          onSort={setSort}
          onEdit={openEdit}
          onDelete={(s) => void askDelete(s)}
        />
      </div>
    );
  }

  return (
    <>
      <PageHeader title={t('students:title')} subtitle={courseName ? t('students:subtitleCourse', { course: courseName }) : t('students:subtitle')} actions={addButton} />

      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-sm">
          <label htmlFor={searchId} className="sr-only">
            {t('students:search.label')}
          </label>
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('students:search.placeholder')}
            className="block h-10 w-full rounded-lg border-0 bg-white pr-9 pl-9 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none [&::-webkit-search-cancel-button]:hidden"
          />
          {search && (
            <button
              type="button"
              onClick={() => setSearch('')}
              aria-label={t('students:search.clear')}
              className="absolute top-1/2 right-1.5 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-slate-400 hover:bg-slate-100 hover:text-slate-600"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
        <div className="text-sm text-slate-600 tabular-nums" aria-live="polite" data-testid="students-count">
          {listData ? t('students:count', { shown: shown.length, total: all.length }) : <Skeleton className="h-5 w-28" />}
        </div>
      </div>

      {body}

      {/* Mounted from the first opening on, so it can animate out when closed. */}
      {(formUsed || formOpen) && (
        <LazySection fallback={null} floating>
          <StudentForm
            open={formOpen}
            student={editing}
            courses={courses}
            defaultCourseIds={courseId && courseName ? [courseId] : []}
            onClose={() => setFormOpen(false)}
            onSubmit={submit}
          />
        </LazySection>
      )}
    </>
  );
}
