// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { registerSender } from '@web/lib/outbox/senders';
import { startSync, type SyncHandle } from '@web/lib/outbox/sync';
import { requestFlush } from '@web/lib/outbox/sync-trigger';
import { outbox as takes, TAKE } from './outbox';
import { recordingKeys } from '../api/recordings';
import { takeSender } from './take-sender';

/** The take's sender in the app's one outbox (web/lib/outbox), with the sync loop the app runs. */
let handle: SyncHandle | null = null;
registerSender(TAKE, takeSender);

afterEach(() => {
  handle?.stop();
  handle = null;
  vi.unstubAllGlobals();
});

describe('a recording refused for want of room (docs/decisions/storage-quota.md)', () => {
  /** The upload goes by XMLHttpRequest (progress): answered from `xhrAnswers`, counted in `xhrCalls`. */
  let xhrAnswers: Array<{ status: number; body: unknown }>;
  let xhrCalls: number;
  beforeEach(() => {
    xhrAnswers = [];
    xhrCalls = 0;
    class FakeXhr {
      status = 0;
      responseText = '';
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      getResponseHeader(): string | null {
        return null;
      }
      abort() {}
      send() {
        xhrCalls++;
        const next = xhrAnswers.shift() ?? { status: 503, body: {} };
        setTimeout(() => {
          this.status = next.status;
          this.responseText = JSON.stringify(next.body);
          this.onload?.();
        }, 0);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    // the blob comes back from fake-indexeddb as a plain object, which jsdom's FormData refuses
    vi.stubGlobal('FormData', class { append() {} });
  });

  it('201: the take goes on request (not on start), leaves the outbox and is at once in its task\'s list', async () => {
    const blob = new Blob([new Uint8Array(100)], { type: 'audio/webm' });
    await takes.put({ id: 't-ok', submissionId: 7, userId: 1, title: 'Tonleiter', blob, type: 'audio/webm', kind: 'audio', durationMs: 1000, message: '', createdAt: '2026-11-23T10:00:00.000Z' });
    const queryClient = new QueryClient();
    queryClient.setQueryData(recordingKeys.list(7), []);
    xhrAnswers.push({ status: 201, body: { id: 41, submission_id: 7 } });
    handle = startSync(1, queryClient);
    await handle.flush();
    expect(xhrCalls).toBe(0);
    requestFlush(); // 'Jetzt senden'
    await vi.waitFor(async () => expect(await takes.list(1)).toHaveLength(0));
    expect(xhrCalls).toBe(1);
    expect(queryClient.getQueryData(recordingKeys.list(7))).toEqual([{ id: 41, submission_id: 7 }]);
  });

  it.each([
    [413, { message: 'voll', code: 'storage_quota_student', used_bytes: 52_428_800, quota_bytes: 52_428_800 }, /^Dein Speicher für Aufnahmen ist voll \(50 MB von 50 MB\)\. Lösche ältere Aufnahmen/],
    [507, { message: 'Platte voll', code: 'insufficient_storage' }, /^Auf dem Server ist gerade kein Platz frei/],
  ])('%i: the take stays with the text that says what to do, and is not sent again by itself', async (status, body, text) => {
    const blob = new Blob([new Uint8Array(100)], { type: 'audio/webm' });
    await takes.put({ id: `t-${status}`, submissionId: 7, userId: 1, title: 'Tonleiter', blob, type: 'audio/webm', kind: 'audio', durationMs: 1000, message: '', createdAt: '2026-11-23T10:00:00.000Z' });
    xhrAnswers.push({ status, body });
    handle = startSync(1, new QueryClient());
    requestFlush(); // 'Jetzt senden'
    await vi.waitFor(async () => expect((await takes.list(1))[0]?.refusal?.code).toBe(body.code));
    const [left] = await takes.list(1);
    expect(left?.error).toMatch(text);
    // the next run (the connection back, 'Jetzt senden') leaves it alone
    requestFlush();
    await new Promise((r) => setTimeout(r, 50));
    await handle.flush();
    expect(xhrCalls).toBe(1);
    await takes.remove(left!.id);
  });
});
