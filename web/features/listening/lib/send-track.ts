import type { QueryClient } from '@tanstack/react-query';
import type { RecordingAnalysis } from '@contract/recording-analysis';
import { mediaUrl, putTrack, storeAnalysis } from '../api/analysis';
import { analyzeBlob } from './analyze-audio';

/**
 * Who computes a take's track (docs/decisions/listening.md, "Where it runs"): the student's device
 * right after sending (the analysis it ran for the summary, reused), and for a take without one
 * (an old take, an upload from elsewhere, a device that could not) the browser of whoever opens it
 * first, the student or the teacher, from the take's file. Once per take and page.
 */
const inFlight = new Map<number, Promise<RecordingAnalysis | null>>();

function once(recordingId: number, run: () => Promise<RecordingAnalysis | null>): Promise<RecordingAnalysis | null> {
  let p = inFlight.get(recordingId);
  if (!p) {
    p = run().finally(() => setTimeout(() => inFlight.delete(recordingId), 0));
    inFlight.set(recordingId, p);
  }
  return p;
}

/** After a take was sent: its track from the blob this device recorded (usually already analysed). */
export function sendTrackOfBlob(qc: QueryClient, recordingId: number, blob: Blob): Promise<RecordingAnalysis | null> {
  return once(recordingId, async () => {
    const { track } = await analyzeBlob(blob);
    const analysis = await putTrack(recordingId, track);
    storeAnalysis(qc, analysis);
    return analysis;
  });
}

/** A take without analysis, opened here: its file fetched, decoded, analysed in the Worker, sent. */
export function sendTrackOfFile(qc: QueryClient, recordingId: number, path: string): Promise<RecordingAnalysis | null> {
  return once(recordingId, async () => {
    const url = await mediaUrl(path);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`the take's file answered ${res.status}`);
    const { track } = await analyzeBlob(await res.blob());
    const analysis = await putTrack(recordingId, track);
    storeAnalysis(qc, analysis);
    return analysis;
  });
}
