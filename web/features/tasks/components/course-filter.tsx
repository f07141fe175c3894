import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@web/components/ui/skeleton';

/** The student's course filter on the task list (students have no sidebar selector). */
export function CourseFilter({
  courses,
  value,
  onChange,
  loading,
}: {
  courses: { id: number; name: string }[];
  value: number | null;
  onChange: (id: number | null) => void;
  loading: boolean;
}) {
  const { t } = useTranslation('tasks');
  const id = useId();
  return (
    <div className="w-full sm:w-60">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {t('courseFilter.label')}
      </label>
      {loading ? (
        <Skeleton className="h-10 w-full" />
      ) : (
        <select
          id={id}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
          className="block h-10 w-full rounded-lg border-0 bg-white px-3 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
        >
          <option value="">{t('courseFilter.all')}</option>
          {courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
