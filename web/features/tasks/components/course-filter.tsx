import { useTranslation } from 'react-i18next';
import { Select } from '@web/components/ui/fields';
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
  return (
    <div className="w-full sm:w-60">
      {loading ? (
        <>
          <p className="mb-1.5 text-sm font-medium text-slate-700">{t('courseFilter.label')}</p>
          <Skeleton className="h-11 w-full sm:h-10" />
        </>
      ) : (
        <Select label={t('courseFilter.label')} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
          <option value="">{t('courseFilter.all')}</option>
          {courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      )}
    </div>
  );
}
