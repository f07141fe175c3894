import '@web/features/recordings/i18n';
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { LoaderCircle, Pause, Play } from 'lucide-react';
import type WaveSurfer from 'wavesurfer.js';
import { formatMoment } from '@contract/recordings-limits';
import type { Recording } from '@contract/recordings';
import { Button } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { useNearViewport } from '@web/components/ui/when-visible';
import { useRecordingUrl } from '../api/recordings';
import { loadTake } from '../lib/take-waveform';

export type PlayerHandle = {
  /**
   * Jumps to a moment and plays from there, once the waveform is ready: true when it plays, false
   * when the browser refused to start it (autoplay without the user's gesture) or it failed to load.
   */
  playFrom: (ms: number) => Promise<boolean>;
  /** The current moment in ms. */
  currentMs: () => number;
  /** Plays or pauses. */
  toggle: () => void;
  /** Moves by `deltaMs` (negative: back). */
  seekBy: (deltaMs: number) => void;
  /** Pauses and comments at the current moment (when the player offers comments). */
  commentNow: () => void;
  focus: () => void;
};

export const SEEK_MS = 5000;

/**
 * A recording's player: the waveform (wavesurfer.js, loaded with the first player), the comments
 * as markers on it (a click plays from there), play/pause and the time. Keyboard on the player:
 * space plays/pauses, ←/→ seek 5 s, and "c" (with `onCommentAt`) comments at the current moment.
 * A click on the waveform seeks, and for the teacher places the next comment there.
 *
 * The take's file is fetched, decoded and drawn only once the player comes near the viewport, is
 * focused or asked to play: a task page with several takes below its practice controls does not
 * download and draw them all on a phone's first load (docs/decisions/first-load-on-a-phone.md).
 * Play pressed before the waveform is ready plays once it is.
 */
export function RecordingPlayer({
  recording,
  onCommentAt,
  ref,
}: {
  recording: Recording;
  onCommentAt?: (ms: number) => void;
  ref?: Ref<PlayerHandle>;
}) {
  const { t } = useTranslation('recordings');
  const boxRef = useRef<HTMLDivElement>(null);
  const [near, reveal] = useNearViewport(boxRef, { rootMargin: '300px 0px' });
  const url = useRecordingUrl(recording.path, near);
  const waveRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const groupRef = useRef<HTMLDivElement>(null);
  const wsRef = useRef<WaveSurfer | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  // A retry after a failed load starts the effect below again.
  const [attempt, setAttempt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [timeMs, setTimeMs] = useState(0);
  const [durationMs, setDurationMs] = useState(recording.duration_ms);
  // playFrom before the waveform is ready waits for it (a "Neues Feedback" link lands on a moment)
  const readyRef = useRef(false);
  const waitersRef = useRef<Array<(ok: boolean) => void>>([]);
  const onCommentAtRef = useRef(onCommentAt);
  useEffect(() => {
    onCommentAtRef.current = onCommentAt;
  }, [onCommentAt]);

  useEffect(() => {
    const container = waveRef.current;
    if (!url.data || !container) return;
    let ws: WaveSurfer | null = null;
    let cancelled = false;
    const aborter = new AbortController();
    setReady(false);
    setFailed(false);
    setPlaying(false);
    setTimeMs(0);
    // The library and the take side by side; the take decoded for its picture without a real-time
    // AudioContext (lib/take-waveform.ts).
    void Promise.all([import('wavesurfer.js'), loadTake(url.data, aborter.signal)])
      .then(([{ default: WaveSurferClass }, take]) => {
        if (cancelled) return;
        ws = WaveSurferClass.create({
          container,
          media: recording.kind === 'video' ? (videoRef.current ?? undefined) : undefined,
          height: 72,
          waveColor: '#94a3b8',
          progressColor: '#4f46e5',
          cursorColor: '#312e81',
          cursorWidth: 2,
          barWidth: 2,
          barGap: 1,
          barRadius: 2,
          normalize: true,
          dragToSeek: true,
        });
        wsRef.current = ws;
        ws.on('ready', (d) => {
          readyRef.current = true;
          for (const w of waitersRef.current.splice(0)) w(true);
          setReady(true);
          if (Number.isFinite(d) && d > 0) setDurationMs(Math.round(d * 1000));
        });
        ws.on('timeupdate', (s) => setTimeMs(Math.round(s * 1000)));
        ws.on('play', () => setPlaying(true));
        ws.on('pause', () => setPlaying(false));
        ws.on('finish', () => setPlaying(false));
        ws.on('interaction', (s) => onCommentAtRef.current?.(Math.round(s * 1000)));
        ws.on('error', (err) => {
          console.error('Aufnahme konnte nicht geladen werden', err);
          for (const w of waitersRef.current.splice(0)) w(false);
          setFailed(true);
        });
        // The bars are drawn in a task of their own, not in the one that made the player: two
        // short tasks on a phone's CPU instead of one long one. A failure is reported through
        // 'error' above.
        const player = ws;
        setTimeout(() => {
          if (!cancelled) player.loadBlob(take.blob, take.channels, take.duration).catch(() => undefined);
        }, 0);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        console.error('Aufnahme konnte nicht geladen werden', err);
        for (const w of waitersRef.current.splice(0)) w(false);
        setFailed(true);
      });
    return () => {
      cancelled = true;
      aborter.abort();
      readyRef.current = false;
      ws?.destroy();
      wsRef.current = null;
    };
  }, [url.data, recording.kind, attempt]);

  /** Resolves true once the waveform is ready (loading it first if it is not near yet), false when it failed. */
  const whenReady = useCallback(async () => {
    if (readyRef.current) return true;
    reveal();
    return new Promise<boolean>((resolve) => waitersRef.current.push(resolve));
  }, [reveal]);

  const seekTo = useCallback(
    (ms: number) => {
      const ws = wsRef.current;
      if (!ws) return;
      const clamped = Math.max(0, Math.min(ms, durationMs));
      ws.setTime(clamped / 1000);
      setTimeMs(clamped);
    },
    [durationMs],
  );

  useImperativeHandle(
    ref,
    () => ({
      playFrom: async (ms) => {
        if (!(await whenReady())) return false;
        const ws = wsRef.current;
        if (!ws) return false;
        seekTo(ms);
        return ws.play().then(
          () => true,
          () => false,
        );
      },
      currentMs: () => Math.round((wsRef.current?.getCurrentTime() ?? 0) * 1000),
      toggle: () => void wsRef.current?.playPause().catch(() => undefined),
      seekBy: (deltaMs) => seekTo(Math.round((wsRef.current?.getCurrentTime() ?? 0) * 1000) + deltaMs),
      commentNow: () => {
        wsRef.current?.pause();
        onCommentAtRef.current?.(Math.round((wsRef.current?.getCurrentTime() ?? 0) * 1000));
      },
      // Without scrolling: the screen that asks for the focus decides what is in view.
      focus: () => groupRef.current?.focus({ preventScroll: true }),
    }),
    [seekTo, whenReady],
  );

  // Pressed while the take still loads: the button turns while it loads, and it plays once it is
  // ready (one press, one start).
  const [starting, setStarting] = useState(false);
  const toggle = () => {
    if (readyRef.current) {
      void wsRef.current?.playPause().catch(() => undefined);
      return;
    }
    if (starting) return;
    setStarting(true);
    void whenReady().then((ok) => {
      setStarting(false);
      if (ok) void wsRef.current?.play().catch(() => undefined);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const now = Math.round((wsRef.current?.getCurrentTime() ?? 0) * 1000);
    if (e.key === ' ') {
      e.preventDefault();
      toggle();
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      seekTo(now - SEEK_MS);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      seekTo(now + SEEK_MS);
    } else if ((e.key === 'c' || e.key === 'C') && onCommentAt) {
      e.preventDefault();
      wsRef.current?.pause();
      onCommentAt(now);
    }
  };

  // The signed link could not be read, or the file behind it could not be loaded or drawn.
  const broken = failed || url.isError;
  const retry = () => {
    if (url.isError) void url.refetch();
    else setAttempt((n) => n + 1);
  };

  const markers = recording.comments.filter((c) => c.at_ms !== null);
  const keys = onCommentAt ? t('player.keysTeacher') : t('player.keys');

  return (
    <div ref={boxRef} className="space-y-2" data-testid="recording-player" onFocus={reveal}>
      {recording.kind === 'video' && <video ref={videoRef} playsInline className="aspect-video w-full rounded-lg bg-slate-900" aria-label={t('player.video')} />}
      <div
        ref={groupRef}
        role="group"
        tabIndex={0}
        aria-label={t('player.label')}
        aria-describedby={`player-keys-${recording.id}`}
        onKeyDown={onKeyDown}
        className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        <div className="flex items-center gap-3">
          <button
            type="button"
            onClick={toggle}
            disabled={broken}
            aria-busy={starting || undefined}
            aria-label={playing ? t('player.pause') : t('player.play')}
            className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:bg-brand-600/50"
            data-testid="player-toggle"
          >
            {starting ? (
              <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
            ) : playing ? (
              <Pause aria-hidden="true" className="size-5 fill-current" />
            ) : (
              <Play aria-hidden="true" className="ml-0.5 size-5 fill-current" />
            )}
          </button>
          <div className="relative min-w-0 flex-1">
            {/* While broken the waveform's box folds away (it stays mounted, with its width, for the
                next attempt) and the message takes its place in the flow: on a phone in German the
                message and the button need more than the waveform's 72 px, and an overlay spilt
                over the time below. */}
            <div
              ref={waveRef}
              className={broken ? 'h-0 overflow-hidden' : 'min-h-[72px] cursor-pointer'}
              data-testid="waveform"
              data-ready={ready ? 'true' : 'false'}
            />
            {!ready && !broken && <Skeleton className="absolute inset-0 h-[72px] w-full" />}
            {broken && (
              <div role="alert" className="flex min-h-[72px] flex-wrap items-center gap-x-3 gap-y-1 py-1 text-sm text-red-700">
                <span>{t('player.loadError')}</span>
                <Button variant="secondary" size="sm" onClick={retry} disabled={url.isFetching}>
                  {t('common:actions.retry')}
                </Button>
              </div>
            )}
            {ready && durationMs > 0 && (
              <div aria-hidden="true" className="pointer-events-none absolute inset-0">
                {markers.map((c) => (
                  <span
                    key={c.id}
                    title={formatMoment(c.at_ms ?? 0)}
                    className="pointer-events-auto absolute top-0 bottom-0 w-3 -translate-x-1/2 cursor-pointer"
                    style={{ left: `${Math.min(100, ((c.at_ms ?? 0) / durationMs) * 100)}%` }}
                    onClick={(e) => {
                      e.stopPropagation();
                      seekTo(c.at_ms ?? 0);
                      void wsRef.current?.play().catch(() => undefined);
                    }}
                    data-testid="comment-marker"
                  >
                    <span className="absolute top-0 bottom-0 left-1/2 w-0.5 -translate-x-1/2 bg-amber-500" />
                    <span className="absolute -top-1 left-1/2 size-2.5 -translate-x-1/2 rounded-full bg-amber-500 ring-2 ring-white" />
                  </span>
                ))}
              </div>
            )}
          </div>
        </div>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
          <span className="font-medium text-slate-800 tabular-nums" data-testid="player-time">
            {formatMoment(timeMs)} / {formatMoment(durationMs)}
          </span>
          <span id={`player-keys-${recording.id}`} className="hidden sm:inline">
            {keys}
          </span>
        </div>
      </div>
    </div>
  );
}
