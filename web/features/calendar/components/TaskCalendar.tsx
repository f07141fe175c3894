import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import FullCalendar, {
  type ButtonInfo,
  type CalendarRef,
  type DateClickInfo,
  type DatesSetInfo,
  type DayCellInfo,
  type EventClickInfo,
  type EventDisplayInfo,
  type EventHoveringInfo,
  type EventInput,
  type MoreLinkInfo,
} from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import deLocale from '@fullcalendar/react/locales/de';
import trLocale from '@fullcalendar/react/locales/tr';
import '@fullcalendar/react/skeleton.css';
import { AlertTriangle, Check, ChevronLeft, ChevronRight, ListChecks, X } from 'lucide-react';
import type { CalendarEvent } from '@contract/calendar';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { formatDate, formatLongDate, initials } from '@web/lib/format';
import { useCalendarEvents, type CalendarRange } from '../api/calendar-events';
import { calendarStatus, LONG_PRESS_DELAY_MS, toDateString, type CalendarStatusKey } from '../lib/calendar-settings';
import { addDays, exerciseOf, firstName } from '../lib/agenda';
import './task-calendar.css';

export type TaskCalendarProps = {
  /** A teacher may click a day to create a task; a student's calendar is read-only. */
  canCreate: boolean;
  /** Called with the clicked day (YYYY-MM-DD) when `canCreate`. */
  onDateClick?: (date: string) => void;
  /** Called when an entry is clicked (e.g. to open the task). */
  onEventClick?: (event: CalendarEvent) => void;
  /**
   * Called with a day (YYYY-MM-DD) whose tasks should be listed: its '+N' link, and the button after
   * the grid that names the focused day (the keyboard's way to a day's entries).
   */
  onDayOpen?: (date: string) => void;
  /** The selected course (null or missing = all courses): part of the query key, reloads on change. */
  courseId?: number | null;
  className?: string;
};

type Tip = { event: CalendarEvent; left: number; top: number; id: string };

const TIP_WIDTH = 260;
// Stable option objects: FullCalendar renders again on every changed option.
const PLUGINS = [dayGridPlugin, interactionPlugin];
const LOCALES = [deLocale, trLocale];
const HEADER_TOOLBAR = { start: 'title', end: 'today prev,next' };
const POPOVER_CLOSE = <X aria-hidden="true" className="size-4" />;
// A day of the month grid (FullCalendar 7 marks its cells with role="cell" and the date).
const DAY_CELL = '[data-date][role="cell"]';

/**
 * The month calendar of due tasks (SPEC.md: month grid, German locale, 'Heute', one coloured entry
 * per task, tooltip with title, due date and status; only a teacher can click a day). Events are
 * loaded for the visible range with TanStack Query, keyed by range and course. FullCalendar 7
 * renders through React itself; it ships no look of its own beyond its layout (skeleton.css), so
 * every part gets the app's classes through its class settings (task-calendar.css).
 */
export function TaskCalendar({ canCreate, onDateClick, onEventClick, onDayOpen, courseId = null, className }: TaskCalendarProps) {
  const { t, i18n } = useTranslation(['calendar', 'common']);
  const [range, setRange] = useState<CalendarRange | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const query = useCalendarEvents(range, courseId);
  const language = i18n.language === 'tr' ? 'tr' : 'de';

  // FullCalendar keeps callbacks from mount time in a few places: read the latest through a ref,
  // written after each render, never during one (docs/decisions/compiler-ready-components.md).
  const latest = useRef({ canCreate, onDateClick, onEventClick, onDayOpen });
  useLayoutEffect(() => {
    latest.current = { canCreate, onDateClick, onEventClick, onDayOpen };
  });
  const calendarRef = useRef<CalendarRef>(null);

  // The grid is one tab stop: the focused day (roving tabindex); arrows move it, across weeks and months.
  // The ref is the handlers' and the grid's copy of it (read in events and effects, not while rendering).
  const [active, setActive] = useState(() => toDateString(new Date()));
  const activeRef = useRef(active);
  const pendingFocus = useRef(false);

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
        extendedProps: { source: e },
      })),
    [query.data],
  );

  const onDatesSet = useCallback((arg: DatesSetInfo) => {
    const next = { start: toDateString(arg.start), end: toDateString(arg.end) };
    setRange((prev) => (prev && prev.start === next.start && prev.end === next.end ? prev : next));
    setTip(null);
    // The toolbar changed the month: the focused day follows (today if in that month, else the 1st).
    if (activeRef.current < next.start || activeRef.current >= next.end) {
      const today = toDateString(new Date());
      const first = toDateString(arg.view.currentStart);
      activeRef.current = today.slice(0, 7) === first.slice(0, 7) ? today : first;
      setActive(activeRef.current);
    }
  }, []);

  const showTip = useCallback((event: CalendarEvent, el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    const left = Math.max(8, Math.min(r.left, window.innerWidth - TIP_WIDTH - 8));
    const below = r.bottom + 6;
    const top = below + 110 > window.innerHeight ? Math.max(8, r.top - 116) : below;
    setTip({ event, left, top, id: `uk-tip-${event.id}` });
  }, []);
  const hideTip = useCallback(() => setTip(null), []);

  const eventClass = useCallback((arg: EventDisplayInfo) => cn('uk-ev', `uk-ev--${calendarStatus(arg.event.extendedProps.source as CalendarEvent)}`), []);
  const eventDidMount = useCallback(
    (arg: EventDisplayInfo & { el: HTMLElement }) => {
      const source = arg.event.extendedProps.source as CalendarEvent;
      const el = arg.el;
      // Entries in the grid are not tab stops (the grid is one): the keyboard reaches them through the
      // day's list. In a day's popover (the read-only calendar's '+N') they are.
      el.tabIndex = el.closest('.uk-popover') ? 0 : -1;
      el.dataset.submissionId = String(source.submission_id);
      el.dataset.status = calendarStatus(source);
      el.addEventListener('blur', hideTip);
    },
    [hideTip],
  );

  // Who first (first name; initials on a phone), then the exercise; a calm check mark when done.
  // The full text is read out from a hidden span and shown in the tooltip.
  const eventContent = useCallback(
    (arg: EventDisplayInfo) => {
      const source = arg.event.extendedProps.source as CalendarEvent;
      const exercise = exerciseOf(source);
      const teacherTitle = exercise !== source.title;
      const done = calendarStatus(source) === 'completed';
      return (
        <span className="uk-ev-inner">
          {done ? <Check aria-hidden="true" className="uk-ev-check" /> : <span aria-hidden="true" className="uk-ev-dot" style={{ backgroundColor: source.backgroundColor }} />}
          <span className="sr-only">{describe(source)}</span>
          {teacherTitle && (
            <>
              <span aria-hidden="true" className="uk-ev-who">
                {firstName(source.student_name)}
              </span>
              <span aria-hidden="true" className="uk-ev-initials">
                {initials(source.student_name)}
              </span>
            </>
          )}
          <span aria-hidden="true" className={cn('uk-ev-title', teacherTitle && 'uk-ev-title--exercise')}>
            {exercise}
          </span>
        </span>
      );
    },
    [describe],
  );

  const onDateClickFc = useCallback((arg: DateClickInfo) => {
    const date = toDateString(arg.date);
    activeRef.current = date;
    setActive(date);
    if (!latest.current.canCreate) return;
    latest.current.onDateClick?.(date);
  }, []);

  const hintId = `uk-cal-hint-${useId()}`;
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const e of query.data ?? []) m.set(e.start.slice(0, 10), (m.get(e.start.slice(0, 10)) ?? 0) + 1);
    return m;
  }, [query.data]);
  // The day number as shown (hidden from screen readers), the date in words and the count for them.
  const dayCellTopContent = useCallback(
    (arg: DayCellInfo) => {
      const date = toDateString(arg.date);
      const label = t('calendar:dayLabel', { date: formatLongDate(date, language), count: t('calendar:dayCount', { count: counts.get(date) ?? 0 }) } as Record<
        string,
        unknown
      >);
      return (
        <>
          <span aria-hidden="true" className="uk-day-number">
            {arg.dayNumberText}
          </span>
          <span className="sr-only">{label}</span>
        </>
      );
    },
    [t, language, counts],
  );
  const dayCellClass = useCallback((arg: DayCellInfo) => cn('uk-day', arg.isToday && 'uk-day--today', arg.isOther && 'uk-day--other'), []);
  const buttonClass = useCallback((arg: ButtonInfo) => cn('uk-cal-btn', `uk-cal-btn--${arg.name}`, arg.buttonGroup && 'uk-cal-btn--grouped'), []);
  const buttons = useMemo(
    () => ({
      // The name is the visible word (axe: label-content-name-mismatch), not FullCalendar's 'Dieser Monat'.
      today: { text: t('calendar:today'), hint: t('calendar:today') },
      prev: { display: 'icon' as const, iconContent: <ChevronLeft aria-hidden="true" className="size-4" /> },
      next: { display: 'icon' as const, iconContent: <ChevronRight aria-hidden="true" className="size-4" /> },
    }),
    [t],
  );
  const describedBy = canCreate ? hintId : null;

  // The grid is one tab stop and the days are named by their content: FullCalendar's cells are
  // named by the date only and its entries and '+N' links would each be a tab stop.
  const rootRef = useRef<HTMLDivElement>(null);
  const applyGrid = useCallback(() => {
    const root = rootRef.current;
    if (!root) return;
    root.querySelectorAll<HTMLElement>('.uk-more, .uk-ev').forEach((el) => {
      if (el.tabIndex !== -1) el.tabIndex = -1;
    });
    // With a day list of the page's own, '+N' opens it (the capture listener below), not a dialog.
    if (latest.current.onDayOpen) {
      root.querySelectorAll<HTMLElement>('.uk-more').forEach((el) => {
        if (el.hasAttribute('aria-haspopup')) el.removeAttribute('aria-haspopup');
        if (el.hasAttribute('aria-expanded')) el.removeAttribute('aria-expanded');
      });
    }
    // A day reads its date in words with its count (ours, dayCellTopContent), once: FullCalendar's
    // own date text is hidden and the wrapper it puts around our content is not.
    root.querySelectorAll<HTMLElement>('.uk-day-top > *').forEach((el) => {
      const ours = el.querySelector('.uk-day-number') !== null;
      if (ours && el.getAttribute('aria-hidden') === 'true') el.removeAttribute('aria-hidden');
      if (!ours && el.getAttribute('aria-hidden') !== 'true') el.setAttribute('aria-hidden', 'true');
    });
    const cells = [...root.querySelectorAll<HTMLElement>(DAY_CELL)];
    if (cells.length === 0) return;
    let target = activeRef.current;
    if (!cells.some((c) => c.dataset.date === target)) {
      const today = cells.find((c) => c.classList.contains('uk-day--today'));
      target = (today ?? cells.find((c) => !c.classList.contains('uk-day--other')) ?? cells[0]!).dataset.date!;
      activeRef.current = target;
    }
    for (const c of cells) {
      const date = c.dataset.date!;
      const tab = date === target ? 0 : -1;
      if (c.tabIndex !== tab) c.tabIndex = tab;
      // Named by its content (the date in words, then the entries), not by an aria-label that would
      // leave out the entries it shows (docs/decisions/label-in-name-and-phone-width.md).
      if (c.hasAttribute('aria-labelledby')) c.removeAttribute('aria-labelledby');
      if (c.hasAttribute('aria-label')) c.removeAttribute('aria-label');
      if (describedBy && c.getAttribute('aria-describedby') !== describedBy) c.setAttribute('aria-describedby', describedBy);
      if (date === target && pendingFocus.current) {
        pendingFocus.current = false;
        c.focus();
      }
    }
  }, [describedBy]);

  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    applyGrid();
    const observer = new MutationObserver(applyGrid);
    observer.observe(root, { childList: true, subtree: true });
    const onFocusIn = (ev: FocusEvent) => {
      const date = (ev.target as HTMLElement | null)?.closest<HTMLElement>(DAY_CELL)?.dataset.date;
      if (date && date !== activeRef.current) {
        activeRef.current = date;
        setActive(date);
        applyGrid();
      }
    };
    // With a day list of the page's own (the teacher's agenda), '+N' opens it instead of FullCalendar's
    // popover: FullCalendar has no setting for "neither popover nor another view", so the click stops
    // here, in the capture phase, before it reaches React's handler at the root. Without one (the
    // student's calendar) the popover lists the day's entries.
    const onClick = (ev: MouseEvent) => {
      const link = (ev.target as HTMLElement | null)?.closest('.uk-more');
      if (!link || !latest.current.onDayOpen) return;
      ev.preventDefault();
      ev.stopPropagation();
      const date = link.closest<HTMLElement>(DAY_CELL)?.dataset.date;
      if (date) latest.current.onDayOpen?.(date);
    };
    root.addEventListener('click', onClick, true);
    root.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      root.removeEventListener('click', onClick, true);
      root.removeEventListener('focusin', onFocusIn);
    };
  }, [applyGrid]);
  // Loaded entries, another language, a moved focus: the cells' tab stop follows.
  useEffect(() => applyGrid(), [applyGrid, counts, language, active]);

  const moveTo = useCallback(
    (date: string) => {
      activeRef.current = date;
      setActive(date);
      pendingFocus.current = true;
      if (rootRef.current?.querySelector(`${DAY_CELL}[data-date="${date}"]`)) applyGrid();
      else calendarRef.current?.getApi().gotoDate(date); // datesSet → render → applyGrid focuses it
    },
    [applyGrid],
  );

  const onGridKeyDown = useCallback(
    (ev: ReactKeyboardEvent<HTMLDivElement>) => {
      const cell = (ev.target as HTMLElement).closest<HTMLElement>(DAY_CELL);
      if (!cell || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const date = cell.dataset.date!;
      const weekday = (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
      const shiftMonth = (n: number) => {
        const d = new Date(`${date}T12:00:00Z`);
        const day = d.getUTCDate();
        d.setUTCDate(1);
        d.setUTCMonth(d.getUTCMonth() + n);
        const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
        d.setUTCDate(Math.min(day, last));
        return d.toISOString().slice(0, 10);
      };
      const moves: Record<string, () => string> = {
        ArrowLeft: () => addDays(date, -1),
        ArrowRight: () => addDays(date, 1),
        ArrowUp: () => addDays(date, -7),
        ArrowDown: () => addDays(date, 7),
        Home: () => addDays(date, -weekday),
        End: () => addDays(date, 6 - weekday),
        PageUp: () => shiftMonth(-1),
        PageDown: () => shiftMonth(1),
      };
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        if (latest.current.canCreate) latest.current.onDateClick?.(date);
        else latest.current.onDayOpen?.(date);
        return;
      }
      const move = moves[ev.key];
      if (!move) return;
      ev.preventDefault();
      moveTo(move());
    },
    [moveTo],
  );

  const onEventClickFc = useCallback((arg: EventClickInfo) => {
    arg.jsEvent.preventDefault();
    latest.current.onEventClick?.(arg.event.extendedProps.source as CalendarEvent);
  }, []);
  // (not in a day's popover: there the entry shows its whole title, and a tooltip would cover the next)
  const onEventMouseEnter = useCallback(
    (arg: EventHoveringInfo) => {
      if (!arg.el.closest('.uk-popover')) showTip(arg.event.extendedProps.source as CalendarEvent, arg.el);
    },
    [showTip],
  );
  // '+ 3 weitere' on wide screens, '+3' in a phone's narrow day cells (CSS picks one).
  const moreLinkContent = useCallback(
    (arg: MoreLinkInfo) => (
      <>
        <span className="uk-more-long">{t('calendar:more', { count: arg.num })}</span>
        <span aria-hidden="true" className="uk-more-short">
          +{arg.num}
        </span>
      </>
    ),
    [t],
  );

  const failed = query.isError;

  return (
    <>
      <div
        ref={rootRef}
        className={cn('uk-calendar relative', canCreate && 'uk-calendar--can-create', className)}
        data-testid="task-calendar"
        onKeyDown={onGridKeyDown}
      >
        {canCreate && (
          <p id={hintId} className="sr-only">
            {t('calendar:gridHint')}
          </p>
        )}
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
          ref={calendarRef}
          plugins={PLUGINS}
          initialView="dayGridMonth"
          locales={LOCALES}
          locale={language}
          firstDay={1}
          headerToolbar={HEADER_TOOLBAR}
          buttons={buttons}
          className="uk-fc"
          headerToolbarClass="uk-cal-toolbar"
          toolbarSectionClass="uk-cal-toolbar-section"
          toolbarTitleClass="uk-cal-title"
          buttonGroupClass="uk-cal-btn-group"
          buttonClass={buttonClass}
          tableClass="uk-cal-table"
          dayHeaderClass="uk-day-header"
          dayHeaderInnerClass="uk-day-header-inner"
          dayRowClass="uk-day-row"
          dayCellClass={dayCellClass}
          dayCellTopClass="uk-day-top"
          dayCellTopContent={dayCellTopContent}
          height="auto"
          fixedWeekCount
          // Three rows a day (a phone shows initials, a wider screen first name and exercise); a day
          // with more shows two and its '+N' in the third, so the link always fits the fixed cell.
          dayMaxEventRows={3}
          moreLinkClass="uk-more"
          popoverClass="uk-popover"
          popoverCloseClass="uk-popover-close"
          popoverCloseContent={POPOVER_CLOSE}
          closeHint={t('common:actions.close')}
          moreLinkContent={moreLinkContent}
          events={events}
          datesSet={onDatesSet}
          dateClick={canCreate ? onDateClickFc : undefined}
          eventClick={onEventClickFc}
          eventMouseEnter={onEventMouseEnter}
          eventMouseLeave={hideTip}
          eventClass={eventClass}
          eventDidMount={eventDidMount}
          eventContent={eventContent}
          longPressDelay={LONG_PRESS_DELAY_MS}
          eventLongPressDelay={LONG_PRESS_DELAY_MS}
          selectLongPressDelay={LONG_PRESS_DELAY_MS}
          selectable={false}
          editable={false}
        />
        {onDayOpen && (
          <div className="mt-2 flex justify-end">
            <Button variant="ghost" size="sm" icon={<ListChecks aria-hidden="true" className="size-4" />} onClick={() => onDayOpen(active)} data-testid="calendar-show-day">
              {t('calendar:showDay', { date: formatDate(active) })}
            </Button>
          </div>
        )}
        {tip && <EventTooltip tip={tip} statusLabel={statusLabel} />}
      </div>
    </>
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
