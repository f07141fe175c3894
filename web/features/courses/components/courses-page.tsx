import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, BookOpen, Plus } from 'lucide-react';
import type { Course, CourseBody } from '@contract/courses';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useCourseMutations, useCoursesList } from '../api/courses';
import { CourseCard } from './course-card';
import { CourseForm } from './course-form';

function CoursesSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} className="p-5">
          <div className="flex justify-between gap-3">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-20 rounded-full" />
          </div>
          <Skeleton className="mt-3 h-4 w-full" />
          <Skeleton className="mt-2 h-4 w-2/3" />
          <div className="mt-6 flex justify-between">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-8 w-40" />
          </div>
        </Card>
      ))}
    </div>
  );
}

/**
 * The courses screen: cards, add/edit in the modal, delete after confirmation.
 * `onDeleted` lets the screen clear the sidebar's selection when that course was selected.
 */
export function CoursesPage({ onDeleted, startCreating = false }: { onDeleted?: (courseId: number) => void; /** Open the form for a new course at once (`?new=1`). */ startCreating?: boolean }) {
  const { t } = useTranslation(['courses', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const list = useCoursesList();
  const { save, remove } = useCourseMutations();
  const [editing, setEditing] = useState<Course | null>(null);
  const [formOpen, setFormOpen] = useState(startCreating);

  useEffect(() => {
    if (list.isError) toast.error(t('courses:toast.loadError'));
  }, [list.isError, list.errorUpdatedAt, toast, t]);

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (c: Course) => {
    setEditing(c);
    setFormOpen(true);
  };

  async function submit(body: CourseBody) {
    try {
      await save.mutateAsync({ id: editing?.id, body });
      toast.success(editing ? t('courses:toast.updated') : t('courses:toast.created'));
      setFormOpen(false);
    } catch (err) {
      toast.error(isApiError(err, 422) ? t('common:errors.validation') : t('courses:toast.saveError'));
      throw err;
    }
  }

  async function askDelete(c: Course) {
    const ok = await confirm({ message: t('courses:confirmDelete'), confirmLabel: t('common:actions.delete') });
    if (!ok) return;
    try {
      await remove.mutateAsync(c.id);
      onDeleted?.(c.id);
      toast.success(t('courses:toast.deleted'));
    } catch (err) {
      // Already gone (another tab): refresh the list quietly.
      if (isApiError(err, 404)) void list.refetch();
      toast.error(t('courses:toast.deleteError'));
    }
  }

  const courses = list.data ?? [];
  const addButton = (
    <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={openCreate}>
      {t('courses:add')}
    </Button>
  );

  return (
    <>
      <PageHeader
        title={t('courses:title')}
        subtitle={list.data ? t('courses:count', { count: courses.length }) : t('courses:subtitle')}
        actions={addButton}
      />
      {list.isPending ? (
        <CoursesSkeleton label={t('common:actions.loading')} />
      ) : list.isError ? (
        <EmptyState
          icon={AlertTriangle}
          title={t('courses:error.title')}
          text={t('courses:error.text')}
          action={
            <Button variant="secondary" onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('common:actions.retry')}
            </Button>
          }
        />
      ) : courses.length === 0 ? (
        <EmptyState icon={BookOpen} title={t('courses:empty.title')} text={t('courses:empty.text')} action={addButton} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {courses.map((c) => (
            <li key={c.id} className="flex">
              <CourseCard course={c} onEdit={() => openEdit(c)} onDelete={() => void askDelete(c)} />
            </li>
          ))}
        </ul>
      )}
      <CourseForm open={formOpen} course={editing} onClose={() => setFormOpen(false)} onSubmit={submit} />
    </>
  );
}
