import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertTriangle, CheckCircle2, Clock3, Mic, MoonStar } from 'lucide-react';
import { ATTENTION } from '@contract/dashboard-limits';
import type { TeacherAttention } from '@contract/dashboard';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatDate } from '@web/lib/format';

type Icon = ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;

// Every section keeps the height of its ATTENTION.rows rows whether it is loading, empty or full,
// so nothing on the page moves when the figures arrive (docs/decisions/teacher-day-actions.md).
const ROW = 'flex min-h-11 items-center gap-3 px-5 py-1.5';
const ROWS_HEIGHT = { minHeight: `${ATTENTION.rows * 2.75 + 0.75}rem` };

function Section({
  id,
  icon: SectionIcon,
  title,
  total,
  more,
  loading,
  emptyText,
  children,
}: {
  id: string;
  icon: Icon;
  title: string;
  total: number | null;
  more: ReactNode;
  loading: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="min-w-0 border-slate-100 py-3 not-first:border-t xl:not-first:border-t-0 xl:not-first:border-l">
      <div className="flex min-h-7 items-center justify-between gap-2 px-5">
        <h3 id={id} className="flex min-w-0 items-center gap-2 text-sm font-semibold text-slate-800">
          <SectionIcon aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
          <span className="min-w-0">{title}</span>
          {total !== null && total > 0 && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums">{total}</span>
          )}
        </h3>
        {more}
      </div>
      <div style={ROWS_HEIGHT} className="pt-1.5">
        {loading ? (
          <ul aria-hidden="true">
            {Array.from({ length: ATTENTION.rows }, (_, i) => (
              <li key={i} className={ROW}>
                <div className="flex-1 space-y-1.5">
                  <Skeleton className="h-3.5 w-1/2" />
                  <Skeleton className="h-3 w-2/3" />
                </div>
              </li>
            ))}
          </ul>
        ) : total === 0 ? (
          <p className="px-5 py-2 text-sm text-slate-500">{emptyText}</p>
        ) : (
          children
        )}
      </div>
    </section>
  );
}

function RowLink({ to, title, detail, testId }: { to: string; title: string; detail: string; testId: string }) {
  return (
    <li>
      <Link
        to={to}
        data-testid={testId}
        className={`${ROW} hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600`}
      >
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium text-slate-900" title={title}>
            {title}
          </span>
          <span className="block truncate text-xs text-slate-600">{detail}</span>
        </span>
      </Link>
    </li>
  );
}

function MoreLink({ to, label, shown, total }: { to: string; label: string; shown: number; total: number }) {
  if (total <= shown) return null;
  return (
    <Link to={to} className="shrink-0 rounded text-xs font-medium text-brand-700 hover:text-brand-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
      {label}
    </Link>
  );
}

/**
 * 'Braucht Aufmerksamkeit': students without practice for `quiet_days` days, students whose overdue
 * tasks pile up and the takes that have waited longest for an answer. Each row leads to where the
 * teacher acts: the student's page or the take in the review inbox.
 */
export function AttentionCard({
  data,
  loading,
  failed,
  retrying,
  onRetry,
}: {
  data: TeacherAttention | undefined;
  loading: boolean;
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation(['dashboard', 'common']);
  const busy = loading || !data;
  const days = data?.quiet_days ?? ATTENTION.quietDays;
  const min = data?.overdue_min ?? ATTENTION.overdueMin;
  const allClear = !!data && !loading && data.quiet.total + data.overdue.total + data.waiting.total === 0;

  return (
    <Card data-testid="attention-card" aria-busy={busy && !failed ? true : undefined}>
      <CardHeader
        title={t('dashboard:attention.title')}
        description={
          // Both texts share one cell and the hidden one keeps its height: the subtitle wraps to
          // two lines on a phone, the all-clear line does not, and the sections below must not
          // move when the figures arrive (docs/decisions/teacher-day-actions.md).
          <span className="grid">
            <span className={`col-start-1 row-start-1 ${allClear ? 'invisible' : ''}`} aria-hidden={allClear ? true : undefined}>
              {t('dashboard:attention.subtitle')}
            </span>
            <span
              className={`col-start-1 row-start-1 inline-flex items-center gap-1.5 self-start font-medium text-emerald-700 ${allClear ? '' : 'invisible'}`}
              aria-hidden={allClear ? undefined : true}
              data-testid={allClear ? 'attention-clear' : undefined}
            >
              <CheckCircle2 aria-hidden="true" className="size-4" />
              {t('dashboard:attention.allClear')}
            </span>
          </span>
        }
      />
      {failed && !data ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 px-5 py-4 text-sm text-red-800" style={ROWS_HEIGHT}>
          <AlertTriangle aria-hidden="true" className="size-5 shrink-0" />
          <p className="min-w-0 flex-1">{t('dashboard:attention.error')}</p>
          <Button variant="secondary" size="sm" loading={retrying} onClick={onRetry}>
            {t('common:actions.retry')}
          </Button>
        </div>
      ) : (
        <div className="grid xl:grid-cols-3">
          <Section
            id="attention-quiet"
            icon={MoonStar}
            title={t('dashboard:attention.quiet.title', { count: days })}
            total={busy ? null : data.quiet.total}
            loading={busy}
            emptyText={t('dashboard:attention.quiet.empty', { count: days })}
            more={data && <MoreLink to="/students" label={t('dashboard:attention.allStudents')} shown={data.quiet.students.length} total={data.quiet.total} />}
          >
            <ul data-testid="attention-quiet">
              {data?.quiet.students.map((s) => (
                <RowLink
                  key={s.id}
                  to={`/students/${s.id}`}
                  testId="attention-quiet-row"
                  title={s.name}
                  detail={
                    s.last_practice
                      ? t('dashboard:attention.quiet.since', { count: s.days, date: formatDate(s.last_practice) })
                      : t('dashboard:attention.quiet.never', { count: s.days })
                  }
                />
              ))}
            </ul>
          </Section>
          <Section
            id="attention-overdue"
            icon={Clock3}
            title={t('dashboard:attention.overdue.title', { count: min })}
            total={busy ? null : data.overdue.total}
            loading={busy}
            emptyText={t('dashboard:attention.overdue.empty')}
            more={data && <MoreLink to="/students" label={t('dashboard:attention.allStudents')} shown={data.overdue.students.length} total={data.overdue.total} />}
          >
            <ul data-testid="attention-overdue">
              {data?.overdue.students.map((s) => (
                <RowLink
                  key={s.id}
                  to={`/students/${s.id}`}
                  testId="attention-overdue-row"
                  title={s.name}
                  detail={t('dashboard:attention.overdue.detail', { count: s.overdue, date: formatDate(s.oldest_due) })}
                />
              ))}
            </ul>
          </Section>
          <Section
            id="attention-waiting"
            icon={Mic}
            title={t('dashboard:attention.waiting.title')}
            total={busy ? null : data.waiting.total}
            loading={busy}
            emptyText={t('dashboard:attention.waiting.empty')}
            more={data && <MoreLink to="/review" label={t('dashboard:attention.allTakes')} shown={data.waiting.takes.length} total={data.waiting.total} />}
          >
            <ul data-testid="attention-waiting">
              {data?.waiting.takes.map((w) => (
                <RowLink
                  key={w.id}
                  to={`/review?take=${w.id}`}
                  testId="attention-waiting-row"
                  title={t('dashboard:attention.waiting.row', { student: w.student.name, exercise: w.exercise_title })}
                  detail={w.days === 0 ? t('dashboard:attention.waiting.today') : t('dashboard:attention.waiting.days', { count: w.days })}
                />
              ))}
            </ul>
          </Section>
        </div>
      )}
    </Card>
  );
}
