import '@web/features/school/i18n';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ArrowRight, BarChart3, Clock3, GraduationCap, HeartHandshake, Pencil, ScrollText, UserPlus, Users } from 'lucide-react';
import { SCHOOL_WEEKS } from '@contract/school-limits';
import type { SchoolDashboard } from '@contract/school';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatCard } from '@web/components/ui/stat-card';
import { WhenVisible } from '@web/components/ui/when-visible';
import { formatDate, formatPracticeTime } from '@web/lib/format';
import { useSchoolDashboard } from '../api/school';
import { weekSeries } from '../lib/school';
import { LoadError } from './load-error';
import { RenameSchoolDialog } from './rename-school-dialog';
import { SchoolStorageCard } from './school-storage-card';
import { lazyPart } from '@web/components/ui/lazy-section';

// Chart.js is the heaviest part of the page: its own chunk, loaded when the charts come near.
const SchoolWeeksChart = lazyPart(() => import('./school-weeks-charts'));

const chartBox = 'relative h-56 w-full min-w-0 sm:h-64';

function ChartCard({ title, description, weeks, kind, loading }: { title: string; description: string; weeks: SchoolDashboard['weeks'] | undefined; kind: 'minutes' | 'tasks'; loading: boolean }) {
  const { t } = useTranslation('school');
  const series = weeks ? weekSeries(weeks) : null;
  const values = series ? (kind === 'minutes' ? series.minutes : series.tasks) : [];
  const fallback = <Skeleton className="h-full w-full" />;
  return (
    <Card className="min-w-0">
      <CardHeader title={title} description={description} />
      <CardBody>
        <div className={chartBox}>
          {loading || !weeks ? (
            fallback
          ) : !values.some((v) => v > 0) ? (
            <div className="flex h-full flex-col items-center justify-center rounded-lg border border-dashed border-slate-300 px-6 text-center">
              <BarChart3 aria-hidden="true" className="mb-3 size-8 text-slate-400" />
              <p className="text-sm font-medium text-slate-700">{kind === 'minutes' ? t('dashboard.minutesEmpty') : t('dashboard.tasksEmpty')}</p>
              <p className="mt-1 max-w-sm text-sm text-slate-500">{t('dashboard.chartEmptyHint')}</p>
            </div>
          ) : (
            <WhenVisible className="h-full" fallback={fallback}>
              <SchoolWeeksChart weeks={weeks} kind={kind} />
            </WhenVisible>
          )}
        </div>
      </CardBody>
    </Card>
  );
}

/** The weeks as a table: the charts' numbers for screen readers and for reading exact values. */
function WeeksTable({ weeks }: { weeks: SchoolDashboard['weeks'] }) {
  const { t, i18n } = useTranslation('school');
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const rows = [...weeks].reverse();
  return (
    <table className="w-full text-left text-sm" data-testid="school-weeks-table">
      <caption className="sr-only">{t('dashboard.tableCaption', { count: weeks.length })}</caption>
      <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase">
        <tr>
          <th scope="col" className="py-2 pr-3 font-semibold">
            {t('dashboard.tableWeek')}
          </th>
          <th scope="col" className="px-3 py-2 text-right font-semibold">
            {t('dashboard.tableMinutes')}
          </th>
          <th scope="col" className="py-2 pl-3 text-right font-semibold">
            {t('dashboard.tableTasks')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((w, i) => (
          <tr key={w.week_start}>
            <th scope="row" className="py-2 pr-3 font-medium text-slate-800">
              {i === 0 ? t('dashboard.thisWeek', { date: formatDate(w.week_start) }) : t('dashboard.weekOf', { date: formatDate(w.week_start) })}
            </th>
            <td className="px-3 py-2 text-right whitespace-nowrap text-slate-700 tabular-nums">{formatPracticeTime(w.practice_minutes, language)}</td>
            <td className="py-2 pl-3 text-right text-slate-700 tabular-nums">{w.tasks_completed.toLocaleString('de-DE')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const LINKS = [
  { to: '/school/teachers', key: 'teachers', icon: GraduationCap },
  { to: '/school/students', key: 'students', icon: Users },
  { to: '/school/audit', key: 'audit', icon: ScrollText },
] as const;

/**
 * The administrator's home: the school's name (renamable), its figures (active students, teachers,
 * guardians, this week's practice time), practice minutes and completed tasks per week for
 * SCHOOL_WEEKS weeks, and the ways to the teachers, students and the audit log. `settings`: the
 * school's further settings cards the screen composes (below the storage).
 */
export function SchoolDashboardView({ settings }: { settings?: ReactNode } = {}) {
  const { t, i18n } = useTranslation(['school', 'common']);
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const dashboard = useSchoolDashboard();
  const [renaming, setRenaming] = useState(false);
  const d = dashboard.data;
  const loading = dashboard.isPending;
  const thisWeek = d?.weeks.at(-1);

  if (dashboard.isError && !d) {
    return (
      <>
        <PageHeader title={t('school:dashboard.title')} />
        <LoadError title={t('school:dashboard.error')} retrying={dashboard.isFetching} onRetry={() => void dashboard.refetch()} />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={
          d ? (
            <span data-testid="school-name">{d.school.name}</span>
          ) : (
            <>
              <span className="sr-only">{t('common:actions.loading')}</span>
              <span aria-hidden="true" className="inline-block h-7 w-64 max-w-full animate-pulse rounded-md bg-slate-200/80 align-middle" />
            </>
          )
        }
        subtitle={t('school:dashboard.subtitle')}
        actions={
          d && (
            <Button variant="secondary" icon={<Pencil aria-hidden="true" className="size-4" />} onClick={() => setRenaming(true)} data-testid="school-rename">
              {t('school:rename.button')}
            </Button>
          )
        }
      />

      <div className="space-y-6">
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-label={t('school:dashboard.kpis')}>
          <li>
            <StatCard
              className="h-full"
              label={t('school:dashboard.activeStudents')}
              value={d ? t('school:dashboard.ofTotal', { count: d.students.active, total: d.students.total }) : null}
              hint={t('school:dashboard.activeStudentsHint')}
              icon={Users}
              to="/school/students"
              loading={loading}
              valueTestId="kpi-students"
            />
          </li>
          <li>
            <StatCard
              className="h-full"
              label={t('school:dashboard.teachers')}
              value={d ? d.teachers.active.toLocaleString('de-DE') : null}
              hint={d ? t('school:dashboard.teachersHint', { count: d.teachers.deactivated }) : undefined}
              icon={GraduationCap}
              to="/school/teachers"
              loading={loading}
              valueTestId="kpi-teachers"
            />
          </li>
          <li>
            <StatCard
              className="h-full"
              label={t('school:dashboard.guardians')}
              value={d ? d.guardians.toLocaleString('de-DE') : null}
              hint={t('school:dashboard.guardiansHint')}
              icon={HeartHandshake}
              tone="green"
              loading={loading}
              valueTestId="kpi-guardians"
            />
          </li>
          <li>
            <StatCard
              className="h-full"
              label={t('school:dashboard.minutesThisWeek')}
              value={thisWeek ? formatPracticeTime(thisWeek.practice_minutes, language) : d ? '–' : null}
              hint={thisWeek ? t('school:dashboard.tasksThisWeek', { count: thisWeek.tasks_completed }) : undefined}
              icon={Clock3}
              tone="amber"
              loading={loading}
              valueTestId="kpi-minutes"
            />
          </li>
        </ul>

        {d && d.teachers.active + d.teachers.deactivated === 0 && (
          <EmptyState
            icon={UserPlus}
            title={t('school:dashboard.noTeachersTitle')}
            text={t('school:dashboard.noTeachersText')}
            action={
              <Link
                to="/school/teachers"
                className="inline-flex h-11 items-center gap-2 rounded-lg bg-brand-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 sm:h-10"
              >
                {t('school:teachers.invite')}
              </Link>
            }
          />
        )}

        <SchoolStorageCard />
        {settings}

        <div className="grid gap-6 xl:grid-cols-2">
          <ChartCard
            title={t('school:dashboard.minutesTitle')}
            description={t('school:dashboard.weeksSubtitle', { count: SCHOOL_WEEKS })}
            weeks={d?.weeks}
            kind="minutes"
            loading={loading}
          />
          <ChartCard
            title={t('school:dashboard.tasksTitle')}
            description={t('school:dashboard.weeksSubtitle', { count: SCHOOL_WEEKS })}
            weeks={d?.weeks}
            kind="tasks"
            loading={loading}
          />
        </div>

        <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
          <Card className="min-w-0">
            <CardHeader title={t('school:dashboard.tableTitle')} description={t('school:dashboard.tableSubtitle')} />
            <CardBody>{d ? <WeeksTable weeks={d.weeks} /> : <Skeleton className="h-64 w-full" />}</CardBody>
          </Card>
          <Card>
            <CardHeader title={t('school:dashboard.linksTitle')} />
            <nav aria-label={t('school:dashboard.linksTitle')}>
              <ul className="divide-y divide-slate-100">
                {LINKS.map(({ to, key, icon: Icon }) => (
                  <li key={to}>
                    <Link
                      to={to}
                      className="group flex items-center gap-3 px-5 py-3.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
                    >
                      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                        <Icon aria-hidden="true" className="size-4.5" />
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="block text-sm font-semibold text-slate-900">{t(`school:dashboard.links.${key}`)}</span>
                        <span className="block text-xs text-slate-600">{t(`school:dashboard.links.${key}Hint`)}</span>
                      </span>
                      <ArrowRight aria-hidden="true" className="size-4 shrink-0 text-slate-400 group-hover:text-slate-600" />
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </Card>
        </div>
      </div>

      {d && <RenameSchoolDialog open={renaming} name={d.school.name} onClose={() => setRenaming(false)} />}
    </>
  );
}
