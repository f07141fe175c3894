import '@web/features/exercises/i18n';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, Music, Plus, Search, SearchX } from 'lucide-react';
import { CATEGORIES, DIFFICULTIES } from '@contract/constants';
import type { Exercise } from '@contract/exercises';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { Select, TextField } from '@web/components/ui/fields';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { isLanguage } from '@web/lib/i18n';
import { useExerciseCategories, useExerciseMutations, useExercises } from '../api/exercises';
import { filterExercises } from '../lib/exercise-form';
import { ExerciseCard } from './exercise-card';
import { ExerciseForm } from './exercise-form';

function ExercisesSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} className="p-5">
          <div className="flex gap-2">
            <Skeleton className="h-5 w-24 rounded-full" />
            <Skeleton className="h-5 w-16 rounded-full" />
          </div>
          <Skeleton className="mt-4 h-5 w-2/3" />
          <Skeleton className="mt-3 h-4 w-full" />
          <Skeleton className="mt-2 h-4 w-4/5" />
          <div className="mt-6 flex justify-between">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-8 w-40" />
          </div>
        </Card>
      ))}
    </div>
  );
}

export type ExercisesPageProps = {
  /** The selected course (null = all courses): the list follows it. */
  courseId: number | null;
  /** The teacher's courses, for the form's multi-select. */
  courses: ReadonlyArray<{ id: number; name: string }>;
  /** 'Zuweisen' on each card: the screen opens its assignment dialog (features do not import each other). */
  onAssign?: (exercise: Exercise) => void;
  /** Open the form for a new exercise at once (the first steps' link, `?new=1`). */
  startCreating?: boolean;
};

/** The exercise library (teacher): search, category and difficulty filters, cards, add/edit with files, delete. */
export function ExercisesPage({ courseId, courses, onAssign, startCreating = false }: ExercisesPageProps) {
  const { t, i18n } = useTranslation(['exercises', 'common']);
  const language = isLanguage(i18n.language) ? i18n.language : 'de';
  const toast = useToast();
  const confirm = useConfirm();
  const list = useExercises(courseId, language);
  const categories = useExerciseCategories(language);
  const { save, remove } = useExerciseMutations();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [difficulty, setDifficulty] = useState('');
  const [editing, setEditing] = useState<Exercise | null>(null);
  const [formOpen, setFormOpen] = useState(startCreating);

  useEffect(() => {
    if (list.isError) toast.error(t('exercises:toast.loadError'));
  }, [list.isError, list.errorUpdatedAt, toast, t]);

  const all = useMemo(() => list.data ?? [], [list.data]);
  const shown = useMemo(() => filterExercises(all, { search, category, difficulty }), [all, search, category, difficulty]);
  const labelOf = (e: Exercise) => (e.category ? (categories.data?.[e.category] ?? e.category_label ?? e.category) : null);
  const filtering = search.trim() !== '' || category !== '' || difficulty !== '';

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (e: Exercise) => {
    setEditing(e);
    setFormOpen(true);
  };

  async function submit(form: FormData, onProgress?: (fraction: number) => void) {
    try {
      await save.mutateAsync({ id: editing?.id, form, onProgress });
      toast.success(editing ? t('exercises:toast.updated') : t('exercises:toast.created'));
      setFormOpen(false);
    } catch (err) {
      // 413/507: too large, or no room (the school's storage quota, the server's disk;
      // docs/decisions/storage-quota.md): the server's text says which and what to do.
      if (isApiError(err, 413) || isApiError(err, 507)) toast.error(err.message, 0);
      else toast.error(isApiError(err, 422) ? t('exercises:toast.validation') : t('exercises:toast.saveError'));
      if (isApiError(err, 404)) {
        setFormOpen(false);
        void list.refetch();
      }
      throw err;
    }
  }

  async function askDelete(e: Exercise) {
    const ok = await confirm({ message: t('exercises:confirmDelete'), confirmLabel: t('common:actions.delete') });
    if (!ok) return;
    try {
      await remove.mutateAsync(e.id);
      toast.success(t('exercises:toast.deleted'));
    } catch (err) {
      if (isApiError(err, 404)) void list.refetch();
      toast.error(t('exercises:toast.deleteError'));
    }
  }

  const addButton = (
    <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={openCreate}>
      {t('exercises:add')}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('exercises:title')} subtitle={t('exercises:subtitle')} actions={addButton} />
      <div className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)] lg:items-end">
        <div className="relative col-span-2 lg:col-span-1">
          <TextField
            label={t('exercises:filters.search')}
            type="search"
            name="search"
            placeholder={t('exercises:filters.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-9"
          />
          <Search aria-hidden="true" className="pointer-events-none absolute bottom-3 left-3 size-4 text-slate-400" />
        </div>
        <Select label={t('exercises:filters.category')} name="category-filter" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">{t('exercises:filters.allCategories')}</option>
          {CATEGORIES.map((k) => (
            <option key={k} value={k}>
              {categories.data?.[k] ?? k}
            </option>
          ))}
        </Select>
        <Select label={t('exercises:filters.difficulty')} name="difficulty-filter" value={difficulty} onChange={(e) => setDifficulty(e.target.value)}>
          <option value="">{t('exercises:filters.allDifficulties')}</option>
          {DIFFICULTIES.map((d) => (
            <option key={d} value={d}>
              {t(`exercises:difficulty.${d}`)}
            </option>
          ))}
        </Select>
      </div>
      <p className="mb-4 text-sm text-slate-600 tabular-nums" aria-live="polite" data-testid="exercise-count">
        {list.data ? t('exercises:count', { shown: shown.length, total: all.length }) : '\u00a0'}
      </p>
      {list.isPending ? (
        <ExercisesSkeleton label={t('common:actions.loading')} />
      ) : list.isError ? (
        <EmptyState
          icon={AlertTriangle}
          title={t('exercises:error.title')}
          text={t('exercises:error.text')}
          action={
            <Button variant="secondary" onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('common:actions.retry')}
            </Button>
          }
        />
      ) : all.length === 0 ? (
        <EmptyState icon={Music} title={t('exercises:empty.title')} text={courseId ? t('exercises:empty.courseText') : t('exercises:empty.text')} action={addButton} />
      ) : shown.length === 0 && filtering ? (
        <EmptyState
          icon={SearchX}
          title={t('exercises:noResults.title')}
          text={t('exercises:noResults.text')}
          action={
            <Button
              variant="secondary"
              onClick={() => {
                setSearch('');
                setCategory('');
                setDifficulty('');
              }}
            >
              {t('exercises:filters.reset')}
            </Button>
          }
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((e) => (
            <li key={e.id} className="flex">
              <ExerciseCard
                exercise={e}
                categoryLabel={labelOf(e)}
                onEdit={() => openEdit(e)}
                onDelete={() => void askDelete(e)}
                onAssign={onAssign ? () => onAssign(e) : undefined}
              />
            </li>
          ))}
        </ul>
      )}
      <ExerciseForm
        open={formOpen}
        exercise={editing}
        categories={categories.data}
        courses={courses}
        defaultCourseIds={courseId ? [courseId] : []}
        defaultLanguage={language}
        onClose={() => setFormOpen(false)}
        onSubmit={submit}
      />
    </>
  );
}
