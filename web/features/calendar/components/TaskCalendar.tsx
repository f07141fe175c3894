import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type DateClickArg } from '@fullcalendar/interaction';
import deLocale from '@fullcalendar/core/locales/de';
import trLocale from '@fullcalendar/core/locales/tr';
import type { DatesSetArg, DayCellContentArg, EventClickArg, EventContentArg, EventHoveringArg, EventInput, EventMountArg, MoreLinkContentArg } from '@fullcalendar/core';
import { AlertTriangle, ListChecks } from 'lucide-react';
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
// Stable option objects: FullCalendar re-renders on every changed option.
const PLUGINS = [dayGridPlugin, interactionPlugin];
const LOCALES = [deLocale, trLocale];
const HEADER_TOOLBAR = { left: 'title', center: '', right: 'today prev,next' };

/**
 * The month calendar of due tasks (SPEC.md: month grid, German locale, 'Heute', one coloured entry
 * per task, tooltip with title, due date and status; only a teacher can click a day). Events are
 * loaded for the visible range with TanStack Query, keyed by range and course.
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
  const calendarRef = useRef<FullCalendar>(null);
  // Phones: two entries per day (initials), wider screens three (first name and exercise).
  const [narrow] = useState(() => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 640px)').matches);

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
        classNames: ['uk-ev', `uk-ev--${calendarStatus(e)}`],
        extendedProps: { source: e },
      })),
    [query.data],
  );

  const onDatesSet = useCallback((arg: DatesSetArg) => {
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

  const eventDidMount = useCallback(
    (arg: EventMountArg) => {
      const source = arg.event.extendedProps.source as CalendarEvent;
      const el = arg.el;
      // Entries are not tab stops (the grid is one): the keyboard reaches them through the day's list.
      el.tabIndex = -1;
      el.dataset.submissionId = String(source.submission_id);
      el.dataset.status = calendarStatus(source);
      el.addEventListener('blur', hideTip);
    },
    [hideTip],
  );

  // Who first (first name; initials on a phone), then the exercise; a calm check mark when done.
  // The full text is read out from a hidden span and shown in the tooltip. Plain DOM nodes, not
  // JSX: FullCalendar would render JSX through one React portal per entry, and a month of entries
  // then costs a long task on a phone (docs/decisions/first-load-on-a-phone.md).
  const eventContent = useCallback(
    (arg: EventContentArg) => {
      const source = arg.event.extendedProps.source as CalendarEvent;
      const exercise = exerciseOf(source);
      const teacherTitle = exercise !== source.title;
      const done = calendarStatus(source) === 'completed';
      const inner = el('span', 'uk-ev-inner');
      if (done) inner.append(checkIcon());
      else {
        const dot = el('span', 'uk-ev-dot', null, true);
        dot.style.backgroundColor = source.backgroundColor;
        inner.append(dot);
      }
      inner.append(el('span', 'sr-only', describe(source)));
      if (teacherTitle) inner.append(el('span', 'uk-ev-who', firstName(source.student_name), true), el('span', 'uk-ev-initials', initials(source.student_name), true));
      inner.append(el('span', cn('uk-ev-title', teacherTitle && 'uk-ev-title--exercise'), exercise, true));
      return { domNodes: [inner] };
    },
    [describe],
  );

  const onDateClickFc = useCallback((arg: DateClickArg) => {
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
  const dayCellContent = useCallback(
    (arg: DayCellContentArg) => {
      const date = toDateString(arg.date);
      const label = t('calendar:dayLabel', { date: formatLongDate(date, language), count: t('calendar:dayCount', { count: counts.get(date) ?? 0 }) } as Record<
        string,
        unknown
      >);
      return { domNodes: [el('span', '', arg.dayNumberText, true), el('span', 'sr-only', label)] };
    },
    [t, language, counts],
  );
  const describedBy = canCreate ? hintId : null;

  // FullCalendar's markup: icon spans carry role="img" without a name (the buttons have titles),
  // '+N more' links and entries would each be a tab stop, and day cells are named by their number only.
  const rootRef = useRef<HTMLDivElement>(null);
  const applyGrid = useCallback(() => {
    const root = rootRef.current;
    if (!root) return;
    root.querySelectorAll('.fc-icon:not([aria-hidden])').forEach((el) => el.setAttribute('aria-hidden', 'true'));
    root.querySelectorAll<HTMLElement>('.fc-more-link, .fc-event').forEach((el) => {
      if (el.tabIndex !== -1) el.tabIndex = -1;
      if (el.hasAttribute('aria-expanded')) el.removeAttribute('aria-expanded');
      if (el.hasAttribute('aria-controls')) el.removeAttribute('aria-controls');
    });
    const cells = [...root.querySelectorAll<HTMLElement>('td.fc-daygrid-day[data-date]')];
    if (cells.length === 0) return;
    let target = activeRef.current;
    if (!cells.some((c) => c.dataset.date === target)) {
      const today = cells.find((c) => c.classList.contains('fc-day-today'));
      target = (today ?? cells.find((c) => !c.classList.contains('fc-day-other')) ?? cells[0]!).dataset.date!;
      activeRef.current = target;
    }
    for (const c of cells) {
      const date = c.dataset.date!;
      const tab = date === target ? 0 : -1;
      if (c.tabIndex !== tab) c.tabIndex = tab;
      // Named by its content (dayCellContent: the date in words, then the entries), not by an
      // aria-label that would leave out the entries it shows (docs/decisions/label-in-name-and-phone-width.md).
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
    // '+N' opens the day's list instead of FullCalendar's popover (capture: before its own handler).
    const onClick = (ev: MouseEvent) => {
      const link = (ev.target as HTMLElement | null)?.closest('.fc-more-link');
      if (!link) return;
      ev.preventDefault();
      ev.stopPropagation();
      const date = link.closest<HTMLElement>('td.fc-daygrid-day[data-date]')?.dataset.date;
      if (date) latest.current.onDayOpen?.(date);
    };
    const onFocusIn = (ev: FocusEvent) => {
      const date = (ev.target as HTMLElement | null)?.closest<HTMLElement>('td.fc-daygrid-day[data-date]')?.dataset.date;
      if (date && date !== activeRef.current) {
        activeRef.current = date;
        setActive(date);
        applyGrid();
      }
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
      if (rootRef.current?.querySelector(`td.fc-daygrid-day[data-date="${date}"]`)) applyGrid();
      else calendarRef.current?.getApi().gotoDate(date); // datesSet → render → applyGrid focuses it
    },
    [applyGrid],
  );

  const onGridKeyDown = useCallback(
    (ev: ReactKeyboardEvent<HTMLDivElement>) => {
      const cell = (ev.target as HTMLElement).closest<HTMLElement>('td.fc-daygrid-day[data-date]');
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

  const onEventClickFc = useCallback((arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    latest.current.onEventClick?.(arg.event.extendedProps.source as CalendarEvent);
  }, []);
  const onEventMouseEnter = useCallback((arg: EventHoveringArg) => showTip(arg.event.extendedProps.source as CalendarEvent, arg.el), [showTip]);
  const buttonText = useMemo(() => ({ today: t('calendar:today') }), [t]);
  // '+ 3 weitere' on wide screens, '+3' in a phone's narrow day cells (CSS picks one).
  const moreLinkContent = useCallback(
    (arg: MoreLinkContentArg) => ({ domNodes: [el('span', 'uk-more-long', t('calendar:more', { count: arg.num })), el('span', 'uk-more-short', `+${arg.num}`, true)] }),
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
          buttonText={buttonText}
          height="auto"
          fixedWeekCount
          dayMaxEvents={narrow ? 2 : 3}
          moreLinkContent={moreLinkContent}
          dayCellContent={dayCellContent}
          events={events}
          datesSet={onDatesSet}
          dateClick={canCreate ? onDateClickFc : undefined}
          eventClick={onEventClickFc}
          eventMouseEnter={onEventMouseEnter}
          eventMouseLeave={hideTip}
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

/** A span (or other element) with a class and text; hidden from assistive technology when `hidden`. */
function el(tag: 'span', className: string, text?: string | null, hidden = false): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text) node.textContent = text;
  if (hidden) node.setAttribute('aria-hidden', 'true');
  return node;
}

/** Lucide's check mark as a plain SVG element (the done entries' mark). */
function checkIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [k, v] of Object.entries({ viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'aria-hidden': 'true', class: 'uk-ev-check' })) svg.setAttribute(k, v);
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M20 6 9 17l-5-5');
  svg.append(path);
  return svg;
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
