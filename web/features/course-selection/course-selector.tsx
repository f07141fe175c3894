import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { BookOpen } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@web/lib/api';
import { Select } from '@web/components/ui/fields';
import { Skeleton } from '@web/components/ui/skeleton';
import { COURSES_QUERY_KEY, useCourses, useSelectedCourse } from './course-selection';

/**
 * The teacher's course selector in the sidebar: 'Alle Kurse' or one course, and a line naming the
 * active course. Reloads the list when the signed-in user changes; a load failure is logged only.
 * Until `load`, the list is not asked for and the selector shows its skeleton.
 */
export function CourseSelector({ userId, load = true }: { userId: number; load?: boolean }) {
  const { t } = useTranslation('layout');
  const id = useId();
  const queryClient = useQueryClient();
  const { courseId, setCourseId } = useSelectedCourse();
  const courses = useCourses(load);

  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: COURSES_QUERY_KEY });
  }, [userId, queryClient]);

  useEffect(() => {
    if (courses.error) console.error('Kurse konnten nicht geladen werden', courses.error);
  }, [courses.error]);

  const list = courses.data ?? [];
  const selected = list.find((c) => c.id === courseId) ?? null;

  // A stored course that this teacher no longer has means all courses.
  useEffect(() => {
    if (courses.isSuccess && courseId !== null && !courses.data.some((c) => c.id === courseId)) setCourseId(null);
  }, [courses.isSuccess, courses.data, courseId, setCourseId]);

  const unavailable = courses.isError && isApiError(courses.error);
  const activeName = selected?.name ?? t('course.all');

  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50/80 p-3">
      {courses.isPending ? (
        <>
          <p className="mb-1.5 text-sm font-medium text-slate-700">{t('course.label')}</p>
          <Skeleton className="h-11 w-full sm:h-10" />
          <span className="sr-only">{t('course.loading')}</span>
        </>
      ) : (
        <Select
          id={id}
          label={t('course.label')}
          value={courseId ?? ''}
          onChange={(e) => setCourseId(e.target.value ? Number(e.target.value) : null)}
          disabled={unavailable && list.length === 0}
        >
          <option value="">{t('course.all')}</option>
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      )}
      <p className="mt-2 flex items-center gap-1.5 text-xs text-slate-600" aria-live="polite">
        <BookOpen aria-hidden="true" className="size-3.5 shrink-0 text-slate-400" />
        <span className="truncate" title={t('course.active', { name: activeName })}>
          {t('course.active', { name: activeName })}
        </span>
      </p>
    </div>
  );
}
