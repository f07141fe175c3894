import '@web/features/recordings/i18n';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Mic, Square } from 'lucide-react';
import { formatMoment } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import type { PracticeRun } from '@web/lib/practice-run';
import { checkLimits } from '../lib/recording-limits';
import { newTakeId, type PendingTake } from '../lib/outbox';
import { useRecorder, type Take } from '../lib/use-recorder';
import { useSendTake } from './use-send-take';

/**
 * 'Diesen Durchgang aufnehmen' in the practice bar: one tap records this run (and starts the
 * timer when it is not running yet); a second tap, or the timer's Stop, ends it, and the take goes
 * at once through the take path (the outbox, then the upload; kept for later without a connection)
 * naming the practice session it recorded. Audio only: a run is listened to, not watched.
 */
export function RunRecorder({ submissionId, userId, title, run }: { submissionId: number; userId: number; title: string; run: PracticeRun }) {
  const { t } = useTranslation('recordings');
  const send = useSendTake();
  const [elapsed, setElapsed] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  // The session this take records, fixed when it starts (the timer's Stop clears the running one).
  const session = useRef<number | null>(null);
  // Whether the timer was seen running while recording: only then does its stop end the take.
  const sawRunning = useRef(false);

  const onTake = (take: Take) => {
    const limit = checkLimits({ size: take.blob.size, type: take.type, durationMs: take.durationMs });
    if (limit) {
      setProblem(limit.key === 'badType' ? t('limits.badType', { type: limit.type }) : t(`limits.${limit.key}`));
      return;
    }
    const entry: PendingTake = {
      id: newTakeId(),
      submissionId,
      userId,
      title,
      blob: take.blob,
      type: take.type,
      kind: take.kind,
      durationMs: take.durationMs,
      message: '',
      createdAt: new Date().toISOString(),
      practiceSessionId: session.current,
    };
    void send(entry);
  };
  const recorder = useRecorder(onTake);
  const { state } = recorder;
  const recording = state.phase === 'recording';
  const { stop } = recorder;

  // The take's clock, from the recorder's start (a timer, not animation frames: it counts on a busy phone too).
  useEffect(() => {
    if (state.phase !== 'recording') return;
    const started = state.startedAt;
    const id = setInterval(() => setElapsed(Math.floor((performance.now() - started) / 1000) * 1000), 250);
    return () => clearInterval(id);
  }, [state]);

  // The timer's Stop ends the take of its run.
  useEffect(() => {
    if (!recording) return;
    if (run.running) sawRunning.current = true;
    else if (sawRunning.current) stop();
  }, [recording, run.running, stop]);

  const begin = async () => {
    setProblem(null);
    setElapsed(0);
    sawRunning.current = false;
    let sessionId = run.sessionId;
    if (!run.running) {
      const started = await run.start();
      if (!started.running) return;
      sessionId = started.sessionId;
    }
    session.current = sessionId;
    await recorder.start('audio');
  };

  const failed = state.phase === 'failed' ? t(`permission.${state.problem}`) : problem;

  return (
    <div className="w-full" data-testid="run-recorder">
      {recording ? (
        <Button
          variant="danger"
          size="lg"
          className="h-12 w-full"
          icon={<Square aria-hidden="true" className="size-5 fill-current" />}
          onClick={stop}
          data-testid="run-record-stop"
        >
          <span>{t('run.stop')}</span>
          <span className="ml-1 tabular-nums" data-testid="run-record-elapsed">
            {formatMoment(elapsed)}
          </span>
        </Button>
      ) : (
        <Button
          variant="secondary"
          size="lg"
          className="h-12 w-full"
          icon={<Mic aria-hidden="true" className="size-5 text-red-600" />}
          loading={state.phase === 'requesting'}
          onClick={() => void begin()}
          data-testid="run-record"
        >
          {t('run.start')}
        </Button>
      )}
      {failed && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800" data-testid="run-record-problem">
          {failed}
        </p>
      )}
    </div>
  );
}
