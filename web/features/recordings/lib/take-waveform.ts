import { decodeOffline } from '@web/lib/audio';

/** wavesurfer.js's own rate for a waveform's samples: plenty for a picture, little to hold. */
export const WAVEFORM_RATE = 8000;

export type LoadedTake = { blob: Blob; channels?: Float32Array[]; duration?: number };

/**
 * A take's file and its waveform's samples for wavesurfer.js (docs/decisions/first-load-on-a-phone.md,
 * "The takes' waveforms"). wavesurfer decodes with a real-time `AudioContext`, which starts the
 * device's audio output only to draw a picture: the page's first one held Chromium's main thread
 * for ~60 ms. `decodeOffline` decodes the same way (off the main thread, resampled to the same rate)
 * without any output. A file it cannot decode (a video's codec, or no Web Audio at all) goes to
 * wavesurfer without samples: it tries its own decoder and reports what it finds.
 */
export async function loadTake(url: string, signal: AbortSignal): Promise<LoadedTake> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`the take's file: HTTP ${res.status}`);
  const blob = await res.blob();
  try {
    const buffer = await decodeOffline(await blob.arrayBuffer(), WAVEFORM_RATE);
    const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
    return { blob, channels, duration: buffer.duration };
  } catch {
    return { blob };
  }
}
