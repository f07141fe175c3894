import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Recording } from '@contract/recordings';
import { addSentRecording, recordingKeys } from './recordings';

const take = (id: number, submission_id = 62): Recording => ({
  id,
  submission_id,
  student: { id: 3, name: 'Elif Kaya' },
  exercise_title: 'Tonleiter',
  kind: 'audio',
  mime_type: 'audio/webm',
  size: 1000,
  duration_ms: 2000,
  path: `recordings/${submission_id}/${id}.webm`,
  message: null,
  practice_session_id: null,
  created_at: '2026-11-23T10:00:00.000Z',
  answered_at: null,
  seen_at: null,
  new_feedback: false,
  comments: [],
});

describe('a take the server accepted', () => {
  it('stands at the top of its loaded list at once, once', () => {
    const qc = new QueryClient();
    qc.setQueryData(recordingKeys.list(62), [take(1)]);
    addSentRecording(qc, take(2));
    addSentRecording(qc, take(2));
    expect(qc.getQueryData<Recording[]>(recordingKeys.list(62))?.map((r) => r.id)).toEqual([2, 1]);
  });

  it('leaves a list that was never loaded unloaded, and other tasks alone', () => {
    const qc = new QueryClient();
    qc.setQueryData(recordingKeys.list(7), [take(1, 7)]);
    addSentRecording(qc, take(2));
    expect(qc.getQueryData(recordingKeys.list(62))).toBeUndefined();
    expect(qc.getQueryData<Recording[]>(recordingKeys.list(7))?.map((r) => r.id)).toEqual([1]);
  });
});
