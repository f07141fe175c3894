import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Play, Square, Timer } from 'lucide-react';
import type { PracticeSession } from '@contract/practice';
import { formatClock } from '@web/lib/format';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';
import { elapsedSeconds, reachedCap } from '../lib/elapsed';
import { SessionList } from './session-list';

/** Re-renders every second while `active`, returning the current time. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    // a phone waking up or a tab coming back shows the true time at once
    const onVisible = () => setNow(Date.now());
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(id);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [active]);
  return now;
}

const timeOfDay = (iso: string) => new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

export type TimerViewProps = {
  exerciseTitle: string;
  /** The running session, null when none runs. */
  running: PracticeSession | null;
  /** The running session is still being looked up (buttons wait). */
  checking: boolean;
  busy: 'start' | 'stop' | null;
  sessions: PracticeSession[] | undefined;
  sessionsLoading: boolean;
  sessionsFailed: boolean;
  onStart: () => void;
  onStop: () => void;
  /** Device clock minus server clock, in ms. */
  skewMs?: number;
};

/**
 * The practice timer: mm:ss from the server's started_at, ticking each second; large Start and
 * Stop buttons (start only when nothing runs, stop only while running); the last 5 sessions.
 */
export function TimerView({ exerciseTitle, running, checking, busy, sessions, sessionsLoading, sessionsFailed, onStart, onStop, skewMs = 0 }: TimerViewProps) {
  const { t } = useTranslation('practice');
  const now = useNow(running !== null);
  const seconds = running ? elapsedSeconds(running.started_at, now, skewMs) : 0;
  const capped = running ? reachedCap(running.started_at, now, skewMs) : false;
  const canStart = !running && !checking && busy === null;
  const canStop = running !== null && busy === null;

  return (
    <Card className="overflow-hidden" data-testid="practice-timer">
      <div className="border-b border-slate-100 px-5 py-4">
        <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <Timer aria-hidden="true" className="size-5 text-brand-600" />
          {t('title')}
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">{t('subtitle', { title: exerciseTitle })}</p>
      </div>
      <div className="space-y-5 px-5 py-5">
        <div className="text-center">
          <p
            role="timer"
            aria-label={t('timerLabel')}
            aria-live="off"
            data-testid="timer-display"
            className={cn(
              'font-semibold tracking-tight tabular-nums leading-none text-7xl sm:text-6xl',
              running ? 'text-slate-900' : 'text-slate-500',
            )}
          >
            {formatClock(seconds)}
          </p>
          <p className="mt-2 flex min-h-5 items-center justify-center gap-2 text-sm text-slate-600" aria-live="polite">
            {running ? (
              <>
                <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-emerald-500" />
                {t('running', { time: timeOfDay(running.started_at) })}
              </>
            ) : checking ? (
              t('loadingActive')
            ) : (
              t('idle')
            )}
          </p>
          {capped && <p className="mt-2 text-sm font-medium text-red-700">{t('capReached')}</p>}
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Button
            size="lg"
            className="h-14 text-lg"
            icon={<Play aria-hidden="true" className="size-5" />}
            onClick={onStart}
            disabled={!canStart}
            loading={busy === 'start'}
          >
            {busy === 'start' ? t('starting') : t('start')}
          </Button>
          <Button
            size="lg"
            variant="danger"
            className="h-14 text-lg"
            icon={<Square aria-hidden="true" className="size-5" />}
            onClick={onStop}
            disabled={!canStop}
            loading={busy === 'stop'}
          >
            {busy === 'stop' ? t('stopping') : t('stop')}
          </Button>
        </div>
        <SessionList sessions={sessions} loading={sessionsLoading} failed={sessionsFailed} />
      </div>
    </Card>
  );
}
