/**
 * Where a "Neues Feedback" link lands (docs/decisions/spoken-comments-and-quick-replies.md): the
 * take, the moment of its newest comment, and that comment, as an address the task screen and the
 * parent's view both read: `…?take=<recordingId>&t=<ms>#comment-<commentId>`.
 */
export type FeedbackTargetLike = { recording_id: number; comment_id: number | null; at_ms: number | null };
export type Landing = { take: number; atMs: number | null; commentId: number | null };

export function feedbackHref(path: string, target: FeedbackTargetLike): string {
  const q = new URLSearchParams({ take: String(target.recording_id) });
  if (target.at_ms !== null) q.set('t', String(target.at_ms));
  return `${path}?${q.toString()}${target.comment_id !== null ? `#comment-${target.comment_id}` : ''}`;
}

const whole = (v: string | null, max: number): number | null => (v !== null && /^\d{1,10}$/.test(v) && Number(v) <= max ? Number(v) : null);

/** The landing an address asks for; null when it names no take (or a malformed one). */
export function parseLanding(search: string, hash: string): Landing | null {
  const q = new URLSearchParams(search);
  const take = whole(q.get('take'), 2147483647);
  if (take === null || take === 0) return null;
  const m = /^#comment-(\d{1,10})$/.exec(hash);
  return { take, atMs: whole(q.get('t'), 24 * 3600 * 1000), commentId: m ? whole(m[1] ?? null, 2147483647) : null };
}
