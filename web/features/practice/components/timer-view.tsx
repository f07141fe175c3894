import { useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { LoaderCircle, Play, Square } from 'lucide-react';
import type { PracticeSession } from '@contract/practice';
import { formatClock, formatPracticeTime } from '@web/lib/format';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { useWakeLock } from '@web/lib/wake-lock';
import { elapsedSeconds, reachedCap } from '../lib/elapsed';
import { finishedSecondsOn } from '../lib/today-total';
import { SessionList } from './session-list';

/**
 * The device clock as an external store (react.dev: useSyncExternalStore): read when watching
 * starts, then every second; a phone waking up or a tab coming back shows the true time at once.
 */
let clockNow = Date.now();
const readClock = () => clockNow;
function watchClock(onChange: () => void): () => void {
  const tick = () => {
    clockNow = Date.now();
    onChange();
  };
  // React reads the store again after subscribing: the first frame of a run shows the time of now.
  clockNow = Date.now();
  const id = setInterval(tick, 1000);
  document.addEventListener('visibilitychange', tick);
  return () => {
    clearInterval(id);
    document.removeEventListener('visibilitychange', tick);
  };
}
const watchNothing = () => () => undefined;

/** Re-renders every second while `active`, returning the current time. */
function useNow(active: boolean): number {
  return useSyncExternalStore(active ? watchClock : watchNothing, readClock);
}

const TIME_OF_DAY = new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit' });
const timeOfDay = (iso: string) => TIME_OF_DAY.format(new Date(iso));

export type TimerViewProps = {
  exerciseTitle: string;
  /** The running session, null when none runs. */
  running: PracticeSession | null;
  /** The running session is still being looked up (the control waits). */
  checking: boolean;
  busy: 'start' | 'stop' | null;
  sessions: PracticeSession[] | undefined;
  sessionsLoading: boolean;
  sessionsFailed: boolean;
  onStart: () => void;
  onStop: () => void;
  /** Device clock minus server clock, in ms. */
  skewMs?: number;
  /** The exercise's estimated minutes: today's practice is shown against them. */
  estimatedMinutes?: number | null;
  /** Today's date 'YYYY-MM-DD' (sessions that started today count toward today's total). */
  today: string;
  /** The running session is timed on this device without a connection (docs/decisions/offline-practice.md). */
  offline?: boolean;
  /** A control of the screen's under Start/Stopp in the practice bar ('Diesen Durchgang aufnehmen'). */
  extra?: ReactNode;
};

/**
 * The practice timer. The clock shows today's total on this task (finished sessions of today plus
 * the running one, from the server's started_at), so Stop leaves the total on screen, not 00:00.
 * ONE control starts and stops; it stays the same button (and keeps the keyboard focus) while the
 * call runs. On phones the clock and the control sit in a bar fixed above the tab bar, so they
 * stay on screen while the student scrolls through the score. The last 5 sessions follow.
 */
export function TimerView({
  exerciseTitle,
  running,
  checking,
  busy,
  sessions,
  sessionsLoading,
  sessionsFailed,
  onStart,
  onStop,
  skewMs = 0,
  estimatedMinutes,
  today,
  offline = false,
  extra,
}: TimerViewProps) {
  const { t } = useTranslation('practice');
  const language = useLanguage();
  const now = useNow(running !== null);
  // the screen stays on while the clock runs (a phone on the music stand)
  useWakeLock(running !== null);
  const current = running ? elapsedSeconds(running.started_at, now, skewMs) : 0;
  const capped = running ? reachedCap(running.started_at, now, skewMs) : false;
  const totalSeconds = finishedSecondsOn(sessions ?? [], today, running?.id) + current;
  const waiting = checking || busy !== null;
  const goal = estimatedMinutes && estimatedMinutes > 0 ? estimatedMinutes : null;
  const totalMinutes = totalSeconds / 60;
  const fraction = goal ? Math.min(1, totalMinutes / goal) : 0;

  const label = busy === 'start' ? t('starting') : busy === 'stop' ? t('stopping') : running ? t('stop') : t('start');

  return (
    <section className="rounded-xl border border-slate-200 bg-white shadow-xs" aria-labelledby="practice-timer-title" data-testid="practice-timer">
      <div className="border-b border-slate-100 px-5 py-4">
        <h3 id="practice-timer-title" className="text-base font-semibold text-slate-900">
          {t('title')}
        </h3>
        <p className="mt-0.5 text-sm text-slate-500">{t('subtitle', { title: exerciseTitle })}</p>
      </div>

      {/* Phones: a bar fixed above the tab bar. From lg: in the card. */}
      <div
        data-testid="practice-control"
        className={cn(
          'fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-20 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.06)] backdrop-blur',
          'lg:static lg:z-auto lg:border-0 lg:bg-transparent lg:px-5 lg:py-6 lg:shadow-none lg:backdrop-blur-none',
        )}
      >
        <div className="mx-auto flex max-w-3xl items-center gap-4 lg:flex-col lg:items-stretch lg:gap-5">
          <div className="min-w-0 flex-1 lg:text-center">
            <p className="text-xs font-medium text-slate-500 lg:text-sm">{t('todayTotal')}</p>
            <p
              role="timer"
              aria-label={t('timerLabel')}
              aria-live="off"
              data-testid="timer-display"
              className={cn('text-4xl leading-none font-semibold tracking-tight tabular-nums lg:text-7xl', running ? 'text-slate-900' : 'text-slate-700')}
            >
              {formatClock(totalSeconds)}
            </p>
            <p className="mt-1 flex min-h-5 items-center gap-2 truncate text-xs text-slate-600 lg:justify-center lg:text-sm" aria-live="polite">
              {running ? (
                <>
                  <span aria-hidden="true" className="size-2 shrink-0 animate-pulse rounded-full bg-emerald-500" />
                  <span className="truncate">
                    {t('running', { time: timeOfDay(running.started_at) })} · {t('thisSession', { time: formatClock(current) })}
                  </span>
                </>
              ) : checking ? (
                t('loadingActive')
              ) : (
                t('idle')
              )}
            </p>
            {goal !== null && (
              <div className="mt-2">
                <div
                  role="progressbar"
                  aria-label={t('progressLabel')}
                  aria-valuemin={0}
                  aria-valuemax={goal}
                  aria-valuenow={Math.min(goal, Math.floor(totalMinutes))}
                  aria-valuetext={t('goalProgress', { done: formatPracticeTime(Math.floor(totalMinutes), language), goal: formatPracticeTime(goal, language) })}
                  className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
                >
                  <div className={cn('h-full rounded-full', fraction >= 1 ? 'bg-emerald-500' : 'bg-brand-600')} style={{ width: `${fraction * 100}%` }} />
                </div>
                <p className="mt-1 text-xs text-slate-600 tabular-nums" data-testid="practice-goal">
                  {fraction >= 1
                    ? t('goalReached')
                    : t('goalProgress', { done: formatPracticeTime(Math.floor(totalMinutes), language), goal: formatPracticeTime(goal, language) })}
                </p>
              </div>
            )}
          </div>
          {/* One button for Start and Stopp: while its call runs it is aria-disabled (not disabled), so the focus stays on it. */}
          <Button
            size="lg"
            variant="primary"
            className={cn('h-14 min-w-32 text-lg lg:w-full', running && 'bg-slate-900 hover:bg-slate-800 active:bg-slate-950')}
            icon={
              busy ? (
                <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
              ) : running ? (
                <Square aria-hidden="true" className="size-5 fill-current" />
              ) : (
                <Play aria-hidden="true" className="size-5 fill-current" />
              )
            }
            aria-disabled={waiting || undefined}
            aria-busy={busy !== null || undefined}
            onClick={() => {
              if (waiting) return;
              if (running) onStop();
              else onStart();
            }}
            data-testid="practice-toggle"
            data-running={running ? 'true' : 'false'}
          >
            {label}
          </Button>
        </div>
        {extra && <div className="mx-auto mt-2 max-w-3xl lg:mt-3">{extra}</div>}
        {capped && <p className="mx-auto mt-2 max-w-3xl text-sm font-medium text-red-700">{t('capReached')}</p>}
        {offline && running && (
          <p className="mx-auto mt-2 max-w-3xl text-xs text-amber-900 lg:text-center lg:text-sm" data-testid="timer-offline">
            {t('offlineRunning')}
          </p>
        )}
      </div>

      <div className="px-5 pt-4 pb-5 lg:pt-0">
        <SessionList sessions={sessions} loading={sessionsLoading} failed={sessionsFailed} headingLevel={4} />
      </div>
    </section>
  );
}
