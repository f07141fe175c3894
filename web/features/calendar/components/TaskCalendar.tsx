import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type DateClickArg } from '@fullcalendar/interaction';
import deLocale from '@fullcalendar/core/locales/de';
import trLocale from '@fullcalendar/core/locales/tr';
import type { DatesSetArg, DayCellContentArg, EventClickArg, EventContentArg, EventHoveringArg, EventInput, EventMountArg, MoreLinkContentArg } from '@fullcalendar/core';
import { AlertTriangle } from 'lucide-react';
import type { CalendarEvent } from '@contract/calendar';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { formatDate, formatLongDate } from '@web/lib/format';
import { useCalendarEvents, type CalendarRange } from '../api/calendar-events';
import { calendarStatus, LONG_PRESS_DELAY_MS, toDateString, type CalendarStatusKey } from '../lib/calendar-settings';
import './task-calendar.css';

export type TaskCalendarProps = {
  /** A teacher may click a day to create a task; a student's calendar is read-only. */
  canCreate: boolean;
  /** Called with the clicked day (YYYY-MM-DD) when `canCreate`. */
  onDateClick?: (date: string) => void;
  /** Called when an entry is clicked (e.g. to open the task). */
  onEventClick?: (event: CalendarEvent) => void;
  /** The selected course (null or missing = all courses): part of the query key, reloads on change. */
  courseId?: number | null;
  className?: string;
};

type Tip = { event: CalendarEvent; left: number; top: number; id: string };

const TIP_WIDTH = 260;
// Stable option objects: FullCalendar re-renders on every changed option.
const PLUGINS = [dayGridPlugin, interactionPlugin];
const LOCALES = [deLocale, trLocale];
const HEADER_TOOLBAR = { left: 'title', center: '', right: 'today prev,next' };

/**
 * The month calendar of due tasks (SPEC.md: month grid, German locale, 'Heute', one coloured entry
 * per task, tooltip with title, due date and status; only a teacher can click a day). Events are
 * loaded for the visible range with TanStack Query, keyed by range and course.
 */
export function TaskCalendar({ canCreate, onDateClick, onEventClick, courseId = null, className }: TaskCalendarProps) {
  const { t, i18n } = useTranslation(['calendar', 'common']);
  const [range, setRange] = useState<CalendarRange | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const query = useCalendarEvents(range, courseId);
  const language = i18n.language === 'tr' ? 'tr' : 'de';

  // FullCalendar keeps callbacks from mount time in a few places: read the latest through refs.
  const latest = useRef({ canCreate, onDateClick, onEventClick });
  latest.current = { canCreate, onDateClick, onEventClick };

  const statusLabel = useCallback((s: CalendarStatusKey) => t(`calendar:status.${s}`), [t]);
  const describe = useCallback(
    (e: CalendarEvent) =>
      `${e.title}. ${t('calendar:tooltip.due', { date: formatDate(e.start) })}. ${t('calendar:tooltip.status')}: ${statusLabel(calendarStatus(e))}`,
    [t, statusLabel],
  );

  const events = useMemo<EventInput[]>(
    () =>
      (query.data ?? []).map((e) => ({
        id: String(e.id),
        title: e.title,
        start: e.start,
        allDay: true,
        classNames: ['uk-ev', `uk-ev--${calendarStatus(e)}`],
        extendedProps: { source: e },
      })),
    [query.data],
  );

  const onDatesSet = useCallback((arg: DatesSetArg) => {
    const next = { start: toDateString(arg.start), end: toDateString(arg.end) };
    setRange((prev) => (prev && prev.start === next.start && prev.end === next.end ? prev : next));
    setTip(null);
  }, []);

  const showTip = useCallback((event: CalendarEvent, el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    const left = Math.max(8, Math.min(r.left, window.innerWidth - TIP_WIDTH - 8));
    const below = r.bottom + 6;
    const top = below + 110 > window.innerHeight ? Math.max(8, r.top - 116) : below;
    setTip({ event, left, top, id: `uk-tip-${event.id}` });
  }, []);
  const hideTip = useCallback(() => setTip(null), []);

  const eventDidMount = useCallback(
    (arg: EventMountArg) => {
      const source = arg.event.extendedProps.source as CalendarEvent;
      const el = arg.el;
      el.tabIndex = 0;
      el.setAttribute('aria-label', describe(source));
      el.dataset.submissionId = String(source.submission_id);
      el.dataset.status = calendarStatus(source);
      el.addEventListener('focus', () => showTip(source, el));
      el.addEventListener('blur', hideTip);
      el.addEventListener('keydown', (ev) => {
        if (ev.key === 'Escape') hideTip();
        if ((ev.key === 'Enter' || ev.key === ' ') && latest.current.onEventClick) {
          ev.preventDefault();
          latest.current.onEventClick(source);
        }
      });
    },
    [describe, showTip, hideTip],
  );

  const eventContent = useCallback((arg: EventContentArg) => {
    const source = arg.event.extendedProps.source as CalendarEvent;
    return (
      <span className="uk-ev-inner">
        <span aria-hidden="true" className="uk-ev-dot" style={{ backgroundColor: source.backgroundColor }} />
        <span className="uk-ev-title">{arg.event.title}</span>
      </span>
    );
  }, []);

  // Keyboard users reach a day through its number: a button that opens the dialog (teachers only).
  const dayCellContent = useCallback(
    (arg: DayCellContentArg) => {
      if (!canCreate) return arg.dayNumberText;
      const date = toDateString(arg.date);
      return (
        <button
          type="button"
          className="uk-day-button"
          aria-label={t('calendar:createFor', { date: formatLongDate(date, language) })}
          onClick={(e: ReactMouseEvent) => {
            // A mouse or touch click is handled by FullCalendar's dateClick; this is for the keyboard.
            if (e.detail === 0) latest.current.onDateClick?.(date);
          }}
        >
          {arg.dayNumberText}
        </button>
      );
    },
    [canCreate, language, t],
  );

  const onDateClickFc = useCallback((arg: DateClickArg) => {
    if (!latest.current.canCreate) return;
    latest.current.onDateClick?.(toDateString(arg.date));
  }, []);

  // FullCalendar's markup: icon spans carry role="img" without a name (the buttons have titles),
  // and '+N more' links are <a> without href but with aria-expanded. Fix both as they appear.
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const patch = () => {
      root.querySelectorAll('.fc-icon:not([aria-hidden])').forEach((el) => el.setAttribute('aria-hidden', 'true'));
      root.querySelectorAll('.fc-more-link:not([role])').forEach((el) => {
        el.setAttribute('role', 'button');
        if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
      });
    };
    patch();
    const observer = new MutationObserver(patch);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  const onEventClickFc = useCallback((arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    latest.current.onEventClick?.(arg.event.extendedProps.source as CalendarEvent);
  }, []);
  const onEventMouseEnter = useCallback((arg: EventHoveringArg) => showTip(arg.event.extendedProps.source as CalendarEvent, arg.el), [showTip]);
  const buttonText = useMemo(() => ({ today: t('calendar:today') }), [t]);
  // '+ 3 weitere' on wide screens, '+3' in a phone's narrow day cells (CSS picks one).
  const moreLinkContent = useCallback(
    (arg: MoreLinkContentArg) => (
      <>
        <span className="uk-more-long">{t('calendar:more', { count: arg.num })}</span>
        <span className="uk-more-short" aria-hidden="true">
          +{arg.num}
        </span>
      </>
    ),
    [t],
  );

  const failed = query.isError;

  return (
    <div ref={rootRef} className={cn('uk-calendar relative', canCreate && 'uk-calendar--can-create', className)} data-testid="task-calendar">
      <div aria-live="polite" className="sr-only">
        {query.isFetching ? t('calendar:loading') : ''}
      </div>
      {query.isFetching && <div aria-hidden="true" className="uk-calendar-progress" />}
      {failed && (
        <div role="alert" className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
          <span className="flex-1">{t('calendar:loadError')}</span>
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
            {t('common:actions.retry')}
          </Button>
        </div>
      )}
      <FullCalendar
        plugins={PLUGINS}
        initialView="dayGridMonth"
        locales={LOCALES}
        locale={language}
        firstDay={1}
        headerToolbar={HEADER_TOOLBAR}
        buttonText={buttonText}
        height="auto"
        fixedWeekCount={false}
        dayMaxEvents={3}
        moreLinkContent={moreLinkContent}
        events={events}
        datesSet={onDatesSet}
        dateClick={canCreate ? onDateClickFc : undefined}
        eventClick={onEventClickFc}
        eventMouseEnter={onEventMouseEnter}
        eventMouseLeave={hideTip}
        eventDidMount={eventDidMount}
        eventContent={eventContent}
        dayCellContent={dayCellContent}
        longPressDelay={LONG_PRESS_DELAY_MS}
        eventLongPressDelay={LONG_PRESS_DELAY_MS}
        selectLongPressDelay={LONG_PRESS_DELAY_MS}
        selectable={false}
        editable={false}
      />
      {tip && <EventTooltip tip={tip} statusLabel={statusLabel} />}
    </div>
  );
}

function EventTooltip({ tip, statusLabel }: { tip: Tip; statusLabel: (s: CalendarStatusKey) => string }) {
  const { t } = useTranslation('calendar');
  const e = tip.event;
  const status = calendarStatus(e);
  return (
    <div
      role="tooltip"
      id={tip.id}
      className="pointer-events-none fixed z-40 rounded-lg border border-slate-200 bg-white px-3 py-2.5 text-sm shadow-lg ring-1 ring-slate-900/5"
      style={{ left: tip.left, top: tip.top, width: TIP_WIDTH }}
    >
      <p className="font-semibold text-slate-900">{e.title}</p>
      <p className="mt-1 text-slate-600">{t('tooltip.due', { date: formatDate(e.start) })}</p>
      <p className="mt-1 flex items-center gap-1.5 text-slate-600">
        <span aria-hidden="true" className="size-2 rounded-full" style={{ backgroundColor: e.backgroundColor }} />
        {t('tooltip.status')}: <span className="font-medium text-slate-800">{statusLabel(status)}</span>
      </p>
    </div>
  );
}
