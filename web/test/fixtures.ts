import type { Recording } from '@contract/recordings';

/** A student's take as the API sends it (an unanswered 12 s WebM), with what a test changes. */
export function aRecording(over: Partial<Recording> = {}): Recording {
  return {
    id: 31,
    submission_id: 2,
    student: { id: 7, name: 'Ayşe Demir' },
    exercise_title: 'Tonleiter in D-Dur',
    kind: 'audio',
    mime_type: 'audio/webm',
    size: 2048,
    duration_ms: 12_000,
    path: 'recordings/7/31.webm',
    message: null,
    practice_session_id: null,
    created_at: '2026-03-02T17:00:00.000Z',
    answered_at: null,
    seen_at: null,
    new_feedback: false,
    comments: [],
    ...over,
  };
}
