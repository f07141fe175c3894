import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { StoredTrack } from '@contract/listening/schema';
import type { RecordingAnalysis } from '@contract/recording-analysis';
import { api, isApiError } from '@web/lib/api';

/** A take's analysis (GET/PUT /api/recordings/{id}/analysis, docs/decisions/listening.md). */
export const analysisKeys = {
  all: ['recording-analysis'] as const,
  one: (recordingId: number) => ['recording-analysis', recordingId] as const,
};

/** The analysis, or null while nobody has sent the take's track yet (404 analysis_missing). */
export function fetchAnalysis(recordingId: number, signal?: AbortSignal): Promise<RecordingAnalysis | null> {
  return api<RecordingAnalysis>(`/api/recordings/${recordingId}/analysis`, { signal }).catch((err: unknown) => {
    if (isApiError(err, 404) && (err.body as { code?: string } | null)?.code === 'analysis_missing') return null;
    throw err;
  });
}

export function useRecordingAnalysis(recordingId: number) {
  return useQuery({
    queryKey: analysisKeys.one(recordingId),
    queryFn: ({ signal }) => fetchAnalysis(recordingId, signal),
    staleTime: 5 * 60_000,
    retry: (n, err) => !isApiError(err, 404) && !isApiError(err, 403) && n < 2,
  });
}

export function putTrack(recordingId: number, track: StoredTrack): Promise<RecordingAnalysis> {
  return api<RecordingAnalysis>(`/api/recordings/${recordingId}/analysis`, { method: 'PUT', body: { track } });
}

/** The server's answer into the cache (the screens showing the take update without another call). */
export function storeAnalysis(qc: QueryClient, analysis: RecordingAnalysis): void {
  qc.setQueryData(analysisKeys.one(analysis.recording_id), analysis);
}

/** The signed link of the take's file (GET /api/media/{path}). */
export function mediaUrl(path: string, signal?: AbortSignal): Promise<string> {
  return api<{ url: string }>(`/api/media/${encodeURIComponent(path)}`, { signal }).then((r) => r.url);
}
