import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import type { CalendarEvent } from '@contract/calendar';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { PageHeader } from '@web/components/ui/page-header';
import { useSelectedCourse } from '@web/features/course-selection/course-selection';
import { DASHBOARD_KEY, useTeacherAttention, useTeacherDashboard } from '@web/features/dashboard/api/dashboard';
import { AttentionCard } from '@web/features/dashboard/components/attention-card';
import { FirstSteps } from '@web/features/dashboard/components/first-steps';
import { localToday } from '@web/features/tasks/lib/task-status';
import { StatCards } from '@web/features/dashboard/components/stat-cards';
import { RecentStudents } from '@web/features/dashboard/components/recent-students';
import { TeacherAgenda } from '@web/features/calendar/components/teacher-agenda';
import { CalendarSkeleton } from '@web/features/dashboard/components/calendar-skeleton';
import { WhenVisible } from '@web/components/ui/when-visible';
import { CalendarSubscription } from '@web/features/calendar/components/calendar-subscription';
import { CALENDAR_EVENTS_KEY, useCalendarEvents } from '@web/features/calendar/api/calendar-events';
import { agendaWeek } from '@web/features/calendar/lib/agenda';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// FullCalendar is the heaviest part of the page: its own chunk, fetched at once but rendered after
// the first paint, in a skeleton of the same size (no layout shift).
const loadCalendar = () => import('@web/features/calendar/components/TaskCalendar').then((m) => ({ default: m.TaskCalendar }));
const TaskCalendar = lazyPart(loadCalendar);

// The assignment dialog and the task panel open on a click: their code (forms, Headless UI, the
// review's schemas) is fetched after the first paint, not before it (docs/decisions/first-load-on-a-phone.md).
const loadAssignmentDialog = () => import('@web/features/assignments/components/assignment-dialog').then((m) => ({ default: m.AssignmentDialog }));
const loadTaskPanel = () => import('@web/app/compositions/task-panel').then((m) => ({ default: m.TaskPanel }));
const AssignmentDialog = lazyPart(loadAssignmentDialog);
const TaskPanel = lazyPart(loadTaskPanel);

/** Runs `fn` when the browser is idle after the first paint (at the latest after `timeout` ms). */
function afterPaint(fn: () => void, timeout = 1200): () => void {
  let idle: number | undefined;
  const frame = requestAnimationFrame(() => {
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(fn, { timeout });
    else idle = window.setTimeout(fn, 50);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (idle !== undefined) {
      if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
      window.clearTimeout(idle);
    }
  };
}

/**
 * The teacher's dashboard (SPEC.md): what needs attention (a new teacher: the first steps), stat
 * cards, the calendar (a day click opens the assignment dialog) and the 8 most recently registered
 * students, all for the selected course; beside the calendar the agenda of the week. Every entry
 * and agenda row opens the task panel.
 */
export default function TeacherDashboardScreen() {
  const { t } = useTranslation(['dashboard', 'common']);
  const { courseId } = useSelectedCourse();
  const dashboard = useTeacherDashboard(courseId);
  const attention = useTeacherAttention(courseId);
  const qc = useQueryClient();
  const [dialogDate, setDialogDate] = useState<string | null>(null);
  // Opened from the first steps there is no clicked day: the dialog asks for the due date.
  const [pickDate, setPickDate] = useState(false);
  const [panelId, setPanelId] = useState<number | null>(null);
  const [agendaDay, setAgendaDay] = useState<string | null>(null);
  const [calendarReady, setCalendarReady] = useState(false);
  // A phone shows the agenda first and the month grid far below it: the grid (FullCalendar, the
  // costliest part of the page to draw) is drawn when scrolled near, like the student's calendar.
  const [phone] = useState(() => typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 640px)').matches);
  const agendaHeading = useRef<HTMLHeadingElement>(null);
  const focusAgenda = useRef(false);

  // A desk fetches the calendar at once and the dialog and the panel when idle. A phone fetches the
  // calendar when its grid is scrolled near, and the dialog and the panel at the first touch or
  // focus on the page: evaluating their code (forms, the review's schemas) is a long task that a
  // phone's first load should not carry for a click that may never come.
  useEffect(() => {
    if (!phone) void loadCalendar();
    return afterPaint(() => {
      setCalendarReady(true);
      if (phone) return;
      void loadAssignmentDialog();
      void loadTaskPanel();
    });
  }, [phone]);
  const warmOpeners = useCallback(() => {
    void loadAssignmentDialog();
    void loadTaskPanel();
  }, []);

  // The tasks card links to the agenda (#teacher-agenda): there is no teacher task list.
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash === '#teacher-agenda') document.getElementById('teacher-agenda')?.scrollIntoView({ block: 'start' });
  }, [hash, key]);

  useEffect(() => {
    if (!focusAgenda.current) return;
    focusAgenda.current = false;
    agendaHeading.current?.focus();
    agendaHeading.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [agendaDay]);

  const onCreated = useCallback(() => {
    void qc.invalidateQueries({ queryKey: CALENDAR_EVENTS_KEY });
    void qc.invalidateQueries({ queryKey: DASHBOARD_KEY });
    // Task lists and student overviews elsewhere reload when next shown.
    void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== CALENDAR_EVENTS_KEY[0] && q.queryKey[0] !== DASHBOARD_KEY[0], refetchType: 'none' });
  }, [qc]);
  const onEventClick = useCallback((e: CalendarEvent) => setPanelId(e.submission_id), []);
  const onDateClick = useCallback((date: string) => {
    setPickDate(false);
    setDialogDate(date);
  }, []);
  const assignToday = useCallback(() => {
    setPickDate(true);
    setDialogDate(localToday());
  }, []);
  const onDayOpen = useCallback((date: string) => {
    focusAgenda.current = true;
    setAgendaDay(date);
  }, []);

  const loading = dashboard.isPending || (dashboard.isPlaceholderData && dashboard.isFetching);

  // On a phone the agenda comes first and its height depends on the week's entries: the calendar
  // and the recent students below it appear once the agenda has them, so nothing on screen moves
  // when they arrive (docs/decisions/first-load-on-a-phone.md: layout shift). The same query as the agenda's (one request).
  const week = useMemo(() => agendaWeek(), []);
  const agendaWeekQuery = useCalendarEvents(week, courseId);
  const [belowAgenda, setBelowAgenda] = useState(false);
  const [dialogUsed, setDialogUsed] = useState(false);
  const [panelUsed, setPanelUsed] = useState(false);
  if (!dialogUsed && dialogDate !== null) setDialogUsed(true);
  if (!panelUsed && panelId !== null) setPanelUsed(true);
  if (!belowAgenda && (agendaWeekQuery.data !== undefined || agendaWeekQuery.isError)) setBelowAgenda(true);

  return (
    <>
      <PageHeader title={t('dashboard:title')} subtitle={courseId ? t('dashboard:subtitleCourse') : t('dashboard:subtitleAll')} />
      <div className="space-y-6" onPointerDownCapture={phone ? warmOpeners : undefined} onFocusCapture={phone ? warmOpeners : undefined}>
        {attention.data && !attention.data.first_steps.assignment ? (
          <FirstSteps steps={attention.data.first_steps} onAssign={assignToday} />
        ) : (
          <AttentionCard
            data={attention.data}
            loading={attention.isPending || (attention.isPlaceholderData && attention.isFetching)}
            failed={attention.isError}
            retrying={attention.isFetching}
            onRetry={() => void attention.refetch()}
          />
        )}
        {dashboard.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            <AlertTriangle aria-hidden="true" className="size-5 shrink-0" />
            <div className="min-w-0 flex-1">
              <p className="font-semibold">{t('dashboard:error.title')}</p>
              <p>{t('dashboard:error.text')}</p>
            </div>
            <Button variant="secondary" size="sm" loading={dashboard.isFetching} onClick={() => void dashboard.refetch()}>
              {t('common:actions.retry')}
            </Button>
          </div>
        ) : (
          <StatCards data={dashboard.data} loading={loading} />
        )}

        <div className="grid items-start gap-6 2xl:grid-cols-[minmax(0,1fr)_24rem]">
          {belowAgenda && (
            <Card className="min-w-0">
              <CardHeader title={t('dashboard:calendar.title')} description={t('dashboard:calendar.hint')} />
              <div className="p-3 sm:p-5">
                {calendarReady && phone ? (
                  <WhenVisible fallback={<CalendarSkeleton />}>
                    <TaskCalendar canCreate courseId={courseId} onDateClick={onDateClick} onEventClick={onEventClick} onDayOpen={onDayOpen} />
                  </WhenVisible>
                ) : calendarReady ? (
                  <LazySection fallback={<CalendarSkeleton />}>
                    <TaskCalendar canCreate courseId={courseId} onDateClick={onDateClick} onEventClick={onEventClick} onDayOpen={onDayOpen} />
                  </LazySection>
                ) : (
                  <CalendarSkeleton />
                )}
                {/* Outside the calendar's lazy chunk: on the page from the first paint, so nothing below moves when the calendar arrives. */}
                <CalendarSubscription audience="teacher" className="mt-4" />
              </div>
            </Card>
          )}
          <div className="order-first min-w-0 2xl:order-none">
            <TeacherAgenda courseId={courseId} day={agendaDay} onBack={() => setAgendaDay(null)} onOpenTask={setPanelId} headingRef={agendaHeading} />
          </div>
        </div>
        {belowAgenda && <RecentStudents students={dashboard.data?.recent_students} loading={dashboard.isPending} failed={dashboard.isError} />}
      </div>
      {/* Mounted from the first opening on, so they can animate out when closed. */}
      {(dialogUsed || dialogDate !== null) && (
        <LazySection fallback={null} floating>
          <AssignmentDialog date={dialogDate} courseId={courseId} pickDate={pickDate} onClose={() => setDialogDate(null)} onCreated={onCreated} />
        </LazySection>
      )}
      {(panelUsed || panelId !== null) && (
        <LazySection fallback={null} floating>
          <TaskPanel submissionId={panelId} onClose={() => setPanelId(null)} />
        </LazySection>
      )}
    </>
  );
}
