import { describe, expect, it } from 'vitest';
import { attachmentFromSearch, composeHref, messageLinkHref, textParts, waitingFor } from './links';

describe('message links', () => {
  const take = { kind: 'take' as const, task_id: 12, recording_id: 31, at_ms: 42_000 };
  const task = { kind: 'task' as const, task_id: 12, recording_id: null, at_ms: null };

  it.each([
    ['teacher', task, '/submissions/12'],
    ['student', take, '/submissions/12?take=31&t=42000'],
    ['guardian', task, '/children/7'],
    ['guardian', take, '/children/7?take=31&t=42000'],
    ['student', { ...take, at_ms: null }, '/submissions/12?take=31'],
  ] as const)('%s: %o opens %s', (viewer, link, href) => {
    expect(messageLinkHref(link, viewer, 7)).toBe(href);
  });

  it('reads ?task=…&take=…&t=… (a malformed or missing task links nothing) and writes it back', () => {
    expect(attachmentFromSearch('?task=12&take=31&t=42000')).toEqual({ task_id: 12, recording_id: 31, at_ms: 42_000 });
    expect(attachmentFromSearch('?task=12&t=5')).toEqual({ task_id: 12, recording_id: null, at_ms: null });
    expect(attachmentFromSearch('?take=31')).toBeNull();
    expect(attachmentFromSearch('?task=x')).toBeNull();
    expect(attachmentFromSearch('?task=12&take=31&t=99999999999')).toEqual({ task_id: 12, recording_id: 31, at_ms: null });
    expect(composeHref(7, { task_id: 12, recording_id: 31, at_ms: 1234.6 })).toBe('/nachrichten/7?task=12&take=31&t=1235');
    expect(composeHref(7, { task_id: 12 })).toBe('/nachrichten/7?task=12');
  });

  it('finds http(s) addresses in a text, leaving a closing full stop or bracket as text', () => {
    expect(textParts('Siehe https://example.org/a?b=1. Und (http://x.de/y) <b>')).toEqual([
      { kind: 'text', text: 'Siehe ' },
      { kind: 'url', text: 'https://example.org/a?b=1' },
      { kind: 'text', text: '. Und (' },
      { kind: 'url', text: 'http://x.de/y' },
      { kind: 'text', text: ') <b>' },
    ]);
    expect(textParts('javascript:alert(1) ftp://x')).toEqual([{ kind: 'text', text: 'javascript:alert(1) ftp://x' }]);
  });

  it('says how long a message has been waiting in minutes, hours or days', () => {
    const now = Date.parse('2026-03-05T12:00:00Z');
    expect(waitingFor('2026-03-05T11:59:50Z', now)).toEqual({ unit: 'Minutes', count: 1 });
    expect(waitingFor('2026-03-05T11:01:00Z', now)).toEqual({ unit: 'Minutes', count: 59 });
    expect(waitingFor('2026-03-05T09:00:00Z', now)).toEqual({ unit: 'Hours', count: 3 });
    expect(waitingFor('2026-03-02T11:00:00Z', now)).toEqual({ unit: 'Days', count: 3 });
  });
});
