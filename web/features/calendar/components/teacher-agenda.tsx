import { memo, useMemo, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, ArrowLeft, CalendarCheck2, Check } from 'lucide-react';
import { STATUS_COLORS } from '@contract/constants';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/components/ui/cn';
import { formatDate, initials } from '@web/lib/format';
import { useCalendarEvents } from '../api/calendar-events';
import { nameAfterVisible } from '@web/lib/label-in-name';
import { AGENDA_WEEK_DAYS, addDays, firstName, groupAgenda, type AgendaDay, type AgendaEntry } from '../lib/agenda';
import { localToday } from '@web/lib/today';
import { useMediaQuery } from '@web/lib/media-query';


const dotColor: Record<AgendaEntry['status'], string> = {
  completed: STATUS_COLORS.completed,
  open: STATUS_COLORS.open,
  expired: STATUS_COLORS.expired,
};

/**
 * The teacher's day beside the calendar: today and the next six days (or one chosen day), per day
 * the tasks grouped by exercise with the students as buttons that open the task panel, and how
 * many are done. Reads the same calendar-events call as the calendar, for a week only.
 */
export function TeacherAgenda({
  courseId,
  day,
  onBack,
  onOpenTask,
  headingRef,
}: {
  courseId: number | null;
  /** One chosen day (YYYY-MM-DD), or null for the week from today. */
  day: string | null;
  onBack: () => void;
  onOpenTask: (submissionId: number) => void;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t, i18n } = useTranslation(['dashboard', 'calendar', 'common']);
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const today = localToday();
  const from = day ?? today;
  const length = day ? 1 : AGENDA_WEEK_DAYS;
  const range = useMemo(() => ({ start: from, end: addDays(from, length) }), [from, length]);
  const query = useCalendarEvents(range, courseId);
  const days = useMemo(() => (query.data ? groupAgenda(query.data, from, length, language) : null), [query.data, from, length, language]);
  // While another range loads, the previous one's entries stay (keepPreviousData): show a skeleton instead.
  const stale = query.isPlaceholderData;

  const weekday = useMemo(() => new Intl.DateTimeFormat(language === 'tr' ? 'tr-TR' : 'de-DE', { weekday: 'long', timeZone: 'UTC' }), [language]);
  const dayName = (date: string) => {
    const name = date === today ? t('dashboard:agenda.today') : date === addDays(today, 1) ? t('dashboard:agenda.tomorrow') : weekday.format(new Date(`${date}T12:00:00Z`));
    return `${name}, ${formatDate(date)}`;
  };

  const shownDays = days?.filter((d) => d.total > 0 || d.date === from) ?? [];
  // Phones: today and the next day with tasks first; the rest of the week on request.
  const [expanded, setExpanded] = useState(false);
  const collapsible = !day && shownDays.length > 2;
  // A collapsed phone draws only the days it shows (the rest are drawn when asked for): the week
  // of a school is a few hundred buttons, a long task on a phone's first load.
  const phone = useMediaQuery('(max-width: 639.98px)');
  const drawnDays = collapsible && !expanded && phone ? shownDays.slice(0, 2) : shownDays;
  const statusLabels = useMemo(
    () => ({ completed: t('calendar:status.completed'), open: t('calendar:status.open'), expired: t('calendar:status.expired') }),
    [t],
  );

  return (
    <Card className="flex min-w-0 flex-col overflow-hidden" id="teacher-agenda" data-testid="teacher-agenda">
      <div className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <h2 ref={headingRef} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
            {day ? t('dashboard:agenda.dayTitle', { date: dayName(day) }) : t('dashboard:agenda.title')}
          </h2>
          {!day && <p className="mt-0.5 text-sm text-slate-500">{t('dashboard:agenda.subtitle')}</p>}
        </div>
        {day && (
          <Button variant="ghost" size="sm" icon={<ArrowLeft aria-hidden="true" className="size-4" />} onClick={onBack}>
            {t('dashboard:agenda.back')}
          </Button>
        )}
      </div>
      {query.isError ? (
        <p role="alert" className="m-5 flex items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800">
          <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
          {t('dashboard:agenda.loadError')}
        </p>
      ) : !days || stale ? (
        <div className="space-y-4 px-5 py-4" aria-busy="true" aria-label={t('dashboard:agenda.loading')}>
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="space-y-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-12 w-full" />
            </div>
          ))}
        </div>
      ) : shownDays.every((d) => d.total === 0) && !day ? (
        <div className="flex flex-col items-center px-5 py-8 text-center">
          <CalendarCheck2 aria-hidden="true" className="size-6 text-slate-400" />
          <p className="mt-2 text-sm text-slate-600">{t('dashboard:agenda.emptyWeek')}</p>
        </div>
      ) : (
        <ol
          className={cn('grid', !day && 'sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-1')}
          aria-busy={query.isFetching || undefined}
        >
          {drawnDays.map((d) => (
            <AgendaDayItem
              key={d.date}
              day={d}
              label={dayName(d.date)}
              showLabel={!day}
              statusLabels={statusLabels}
              onOpenTask={onOpenTask}
            />
          ))}
        </ol>
      )}
      {collapsible && days && !stale && (
        <div className="border-t border-slate-100 px-5 py-2 sm:hidden">
          <Button variant="ghost" size="sm" fullWidth onClick={() => setExpanded((x) => !x)} aria-expanded={expanded}>
            {expanded ? t('dashboard:agenda.showLess') : t('dashboard:agenda.showWeek')}
          </Button>
        </div>
      )}
    </Card>
  );
}

/** Memoised: the agenda drawn again (the week refetched unchanged, the phone's list expanded) leaves its days alone. */
const AgendaDayItem = memo(function AgendaDayItem({
  day,
  label,
  showLabel,
  statusLabels,
  onOpenTask,
}: {
  day: AgendaDay;
  label: string;
  showLabel: boolean;
  statusLabels: Record<AgendaEntry['status'], string>;
  onOpenTask: (id: number) => void;
}) {
  const { t } = useTranslation(['dashboard', 'calendar']);
  return (
    <li className="border-b border-slate-100 bg-white px-5 py-4 sm:border-r" data-testid="agenda-day" data-date={day.date}>
      {showLabel && (
        <h3 className="mb-2 flex items-baseline justify-between gap-2 text-sm font-semibold text-slate-900">
          <span>{label}</span>
          <span className="text-xs font-normal text-slate-500">{t('calendar:dayCount', { count: day.total })}</span>
        </h3>
      )}
      {day.total === 0 ? (
        <p className="text-sm text-slate-500">{t('dashboard:agenda.empty')}</p>
      ) : (
        <ul className="space-y-3">
          {day.groups.map((g) => (
            <li key={g.exercise} data-testid="agenda-group">
              <div className="flex items-baseline justify-between gap-2">
                <p className="min-w-0 truncate text-sm font-medium text-slate-800" title={g.exercise}>
                  {g.exercise}
                </p>
                <p className="shrink-0 text-xs text-slate-500 tabular-nums">
                  {g.done > 0 ? t('dashboard:agenda.done', { done: g.done, total: g.entries.length }) : t('dashboard:agenda.count', { count: g.entries.length })}
                </p>
              </div>
              <ul className="mt-1.5 flex flex-wrap gap-1.5">
                {g.entries.map((e) => (
                  <li key={e.submissionId}>
                    <button
                      type="button"
                      onClick={() => onOpenTask(e.submissionId)}
                      data-testid="agenda-entry"
                      data-submission-id={e.submissionId}
                      title={`${e.studentName} – ${g.exercise} (${statusLabels[e.status]})`}
                      className={cn(
                        'inline-flex min-h-9 items-center gap-1.5 rounded-full border py-1 pr-3 pl-1 text-sm text-slate-800 hover:border-brand-300 hover:bg-brand-50',
                        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
                        e.status === 'completed' ? 'border-emerald-200 bg-emerald-50/60' : 'border-slate-200 bg-white',
                      )}
                    >
                      <span
                        aria-hidden="true"
                        className="relative flex size-7 items-center justify-center rounded-full bg-brand-100 text-[0.6875rem] font-semibold text-brand-800"
                      >
                        {initials(e.studentName)}
                        <span
                          className="absolute -right-0.5 -bottom-0.5 flex size-3 items-center justify-center rounded-full ring-2 ring-white"
                          style={{ backgroundColor: dotColor[e.status] }}
                        >
                          {e.status === 'completed' && <Check className="size-2 text-white" strokeWidth={4} />}
                        </span>
                      </span>
                      {/* Named by its visible first name, then the rest (docs/decisions/label-in-name-and-phone-width.md). */}
                      <span>{firstName(e.studentName)}</span>
                      <span className="sr-only">
                        {nameAfterVisible(
                          firstName(e.studentName),
                          `${t('dashboard:agenda.openTask', { student: e.studentName, exercise: g.exercise })} (${statusLabels[e.status]})`,
                        )}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
});
