import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { BookOpen, ClipboardList, Dumbbell, Users } from 'lucide-react';
import type { TeacherDashboard } from '@contract/dashboard';
import { Card } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';

type Stat = { key: 'students' | 'courses' | 'exercises' | 'submissions'; icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }> };

const STATS: Stat[] = [
  { key: 'students', icon: Users },
  { key: 'courses', icon: BookOpen },
  { key: 'exercises', icon: Dumbbell },
  { key: 'submissions', icon: ClipboardList },
];

/** The four counts (Schüler, Kurse, Übungen, Aufgaben), for the selected course. */
export function StatCards({ data, loading }: { data: TeacherDashboard | undefined; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-label={t('stats.label')}>
      {STATS.map(({ key, icon: Icon }) => (
        <li key={key}>
          <Card className="flex h-full items-start gap-3 p-4 sm:p-5">
            <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <Icon aria-hidden="true" className="size-5" />
            </div>
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-600">{t(`stats.${key}`)}</p>
              {loading || !data ? (
                <Skeleton className="mt-1.5 h-7 w-12" />
              ) : (
                <p className="tabular mt-0.5 text-2xl font-semibold tracking-tight text-slate-900" data-testid={`stat-${key}`}>
                  {data[key].toLocaleString('de-DE')}
                </p>
              )}
              {key === 'submissions' && data && !loading && (
                <p className="mt-0.5 text-xs text-slate-500">
                  {t('stats.submissionsDetail', { open: data.submission_status.open + data.submission_status.overdue, done: data.submission_status.completed })}
                </p>
              )}
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
