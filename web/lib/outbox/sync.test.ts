// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, onlineManager } from '@tanstack/react-query';
import { localSessions, asQueuedSession } from '@web/lib/offline-session';
import { registerSender } from './senders';
import { outbox } from './store';
import { startSync, type SyncHandle } from './sync';
import { requestFlush } from './sync-trigger';
import { requestSender, writes } from './writes';

/**
 * The outbox sender (docs/decisions/offline-practice.md) against IndexedDB (fake-indexeddb) and a scripted server: order,
 * keys, what stays and what is refused. The whole journey runs in e2e/offline.spec.ts; a take's
 * sender is tested in web/features/recordings/lib/take-sender.test.ts.
 */
type Call = { method: string; url: string; key: string | null; body: unknown };
let calls: Call[];
let answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> } | 'network'>;
let handle: SyncHandle | null = null;

// what the app registers at start-up (web/app/outbox-senders.ts)
registerSender('practice-session', requestSender);
registerSender('complete', requestSender);

beforeEach(async () => {
  calls = [];
  answers = [];
  onlineManager.setOnline(true);
  for (const e of await outbox.list(1)) await outbox.remove(e.id);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    calls.push({ method: init.method ?? 'GET', url, key: headers['Idempotency-Key'] ?? null, body: init.body ? JSON.parse(String(init.body)) : null });
    const next = answers.shift() ?? { status: 200, body: {} };
    if (next === 'network') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(next.body ?? {}), { status: next.status, headers: { 'content-type': 'application/json', ...next.headers } });
  });
});

afterEach(() => {
  handle?.stop();
  handle = null;
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
});

const session = (submissionId: number) =>
  writes.add({
    userId: 1,
    kind: 'practice-session',
    submissionId,
    title: 'Tonleiter',
    method: 'POST',
    path: `/api/submissions/${submissionId}/practice-sessions/offline`,
    body: { started_at: '2026-11-23T10:00:00.000Z', ended_at: '2026-11-23T10:00:05.000Z' },
  });
const completion = (submissionId: number) =>
  writes.add({ userId: 1, kind: 'complete', submissionId, title: 'Tonleiter', method: 'PATCH', path: `/api/submissions/${submissionId}/complete` });

describe('the outbox sender', () => {
  it('sends in the order made, each with its id as Idempotency-Key, and empties the outbox', async () => {
    const a = await session(7);
    const b = await completion(7);
    handle = startSync(1, new QueryClient());
    await vi.waitFor(async () => expect(await writes.list(1)).toHaveLength(0));
    expect(calls.map((c) => `${c.method} ${c.url} ${c.key}`)).toEqual([
      `POST /api/submissions/7/practice-sessions/offline ${a.id}`,
      `PATCH /api/submissions/7/complete ${b.id}`,
    ]);
    expect(calls[0]?.body).toEqual({ started_at: '2026-11-23T10:00:00.000Z', ended_at: '2026-11-23T10:00:05.000Z' });
  });

  it('a refusal stays with the server reason and does not hold back the next write', async () => {
    answers.push({ status: 422, body: { message: 'Validierungsfehler', errors: { started_at: ['Diese Zeit überschneidet sich mit einer anderen Übung.'] } } });
    const refused = await session(7);
    await completion(7);
    handle = startSync(1, new QueryClient());
    await vi.waitFor(async () => expect(await writes.list(1)).toHaveLength(1));
    const [left] = await writes.list(1);
    expect(left?.id).toBe(refused.id);
    expect(left?.state).toBe('refused');
    expect(left?.error).toBe('Diese Zeit überschneidet sich mit einer anderen Übung.');
    expect(calls).toHaveLength(2);
  });

  it('no answer, a 5xx or a key still being handled: the write waits and nothing after it is sent', async () => {
    for (const answer of ['network', { status: 503 }, { status: 409, body: { message: 'läuft noch' }, headers: { 'retry-after': '1' } }] as const) {
      calls = [];
      answers = [answer];
      const first = await session(7);
      await completion(7);
      handle?.stop();
      handle = startSync(1, new QueryClient());
      await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
      await vi.waitFor(async () => expect((await writes.list(1)).find((w) => w.id === first.id)?.state).toBe('waiting'));
      expect(calls).toHaveLength(1);
      expect((await writes.list(1)).find((w) => w.id === first.id)?.attempts).toBe(1);
      handle.stop();
      handle = null;
      onlineManager.setOnline(true);
      for (const w of await writes.list(1)) await writes.remove(w.id);
    }
  });

  it('sends nothing while offline and everything when the connection returns', async () => {
    onlineManager.setOnline(false);
    await session(7);
    handle = startSync(1, new QueryClient());
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(0);
    onlineManager.setOnline(true);
    await vi.waitFor(async () => expect(await writes.list(1)).toHaveLength(0));
    expect(calls).toHaveLength(1);
  });

  it('a deferred kind (an upload) goes after the writes, and only on request or when the network returns; a kind without a sender waits', async () => {
    const sent: string[] = [];
    const off = registerSender('upload', {
      deferred: true,
      send: async (e) => {
        sent.push(e.id);
      },
    });
    const big = await outbox.add({ userId: 1, kind: 'upload', submissionId: 7, title: 'Tonleiter' });
    const unknown = await outbox.add({ userId: 1, kind: 'message', submissionId: 7, title: 'Tonleiter' });
    await completion(7);
    handle = startSync(1, new QueryClient());
    await vi.waitFor(async () => expect(await writes.list(1)).toHaveLength(0));
    await handle.flush();
    expect(sent).toEqual([]);
    requestFlush(); // 'Jetzt senden'
    await vi.waitFor(() => expect(sent).toEqual([big.id]));
    await vi.waitFor(async () => expect((await outbox.list(1)).map((e) => e.id)).toEqual([unknown.id]));
    expect(calls).toHaveLength(1);
    off();
  });

  it("another user's writes are neither listed nor sent", async () => {
    await writes.add({ userId: 2, kind: 'complete', submissionId: 9, title: 'X', method: 'PATCH', path: '/api/submissions/9/complete' });
    handle = startSync(1, new QueryClient());
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(0);
    expect(await writes.list(2)).toHaveLength(1);
  });
});

describe('a session timed on the device', () => {
  beforeEach(() => localStorage.clear());

  it('is kept across reloads and queued with the device times when it stops, cut at 180 minutes', async () => {
    const start = new Date('2026-11-23T10:00:00.000Z');
    localSessions.start(1, 7, 'Tonleiter', start);
    expect(localSessions.get(1)).toMatchObject({ submissionId: 7, startedAt: start.toISOString() });
    const write = await localSessions.finish(1, new Date('2026-11-23T14:00:00.000Z'));
    expect(write?.body).toEqual({ started_at: '2026-11-23T10:00:00.000Z', ended_at: '2026-11-23T13:00:00.000Z' });
    expect(localSessions.get(1)).toBeNull();
    expect(asQueuedSession(write!)).toMatchObject({ duration_minutes: 180, recorded_offline: true });
    await writes.remove(write!.id);
  });
});
