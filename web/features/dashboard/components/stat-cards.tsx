import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { BookOpen, ClipboardList, Dumbbell, Users } from 'lucide-react';
import type { TeacherDashboard } from '@contract/dashboard';
import { StatCard } from '@web/components/ui/stat-card';

type Stat = { key: 'students' | 'courses' | 'exercises' | 'submissions'; icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>; to: string };

/** Each card leads to its list; tasks have no teacher list (SPEC.md), so theirs leads to the week's agenda. */
const STATS: Stat[] = [
  { key: 'students', icon: Users, to: '/students' },
  { key: 'courses', icon: BookOpen, to: '/courses' },
  { key: 'exercises', icon: Dumbbell, to: '/exercises' },
  { key: 'submissions', icon: ClipboardList, to: '#teacher-agenda' },
];

/** The four counts (Schüler, Kurse, Übungen, Aufgaben), for the selected course. */
export function StatCards({ data, loading }: { data: TeacherDashboard | undefined; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-label={t('stats.label')}>
      {STATS.map(({ key, icon, to }) => (
        <li key={key}>
          <StatCard
            className="h-full"
            label={t(`stats.${key}`)}
            icon={icon}
            to={to}
            loading={loading || !data}
            value={data ? data[key].toLocaleString('de-DE') : null}
            valueTestId={`stat-${key}`}
            reserveHint={key === 'submissions'}
            hint={
              key === 'submissions' && data && !loading
                ? t('stats.submissionsDetail', { open: data.submission_status.open + data.submission_status.overdue, done: data.submission_status.completed })
                : undefined
            }
          />
        </li>
      ))}
    </ul>
  );
}
