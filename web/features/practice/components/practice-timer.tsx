import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PracticeSession } from '@contract/practice';
import { isApiError } from '@web/lib/api';
import { formatDuration } from '@web/lib/format';
import { useToast } from '@web/components/ui/toast';
import { getPracticeTempo } from '@web/lib/practice-tempo';
import { activeSessionQueryOptions, practiceKeys, sessionOfConflict, startSession, stopSession, useSessions } from '../api/practice-sessions';
import { estimateSkew } from '../lib/elapsed';
import { TimerView } from './timer-view';

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
 * reloads and `onSessionFinished` lets the screen reload the task.
 */
export function PracticeTimer({
  submissionId,
  exerciseTitle,
  estimatedMinutes,
  today,
  onSessionFinished,
}: {
  submissionId: number;
  exerciseTitle: string;
  /** The exercise's estimated minutes (today's practice is shown against them). */
  estimatedMinutes?: number | null;
  /** Today's date 'YYYY-MM-DD'. */
  today: string;
  onSessionFinished?: () => void;
}) {
  const { t } = useTranslation('practice');
  const toast = useToast();
  const queryClient = useQueryClient();
  const active = useQuery({
    ...activeSessionQueryOptions(submissionId),
    // a session stopped in another tab or on another device shows up here
    refetchOnWindowFocus: true,
    refetchInterval: (q) => (q.state.data ? 30_000 : false),
  });
  const sessions = useSessions(submissionId);
  const [busy, setBusy] = useState<'start' | 'stop' | null>(null);
  const running = active.data ?? null;

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
  const finished = useRef(onSessionFinished);
  finished.current = onSessionFinished;
  useEffect(() => {
    if (active.isPending) return;
    const id = running?.id ?? null;
    if (lastRunning.current !== null && lastRunning.current !== id) {
      void queryClient.invalidateQueries({ queryKey: practiceKeys.list(submissionId) });
      finished.current?.();
    }
    lastRunning.current = id;
  }, [running, active.isPending, queryClient, submissionId]);

  const setRunning = useCallback(
    (s: PracticeSession | null) => queryClient.setQueryData(practiceKeys.active(submissionId), s),
    [queryClient, submissionId],
  );

  const start = useCallback(async () => {
    setBusy('start');
    const sentAt = Date.now();
    try {
      const s = await startSession(submissionId);
      clockSkewMs = estimateSkew(s.started_at, sentAt, Date.now());
      setRunning(s);
      toast.success(t('started'), 2000);
      void queryClient.invalidateQueries({ queryKey: practiceKeys.list(submissionId) });
    } catch (err) {
      const runningElsewhere = sessionOfConflict(err);
      if (runningElsewhere) {
        // already running (another tab, another device): carry on from its started_at
        setRunning(runningElsewhere);
        toast.info(serverMessage(err) ?? t('startError'));
        void queryClient.invalidateQueries({ queryKey: practiceKeys.list(submissionId) });
      } else {
        toast.error(serverMessage(err) ?? t('startError'));
        // completed or expired meanwhile: the task itself has changed
        if (isApiError(err, 409)) finished.current?.();
      }
    } finally {
      setBusy(null);
    }
  }, [queryClient, setRunning, submissionId, t, toast]);

  const stop = useCallback(async () => {
    if (!running) return;
    setBusy('stop');
    try {
      // the tempo the metronome ran at during this session, if it ran (web/lib/practice-tempo.ts)
      const s = await stopSession(running.id, getPracticeTempo(running.started_at));
      toast.success(t('stopped', { time: formatDuration(s.duration_minutes) }), 3000);
      // The finished session joins the list at once, so today's total stays on the clock (no
      // dip until the list is read again).
      queryClient.setQueryData<PracticeSession[]>(practiceKeys.list(submissionId), (old) => [s, ...(old ?? []).filter((x) => x.id !== s.id)]);
      setRunning(null);
    } catch (err) {
      toast.error(serverMessage(err) ?? t('stopError'));
      // not running any more (stopped elsewhere): show what the server has
      if (isApiError(err, 409) || isApiError(err, 404)) void active.refetch();
    } finally {
      setBusy(null);
    }
  }, [active, queryClient, running, setRunning, submissionId, t, toast]);

  return (
    <TimerView
      exerciseTitle={exerciseTitle}
      running={running}
      checking={active.isPending}
      busy={busy}
      sessions={sessions.data}
      sessionsLoading={sessions.isPending}
      sessionsFailed={sessions.isError}
      onStart={() => void start()}
      onStop={() => void stop()}
      skewMs={clockSkewMs}
      estimatedMinutes={estimatedMinutes}
      today={today}
    />
  );
}
