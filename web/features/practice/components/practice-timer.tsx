import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PracticeSession } from '@contract/practice';
import { isApiError } from '@web/lib/api';
import { isConnected } from '@web/lib/connectivity';
import { formatDuration } from '@web/lib/format';
import { useToast } from '@web/components/ui/toast';
import { useAuth } from '@web/lib/auth/auth-provider';
import { asQueuedSession, asRunningSession, localSessions, useLocalSession } from '@web/lib/offline-session';
import { useQueuedWrites } from '@web/lib/outbox/use-outbox';
import { getPracticeTempo } from '@web/lib/practice-tempo';
import type { PracticeRun } from '@web/lib/practice-run';
import { activeSessionQueryOptions, practiceKeys, sessionOfConflict, startSession, stopSession, useSessions } from '../api/practice-sessions';
import { estimateSkew } from '../lib/elapsed';
import { TimerView } from './timer-view';
import { byIso } from '@web/lib/order';

/** Device clock minus server clock, measured on the last start answer (0 until then). */
let clockSkewMs = 0;

/** The server's own message of a failed call, if it sent one. */
function serverMessage(err: unknown): string | null {
  if (!isApiError(err)) return null;
  const body = err.body as { message?: unknown } | null;
  return body && typeof body.message === 'string' && body.message ? body.message : null;
}

/**
 * SPEC.md 'Practice timer component' for one task. On mount it loads the running session; the
 * time shown always comes from the server's started_at. A 409 on start resumes the running
 * session. When a session finishes (here, in another tab, or by completing the task) the list
 * reloads and `onSessionFinished` lets the screen reload the task. `renderRun` puts a control of
 * the screen's (the run recorder) into the practice bar, under Start/Stopp, with the timer's state.
 */
export function PracticeTimer({
  submissionId,
  exerciseTitle,
  estimatedMinutes,
  today,
  onSessionFinished,
  renderRun,
}: {
  submissionId: number;
  exerciseTitle: string;
  /** The exercise's estimated minutes (today's practice is shown against them). */
  estimatedMinutes?: number | null;
  /** Today's date 'YYYY-MM-DD'. */
  today: string;
  onSessionFinished?: () => void;
  renderRun?: (run: PracticeRun) => ReactNode;
}) {
  const { t } = useTranslation('practice');
  const language = useLanguage();
  const toast = useToast();
  const queryClient = useQueryClient();
  const userId = useAuth().user?.id ?? null;
  // docs/decisions/offline-practice.md: a session timed on this device without a connection, and those waiting to be sent.
  const local = useLocalSession(userId);
  const localHere = local?.submissionId === submissionId ? local : null;
  const queued = useQueuedWrites(userId);
  const active = useQuery({
    ...activeSessionQueryOptions(submissionId),
    // a session stopped in another tab or on another device shows up here
    refetchOnWindowFocus: true,
    refetchInterval: (q) => (q.state.data ? 30_000 : false),
  });
  const sessions = useSessions(submissionId);
  const [busy, setBusy] = useState<'start' | 'stop' | null>(null);
  const running = localHere ? asRunningSession(localHere) : (active.data ?? null);
  // The server's sessions and the ones still in the outbox (they count toward today's total at once).
  const shownSessions = useMemo(() => {
    const waiting = queued
      .filter((w) => w.submissionId === submissionId && w.state !== 'refused')
      .map(asQueuedSession)
      .filter((x): x is PracticeSession => x !== null);
    if (!sessions.data && waiting.length === 0) return undefined;
    return [...waiting, ...(sessions.data ?? [])].sort((a, b) => byIso(b.started_at, a.started_at));
  }, [queued, sessions.data, submissionId]);

  // A phone waking up: ask the server again (the display itself is already right).
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void queryClient.invalidateQueries({ queryKey: practiceKeys.active(submissionId) });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [queryClient, submissionId]);

  // Running → not running, however it happened: reload the sessions and the task.
  const lastRunning = useRef<number | null>(null);
  // the latest onSessionFinished, called from the effect without being one of its dependencies
  const finished = useEffectEvent(() => onSessionFinished?.());
  useEffect(() => {
    if (active.isPending) return;
    const id = running?.id ?? null;
    if (lastRunning.current !== null && lastRunning.current !== id) {
      void queryClient.invalidateQueries({ queryKey: practiceKeys.list(submissionId) });
      finished();
    }
    lastRunning.current = id;
  }, [running, active.isPending, queryClient, submissionId]);

  const setRunning = useCallback(
    (s: PracticeSession | null) => queryClient.setQueryData(practiceKeys.active(submissionId), s),
    [queryClient, submissionId],
  );

  /** Starts the timer on this device (no connection): the session is sent when it stops. Whether it runs. */
  const startOffline = useCallback((): boolean => {
    if (userId === null) return false;
    const other = localSessions.get(userId);
    if (other && other.submissionId !== submissionId) {
      toast.error(t('otherTaskRunning', { title: other.title }));
      return false;
    }
    if (!other) localSessions.start(userId, submissionId, exerciseTitle);
    toast.info(t('startedOffline'), 3000);
    return true;
  }, [exerciseTitle, submissionId, t, toast, userId]);

  /** Starts the timer; whether it runs then, and the session's id on the server (null when timed here). */
  const start = useCallback(async (): Promise<{ running: boolean; sessionId: number | null }> => {
    if (!isConnected()) return { running: startOffline(), sessionId: null };
    setBusy('start');
    const sentAt = Date.now();
    try {
      const s = await startSession(submissionId);
      clockSkewMs = estimateSkew(s.started_at, sentAt, Date.now());
      setRunning(s);
      toast.success(t('started'), 2000);
      void queryClient.invalidateQueries({ queryKey: practiceKeys.list(submissionId) });
      return { running: true, sessionId: s.id };
    } catch (err) {
      const runningElsewhere = sessionOfConflict(err);
      if (runningElsewhere) {
        // already running (another tab, another device): carry on from its started_at
        setRunning(runningElsewhere);
        toast.info(serverMessage(err) ?? t('startError'));
        void queryClient.invalidateQueries({ queryKey: practiceKeys.list(submissionId) });
        return { running: true, sessionId: runningElsewhere.id };
      } else if (isApiError(err, 0)) {
        // the connection went while asking: time it here
        return { running: startOffline(), sessionId: null };
      } else {
        toast.error(serverMessage(err) ?? t('startError'));
        // completed or expired meanwhile: the task itself has changed
        if (isApiError(err, 409)) onSessionFinished?.();
        return { running: false, sessionId: null };
      }
    } finally {
      setBusy(null);
    }
  }, [onSessionFinished, queryClient, setRunning, startOffline, submissionId, t, toast]);

  const stop = useCallback(async () => {
    if (!running) return;
    if (localHere && userId !== null) {
      setBusy('stop');
      try {
        const write = await localSessions.finish(userId);
        const done = write && asQueuedSession(write);
        if (done) {
          toast.success(t(!isConnected() ? 'stoppedOffline' : 'stopped', { time: formatDuration(done.duration_minutes, language) }), 4000);
          // the task's time moves at once, as it will on the server
          queryClient.setQueryData<{ time_spent_minutes: number }>(['submissions', 'detail', submissionId], (old) =>
            old ? { ...old, time_spent_minutes: Math.round((old.time_spent_minutes + (done.duration_minutes ?? 0)) * 100) / 100 } : old,
          );
        }
      } catch {
        toast.error(t('stopError'));
      } finally {
        setBusy(null);
      }
      return;
    }
    if (!isConnected()) {
      toast.error(t('stopNeedsConnection'), 0);
      return;
    }
    setBusy('stop');
    try {
      // the tempo the metronome ran at during this session, if it ran (web/lib/practice-tempo.ts)
      const s = await stopSession(running.id, getPracticeTempo(running.started_at));
      toast.success(t('stopped', { time: formatDuration(s.duration_minutes, language) }), 3000);
      // The finished session joins the list at once, so today's total stays on the clock (no
      // dip until the list is read again).
      queryClient.setQueryData<PracticeSession[]>(practiceKeys.list(submissionId), (old) => [s, ...(old ?? []).filter((x) => x.id !== s.id)]);
      setRunning(null);
    } catch (err) {
      toast.error(isApiError(err, 0) ? t('stopNeedsConnection') : (serverMessage(err) ?? t('stopError')), isApiError(err, 0) ? 0 : undefined);
      // not running any more (stopped elsewhere): show what the server has
      if (isApiError(err, 409) || isApiError(err, 404)) void active.refetch();
    } finally {
      setBusy(null);
    }
  }, [active, localHere, queryClient, running, setRunning, submissionId, t, toast, userId, language]);

  return (
    <TimerView
      exerciseTitle={exerciseTitle}
      running={running}
      // without a connection the lookup waits (paused): the control must not wait with it
      checking={!localHere && active.isPending && active.fetchStatus === 'fetching'}
      busy={busy}
      sessions={shownSessions}
      sessionsLoading={shownSessions === undefined && sessions.isPending && sessions.fetchStatus === 'fetching'}
      sessionsFailed={sessions.isError && !shownSessions}
      offline={localHere !== null}
      onStart={() => void start()}
      extra={renderRun?.({ running: running !== null, sessionId: localHere || !running ? null : running.id, start })}
      onStop={() => void stop()}
      skewMs={localHere ? 0 : clockSkewMs}
      estimatedMinutes={estimatedMinutes}
      today={today}
    />
  );
}
