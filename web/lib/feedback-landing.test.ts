import { describe, expect, it } from 'vitest';
import { feedbackHref, parseLanding } from './feedback-landing';

describe('feedback landing addresses', () => {
  it('names the take, the moment and the comment, and reads them back', () => {
    const href = feedbackHref('/submissions/12', { recording_id: 31, comment_id: 90, at_ms: 42_000 });
    expect(href).toBe('/submissions/12?take=31&t=42000#comment-90');
    const url = new URL(href, 'http://x');
    expect(parseLanding(url.search, url.hash)).toEqual({ take: 31, atMs: 42_000, commentId: 90 });
  });

  it('leaves out what is not known (a general remark has no moment; an answer without comments no comment)', () => {
    expect(feedbackHref('/children/7', { recording_id: 5, comment_id: null, at_ms: null })).toBe('/children/7?take=5');
    expect(parseLanding('?take=5', '')).toEqual({ take: 5, atMs: null, commentId: null });
  });

  it('ignores malformed or hostile values', () => {
    expect(parseLanding('', '')).toBeNull();
    expect(parseLanding('?take=abc', '#comment-1')).toBeNull();
    expect(parseLanding('?take=0', '')).toBeNull();
    expect(parseLanding('?take=99999999999', '')).toBeNull();
    expect(parseLanding('?take=3&t=-5', '#comment-x')).toEqual({ take: 3, atMs: null, commentId: null });
    expect(parseLanding('?take=3&t=1e5', '#comment-2<script>')).toEqual({ take: 3, atMs: null, commentId: null });
  });
});
