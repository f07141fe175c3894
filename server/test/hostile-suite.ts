import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrix, type Req, type Spec } from './authz-routes';
import { dbDigest, holdScheduledJobs, makeWorld, type Caller, type World } from './authz-world';
import { hostileBody, hostileQuery, hostileSegment, hostileString } from './hostile-fuzz';
import { setupTestApp, type TestApp } from './test-app';

/**
 * Hostile input on every route: wrong types, huge strings, unicode, nulls, extra and missing fields
 * in JSON bodies; odd path parameters; odd and repeated query parameters. The valid request of
 * each route's authorization-matrix row is the base that fast-check mutates, sent by a caller who
 * may call it. Never a 500; a refused write changes nothing (no half-stored record).
 */

let t: TestApp;
let w: World;
let tried = 0;

/** The shared app, world and request counter of a hostile-input test file. */
export function hostileContext(label: string) {
  beforeAll(async () => {
    t = await setupTestApp();
    await holdScheduledJobs(t);
    w = await makeWorld(t);
  });
  afterAll(async () => {
    console.log(`hostile inputs tried (${label}): ${tried}`);
    await t.close();
  });
  return {
    get t() {
      return t;
    },
    get w() {
      return w;
    },
    count(n = 1) {
      tried += n;
    },
  };
}

export const RUNS = Number(process.env.HOSTILE_RUNS ?? 8);
const ok = (s: number) => s >= 200 && s < 300;
export const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function allowedCaller(spec: Spec): Caller {
  const order: Caller[] = ['teacherA', 'studentA', 'teacherB', 'studentB', 'adminA', 'guardianA', 'guardianB', 'teacherC', 'adminC', 'guest'];
  return order.find((c) => {
    const e = spec.expect[c];
    return Array.isArray(e) ? e.some(ok) : ok(e);
  })!;
}

async function send(method: string, caller: Caller, req: Req, url: string, payload: unknown, raw = false) {
  tried++;
  const isBuffer = Buffer.isBuffer(payload);
  const headers: Record<string, string> = { ...w.headersOf(caller), ...(req.headers ?? {}) };
  if (payload !== undefined && !isBuffer) headers['content-type'] = 'application/json';
  return t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: isBuffer || raw ? (payload as string) : JSON.stringify(payload) }),
  });
}

/** The checks every hostile request must pass. */
export async function expectSafe(method: string, label: string, run: () => Promise<{ statusCode: number; body: string }>) {
  const before = MUTATING.has(method) ? await dbDigest(t) : '';
  const res = await run();
  expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.statusCode, label).toBeGreaterThanOrEqual(200);
  if (MUTATING.has(method) && !ok(res.statusCode)) expect(await dbDigest(t), `${label}: a refused write changed the database`).toBe(before);
  if (res.statusCode >= 400) expect(() => JSON.parse(res.body), `${label}: error answers are JSON`).not.toThrow();
}

/** fast-check over every route of the authorization matrix: its query and path parameters, or its JSON body. */
export function hostileRouteSuite(part: 'query-path' | 'body') {
describe(`hostile input on every route (${part})`, () => {
  for (const [key, spec] of Object.entries(matrix)) {
    const method = key.split(' ')[0]!;
    const caller = allowedCaller(spec);

    if (part === 'query-path') it(`${key}: query parameters`, { timeout: 120_000 }, async () => {
      const base = await spec.build(w, caller);
      const [path] = base.url.split('?');
      await fc.assert(
        fc.asyncProperty(hostileQuery, fc.boolean(), async (q, keepOriginal) => {
          const original = base.url.includes('?') ? base.url.slice(base.url.indexOf('?') + 1) : '';
          const url = `${path}?${keepOriginal && original ? `${original}&` : ''}${q}`;
          await expectSafe(method, `${key} ?${q.slice(0, 120)}`, () => send(method, caller, base, url, base.payload));
        }),
        { numRuns: RUNS },
      );
    });

    if (part === 'query-path' && base_has_path_param(key)) {
      it(`${key}: path parameters`, { timeout: 120_000 }, async () => {
        await fc.assert(
          fc.asyncProperty(hostileSegment, async (seg) => {
            const base = await spec.build(w, caller);
            const url = replacePathParam(key, base, seg);
            await expectSafe(method, `${key} path ${seg.slice(0, 120)}`, () => send(method, caller, base, url, base.payload));
          }),
          { numRuns: RUNS },
        );
      });
    }

    if (part === 'body') it(`${key}: bodies`, { timeout: 120_000 }, async () => {
      const base = await spec.build(w, caller);
      const json = base.payload !== undefined && !Buffer.isBuffer(base.payload) && typeof base.payload === 'object' ? (base.payload as Record<string, unknown>) : null;
      const arb = json ? hostileBody(json) : fc.oneof(hostileBody({}), hostileString.map((s) => ({ raw: s })));
      await fc.assert(
        fc.asyncProperty(arb, async (body) => {
          // Routes without a JSON body get one anyway (or a raw non-JSON text claiming to be JSON).
          const fresh = json ? await spec.build(w, caller) : base;
          const raw = !json && body && typeof body === 'object' && 'raw' in (body as object);
          const payload = raw ? String((body as { raw: string }).raw) : body;
          if (Buffer.isBuffer(fresh.payload)) return; // multipart routes: hostile-upload.test.ts
          await expectSafe(method, `${key} body ${JSON.stringify(payload)?.slice(0, 160)}`, () => send(method, caller, fresh, fresh.url, payload, !!raw));
        }),
        { numRuns: json ? RUNS * 3 : Math.ceil(RUNS / 2) },
      );
    });
  }
});

}

function base_has_path_param(key: string): boolean {
  return key.includes(':id') || key.endsWith('/*');
}

function replacePathParam(key: string, base: Req, seg: string): string {
  const [path, query] = base.url.split('?');
  let out: string;
  if (key.endsWith('/*')) {
    const prefix = key.split(' ')[1]!.slice(0, -1); // '/api/media/' or '/api/media-file/'
    out = `${prefix}${seg}`;
  } else {
    out = path!.replace(new RegExp(`/${String(base.id)}(?=/|$)`), `/${seg}`);
  }
  return query ? `${out}?${query}` : out;
}

