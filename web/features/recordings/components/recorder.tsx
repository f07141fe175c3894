import '@web/features/recordings/i18n';
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { AlertTriangle, FolderOpen, Mic, RotateCcw, Send, Square, Video, X } from 'lucide-react';
import { formatMoment, RECORDING_LIMITS, type RecordingKind } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import { TextArea } from '@web/components/ui/fields';
import { cn } from '@web/components/ui/cn';
import { formatDate, formatFileSize, formatPercent } from '@web/lib/format';
import { checkLimits, kindOfType, normaliseType, type LimitProblem } from '../lib/recording-limits';
import { newTakeId, outbox, type PendingTake } from '../lib/outbox';
import { uploads, useUploadProgress } from '@web/lib/outbox/progress';
import { usePendingTakes } from '../lib/uploads';
import { useRecorder, type Take } from '../lib/use-recorder';
import { useSendTake } from './use-send-take';
import { takeErrorText } from '@web/lib/storage-errors';
import { Bar } from '@web/components/ui/bar';

/** A file's length from its metadata (null when the browser cannot tell, e.g. WebM without one). */
function readDuration(file: Blob, kind: RecordingKind): Promise<number | null> {
  return new Promise((resolve) => {
    const el = document.createElement(kind === 'video' ? 'video' : 'audio');
    const url = URL.createObjectURL(file);
    const done = (v: number | null) => {
      URL.revokeObjectURL(url);
      resolve(v);
    };
    el.preload = 'metadata';
    el.onloadedmetadata = () => done(Number.isFinite(el.duration) ? Math.round(el.duration * 1000) : null);
    el.onerror = () => done(null);
    setTimeout(() => done(null), 5000);
    el.src = url;
  });
}

function limitMessage(t: (k: string, o?: Record<string, unknown>) => string, p: LimitProblem): string {
  return p.key === 'badType' ? t('limits.badType', { type: p.type }) : t(`limits.${p.key}`);
}

/** The live level of the microphone: a bar whose width follows the sound, written outside React. */
function LevelMeter({ meterRef }: { meterRef: React.RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation('recordings');
  return (
    <div className="w-full" data-testid="level-meter">
      <span className="sr-only">{t('recorder.level')}</span>
      <div aria-hidden="true" className="h-3 w-full overflow-hidden rounded-full bg-slate-200">
        <div ref={meterRef} className="h-full w-0 rounded-full bg-emerald-500 transition-[width] duration-75" />
      </div>
    </div>
  );
}

/**
 * The student's recorder on the practice screen: audio by default, video on request; a large
 * start/stop button, level meter and elapsed time; listen back, record again, an optional message,
 * send; or 'Datei wählen'. Takes not yet acknowledged by the server are offered again.
 */
export function Recorder({
  submissionId,
  userId,
  title,
  renderTakeExtra,
}: {
  submissionId: number;
  userId: number;
  title: string;
  /** Shown with the take before sending (the app's listening summary, a slot: docs/decisions/feature-boundaries.md). */
  renderTakeExtra?: (take: { blob: Blob; kind: RecordingKind }) => ReactNode;
}) {
  const { t } = useTranslation('recordings');
  const language = useLanguage();
  const [kind, setKind] = useState<RecordingKind>('audio');
  const [take, setTake] = useState<Take | null>(null);
  const [message, setMessage] = useState('');
  const [autoStopped, setAutoStopped] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const meterRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const previewRef = useRef<HTMLVideoElement>(null);
  const send = useSendTake();
  const pending = usePendingTakes(userId, submissionId);

  const recorder = useRecorder(
    (next, auto) => {
      setTake(next);
      setAutoStopped(auto);
    },
    // Meter and clock, each frame while recording (nothing runs while idle): the bar's width is
    // written outside React; the clock re-renders once a second (an unchanged second is no update).
    (level, ms) => {
      if (meterRef.current) meterRef.current.style.width = `${Math.round(level * 100)}%`;
      setElapsed(Math.floor(ms / 1000) * 1000);
    },
  );
  const { state } = recorder;
  const recording = state.phase === 'recording';

  // The camera's live picture while recording a video.
  useEffect(() => {
    if (state.phase === 'recording' && state.kind === 'video' && previewRef.current) previewRef.current.srcObject = state.stream;
  }, [state]);

  const takeSource = useBlobSource(take?.blob ?? null);
  const problem = take ? checkLimits({ size: take.blob.size, type: take.type, durationMs: take.durationMs }) : null;

  const begin = () => {
    setTake(null);
    setElapsed(0);
    setAutoStopped(false);
    void recorder.start(kind);
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const type = normaliseType(file.type);
    const fileKind = kindOfType(type);
    const durationMs = type.startsWith('audio/') || type.startsWith('video/') ? await readDuration(file, fileKind) : null;
    recorder.reset();
    setAutoStopped(false);
    setTake({ blob: file, type, kind: fileKind, durationMs, name: file.name });
  };

  const onSend = async () => {
    if (!take || problem) return;
    const entry: PendingTake = {
      id: newTakeId(),
      submissionId,
      userId,
      title,
      blob: take.blob,
      type: take.type,
      kind: take.kind,
      durationMs: take.durationMs,
      message: message.trim().slice(0, RECORDING_LIMITS.message),
      createdAt: new Date().toISOString(),
    };
    // The take moves to the outbox list (with its progress); the recorder is free again.
    setTake(null);
    setMessage('');
    await send(entry);
  };

  const failed = state.phase === 'failed' ? state.problem : null;

  return (
    <div className="space-y-4" data-testid="recorder">
      {failed && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800" data-testid="recorder-problem">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t(`permission.${failed}`)}
        </p>
      )}

      {!take && !recording && (
        <fieldset className="flex flex-wrap items-center gap-2" disabled={state.phase === 'requesting'}>
          <legend className="sr-only">{t('recorder.kindLabel')}</legend>
          {(['audio', 'video'] as const).map((k) => (
            <label
              key={k}
              className={cn(
                'inline-flex h-11 cursor-pointer items-center gap-2 rounded-lg px-4 text-sm font-medium ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-slate-900',
                kind === k ? 'bg-brand-50 text-brand-800 ring-brand-300' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
              )}
            >
              <input type="radio" name={`recording-kind-${submissionId}`} value={k} checked={kind === k} onChange={() => setKind(k)} className="sr-only" />
              {k === 'audio' ? <Mic aria-hidden="true" className="size-4" /> : <Video aria-hidden="true" className="size-4" />}
              {t(`recorder.${k}`)}
            </label>
          ))}
        </fieldset>
      )}

      {recording && (
        <div className="space-y-3 rounded-xl bg-slate-50 p-4" data-testid="recording-live">
          {state.kind === 'video' && <video ref={previewRef} autoPlay muted playsInline className="aspect-video w-full rounded-lg bg-slate-900 object-cover" />}
          <div className="flex items-center gap-3">
            <span aria-hidden="true" className="size-3 shrink-0 animate-pulse rounded-full bg-red-600" />
            <span className="text-sm font-medium text-slate-700">{t('recorder.recording')}</span>
            <span className="ml-auto text-3xl font-semibold text-slate-900 tabular-nums" data-testid="recording-elapsed" aria-live="off">
              {formatMoment(elapsed)}
            </span>
          </div>
          <LevelMeter meterRef={meterRef} />
        </div>
      )}

      {!take && (
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
          {recording ? (
            <Button
              size="lg"
              variant="danger"
              className="h-16 w-full rounded-full px-8 text-lg sm:w-auto"
              icon={<Square aria-hidden="true" className="size-5 fill-current" />}
              onClick={recorder.stop}
              data-testid="record-stop"
            >
              {t('recorder.stop')}
            </Button>
          ) : (
            <Button
              size="lg"
              className="h-16 w-full rounded-full px-8 text-lg sm:w-auto"
              icon={<Mic aria-hidden="true" className="size-6" />}
              loading={state.phase === 'requesting'}
              onClick={begin}
              data-testid="record-start"
            >
              {t('recorder.start')}
            </Button>
          )}
          {!recording && (
            <>
              <input ref={fileRef} type="file" accept="audio/*,video/*" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => void onFile(e)} data-testid="recording-file" />
              <Button variant="secondary" size="lg" className="w-full sm:w-auto" icon={<FolderOpen aria-hidden="true" className="size-5" />} onClick={() => fileRef.current?.click()}>
                {t('recorder.chooseFile')}
              </Button>
            </>
          )}
        </div>
      )}
      {!take && !recording && <p className="text-xs text-slate-500">{t('recorder.limits')}</p>}

      {take && (
        <div className="space-y-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4" data-testid="take-preview">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h4 className="text-sm font-semibold text-slate-900">{t('recorder.preview')}</h4>
            <p className="text-sm text-slate-600 tabular-nums">
              {take.durationMs !== null && <span data-testid="take-length">{formatMoment(take.durationMs)} · </span>}
              {formatFileSize(take.blob.size, language)}
            </p>
          </div>
          {take.kind === 'video' ? (
            <video ref={takeSource} controls playsInline className="aspect-video w-full rounded-lg bg-slate-900" aria-label={t('recorder.preview')} />
          ) : (
            <audio ref={takeSource} controls className="w-full" aria-label={t('recorder.preview')} />
          )}
          {!problem && renderTakeExtra?.({ blob: take.blob, kind: take.kind })}
          {autoStopped && <p className="text-sm text-amber-800">{t('recorder.autoStopped')}</p>}
          {problem && (
            <p role="alert" className="flex items-start gap-2 text-sm font-medium text-red-800" data-testid="take-problem">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {limitMessage(t, problem)}
            </p>
          )}
          <TextArea
            label={t('recorder.message')}
            placeholder={t('recorder.messagePlaceholder')}
            rows={2}
            maxLength={RECORDING_LIMITS.message}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button
              size="lg"
              className="h-14 w-full px-6 text-base sm:w-auto"
              icon={<Send aria-hidden="true" className="size-5" />}
              disabled={Boolean(problem)}
              onClick={() => void onSend()}
              data-testid="take-send"
            >
              {t('recorder.send')}
            </Button>
            <Button variant="secondary" size="lg" className="w-full sm:w-auto" icon={<RotateCcw aria-hidden="true" className="size-5" />} onClick={begin}>
              {t('recorder.again')}
            </Button>
          </div>
        </div>
      )}

      {pending.length > 0 && <PendingTakes takes={pending} />}
    </div>
  );
}

/**
 * A ref that plays `blob` in its audio or video element: the object URL is made when the element
 * shows the blob and revoked with it (a ref's cleanup), never held in state
 * (docs/decisions/compiler-ready-components.md).
 */
function useBlobSource(blob: Blob | null) {
  return useCallback(
    (el: HTMLMediaElement | null) => {
      if (!el || !blob) return;
      const url = URL.createObjectURL(blob);
      el.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
}

/** Takes kept on this device until the server acknowledged them: progress and cancel, or send again. */
export function PendingTakes({ takes }: { takes: PendingTake[] }) {
  const { t } = useTranslation('recordings');
  const language = useLanguage();
  const progress = useUploadProgress();
  const send = useSendTake();
  return (
    <ul className="space-y-3" aria-label={t('pending.title')} data-testid="pending-takes">
      {takes.map((take) => {
        const fraction = progress.get(take.id);
        const up = fraction !== undefined;
        const percent = up ? Math.round(fraction * 100) : 0;
        return (
          <li key={take.id} className="rounded-xl border border-amber-200 bg-amber-50/70 p-4" data-testid="pending-take">
            {up ? (
              <div className="space-y-2">
                <div className="flex items-center justify-between gap-3 text-sm font-medium text-slate-800">
                  <span>{t('send.sending')}</span>
                  <span className="tabular-nums">{formatPercent(percent, language)}</span>
                </div>
                <Bar role="progressbar" label={t('send.progress')} percent={percent} className="h-2 bg-amber-100" fillClassName="bg-brand-600 transition-[width]" />
                <Button variant="secondary" size="sm" icon={<X aria-hidden="true" className="size-4" />} onClick={() => uploads.cancel(take.id)} data-testid="upload-cancel">
                  {t('send.cancel')}
                </Button>
              </div>
            ) : (
              <div className="space-y-3">
                <div>
                  <p className="text-sm font-semibold text-amber-900">{t('pending.title')}</p>
                  <p className="mt-0.5 text-sm text-slate-700">
                    {t('pending.text', { date: formatDate(take.createdAt) })}
                    {take.durationMs !== null && <span className="tabular-nums"> · {formatMoment(take.durationMs)}</span>}
                  </p>
                  {takeErrorText(take) && (
                    <p role="alert" className="mt-1 text-sm text-red-700" data-testid="take-error">
                      {takeErrorText(take)}
                    </p>
                  )}
                </div>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Button size="lg" className="w-full sm:w-auto" icon={<Send aria-hidden="true" className="size-5" />} onClick={() => void send(take)} data-testid="take-resend">
                    {t('pending.retry')}
                  </Button>
                  <DiscardButton id={take.id} />
                </div>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function DiscardButton({ id }: { id: string }) {
  const { t } = useTranslation(['recordings', 'common']);
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button variant="ghost" className="w-full sm:w-auto" onClick={() => setAsking(true)}>
        {t('pending.discard')}
      </Button>
    );
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      {t('pending.discardConfirm')}
      <Button variant="danger" size="sm" onClick={() => void outbox.remove(id)}>
        {t('pending.discard')}
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
        {t('common:actions.cancel')}
      </Button>
    </span>
  );
}
