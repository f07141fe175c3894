import { useCallback, useEffect, useRef, useState } from 'react';
import { RECORDING_LIMITS, type RecordingKind } from '@contract/recordings-limits';
import { maxLengthMs, permissionProblem, pickMimeType, type PermissionProblem } from './recording-limits';

export type Take = { blob: Blob; type: string; kind: RecordingKind; durationMs: number | null; name?: string };

export type RecorderState =
  | { phase: 'idle' }
  | { phase: 'requesting'; kind: RecordingKind }
  | { phase: 'recording'; kind: RecordingKind; stream: MediaStream; startedAt: number }
  | { phase: 'failed'; problem: PermissionProblem };

/**
 * MediaRecorder around getUserMedia: start (audio, or video on request), stop, and the level of the
 * incoming sound for a meter (AnalyserNode, read in requestAnimationFrame only while recording).
 * `onFrame` receives the level (0..1) and the elapsed ms each frame; nothing runs while idle. Stops by itself at the length and
 * size limits of RECORDINGS.md.
 */
export function useRecorder(
  onTake: (take: Take, autoStopped: boolean) => void,
  onFrame?: (level: number, elapsedMs: number) => void,
  /** Tighter limits than a take's (a spoken comment: 60 s, 3 MiB). */
  limits?: { maxMs: number; maxBytes: number },
) {
  const maxMs = limits?.maxMs;
  const maxBytes = limits?.maxBytes ?? RECORDING_LIMITS.maxBytes;
  const [state, setState] = useState<RecorderState>({ phase: 'idle' });
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const audioRef = useRef<AudioContext | null>(null);
  const frameRef = useRef<number | null>(null);
  const autoStopRef = useRef(false);
  // The latest callbacks, for the recorder's events and the frame loop (refs written in an effect, not while rendering).
  const onTakeRef = useRef(onTake);
  const onFrameRef = useRef(onFrame);
  useEffect(() => {
    onTakeRef.current = onTake;
    onFrameRef.current = onFrame;
  }, [onTake, onFrame]);

  const release = useCallback(() => {
    if (frameRef.current !== null) cancelAnimationFrame(frameRef.current);
    frameRef.current = null;
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    void audioRef.current?.close().catch(() => undefined);
    audioRef.current = null;
  }, []);

  useEffect(
    () => () => {
      const r = recorderRef.current;
      if (r && r.state !== 'inactive') {
        r.ondataavailable = null;
        r.onstop = null;
        r.stop();
      }
      release();
    },
    [release],
  );

  const stop = useCallback(() => {
    const r = recorderRef.current;
    if (r && r.state !== 'inactive') r.stop();
  }, []);

  const start = useCallback(
    async (kind: RecordingKind) => {
      if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
        setState({ phase: 'failed', problem: 'unsupported' });
        return;
      }
      setState({ phase: 'requesting', kind });
      let stream: MediaStream;
      try {
        // Music, not a call: no echo cancellation, noise suppression or automatic gain (they flatten a tone).
        const audio: MediaTrackConstraints = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };
        stream = await navigator.mediaDevices.getUserMedia(kind === 'video' ? { audio, video: { facingMode: 'user' } } : { audio });
      } catch (err) {
        setState({ phase: 'failed', problem: permissionProblem(err) });
        return;
      }
      streamRef.current = stream;
      const mimeType = pickMimeType(kind, (t) => MediaRecorder.isTypeSupported(t));
      let recorder: MediaRecorder;
      try {
        recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      } catch {
        release();
        setState({ phase: 'failed', problem: 'unsupported' });
        return;
      }
      recorderRef.current = recorder;
      const chunks: Blob[] = [];
      let bytes = 0;
      const startedAt = performance.now();
      autoStopRef.current = false;
      recorder.ondataavailable = (e) => {
        if (e.data.size === 0) return;
        chunks.push(e.data);
        bytes += e.data.size;
        // Leave room for the last chunk: stop at 95 % of the size limit.
        if (bytes > maxBytes * 0.95 && recorder.state === 'recording') {
          autoStopRef.current = true;
          recorder.stop();
        }
      };
      recorder.onstop = () => {
        const durationMs = Math.round(performance.now() - startedAt);
        const type = (recorder.mimeType || mimeType || (kind === 'video' ? 'video/webm' : 'audio/webm')).split(';')[0] ?? '';
        const blob = new Blob(chunks, { type });
        release();
        recorderRef.current = null;
        setState({ phase: 'idle' });
        onTakeRef.current({ blob, type, kind, durationMs }, autoStopRef.current);
      };

      // The level meter: an AnalyserNode on the stream, read once per frame while recording.
      const limit = maxMs ?? maxLengthMs(kind);
      let analyser: AnalyserNode | null = null;
      try {
        const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
        if (Ctx && stream.getAudioTracks().length) {
          const ctx = new Ctx();
          audioRef.current = ctx;
          analyser = ctx.createAnalyser();
          analyser.fftSize = 1024;
          ctx.createMediaStreamSource(stream).connect(analyser);
        }
      } catch {
        analyser = null;
      }
      const samples = analyser ? new Float32Array(analyser.fftSize) : null;
      const tick = () => {
        const elapsed = performance.now() - startedAt;
        let level = 0;
        if (analyser && samples) {
          analyser.getFloatTimeDomainData(samples);
          let sum = 0;
          for (const v of samples) sum += v * v;
          // RMS to a 0..1 scale that moves visibly for an instrument at a metre.
          level = Math.min(1, Math.sqrt(sum / samples.length) * 4);
        }
        onFrameRef.current?.(level, elapsed);
        if (elapsed >= limit && recorder.state === 'recording') {
          autoStopRef.current = true;
          recorder.stop();
          return;
        }
        if (recorder.state === 'recording') frameRef.current = requestAnimationFrame(tick);
      };
      recorder.start(1000);
      setState({ phase: 'recording', kind, stream, startedAt });
      frameRef.current = requestAnimationFrame(tick);
    },
    [release, maxMs, maxBytes],
  );

  const reset = useCallback(() => setState({ phase: 'idle' }), []);

  return { state, start, stop, reset };
}
