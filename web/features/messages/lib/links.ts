import type { MessageLink } from '@contract/messages';
import { feedbackHref } from '@web/lib/feedback-landing';

export type Viewer = 'teacher' | 'student' | 'guardian';

/**
 * Where a message's link opens: the task (`/submissions/{task}`) or its take at the moment
 * (`?take=…&t=…`) for the student and the teacher; a parent sees the child's page
 * (`/children/{student}`, with the take's moment when there is one).
 */
export function messageLinkHref(link: Pick<MessageLink, 'kind' | 'task_id' | 'recording_id' | 'at_ms'>, viewer: Viewer, studentId: number): string {
  const path = viewer === 'guardian' ? `/children/${studentId}` : `/submissions/${link.task_id}`;
  if (link.kind !== 'take' || link.recording_id === null) return path;
  return feedbackHref(path, { recording_id: link.recording_id, at_ms: link.at_ms, comment_id: null });
}

const whole = (v: string | null, max: number): number | null => (v !== null && /^\d{1,10}$/.test(v) && Number(v) <= max ? Number(v) : null);

/** What a message written from a task (`?task=ID`) or a take (`&take=ID&t=MS`) links to; null without a task. */
export type Attachment = { task_id: number; recording_id: number | null; at_ms: number | null };

export function attachmentFromSearch(search: string): Attachment | null {
  const q = new URLSearchParams(search);
  const task = whole(q.get('task'), 2147483647);
  if (!task) return null;
  const take = whole(q.get('take'), 2147483647) || null;
  return { task_id: task, recording_id: take, at_ms: take ? whole(q.get('t'), 24 * 3600 * 1000) : null };
}

/** The address that opens the composer with a link to a task or a take at a moment (the entry points). */
export function composeHref(studentId: number, link: { task_id: number; recording_id?: number | null; at_ms?: number | null }): string {
  const q = new URLSearchParams({ task: String(link.task_id) });
  if (link.recording_id) {
    q.set('take', String(link.recording_id));
    if (link.at_ms !== null && link.at_ms !== undefined) q.set('t', String(Math.max(0, Math.round(link.at_ms))));
  }
  return `/nachrichten/${studentId}?${q.toString()}`;
}

/** One piece of a message's text: plain text, or an http(s) address shown as a link. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'url'; text: string };

/** Splits a message into text and http(s) addresses (a trailing full stop, comma or bracket stays text). */
export function textParts(body: string): TextPart[] {
  const out: TextPart[] = [];
  let last = 0;
  for (const m of body.matchAll(/https?:\/\/[^\s<>"']+/gi)) {
    let url = m[0];
    const trail = /[.,;:!?)\]]+$/.exec(url);
    if (trail) url = url.slice(0, -trail[0].length);
    if (m.index > last) out.push({ kind: 'text', text: body.slice(last, m.index) });
    out.push({ kind: 'url', text: url });
    last = m.index + url.length;
  }
  if (last < body.length) out.push({ kind: 'text', text: body.slice(last) });
  return out;
}

/** 'wartet seit …': minutes under an hour, hours under a day, else days (at least one minute). */
export function waitingFor(since: string, now: number): { unit: 'Minutes' | 'Hours' | 'Days'; count: number } {
  const minutes = Math.max(1, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return { unit: 'Minutes', count: minutes };
  if (minutes < 24 * 60) return { unit: 'Hours', count: Math.floor(minutes / 60) };
  return { unit: 'Days', count: Math.floor(minutes / (24 * 60)) };
}
