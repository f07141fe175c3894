import { describe, expect, it } from 'vitest';
import { matrix } from './authz-routes';
import { dbDigest } from './authz-world';
import { encodeBytes } from './hostile-fuzz';
import { hostileContext, hostileRouteSuite, MUTATING } from './hostile-suite';

/**
 * Hostile JSON bodies on every route (wrong types, huge strings, unicode, nulls, extra and missing
 * fields), oversized, nested, polluting and mistyped bodies, NUL characters: never a 500, and a
 * refused write changes nothing. Query and path parameters: hostile-query.test.ts.
 */
const ctx = hostileContext('JSON bodies');
hostileRouteSuite('body');

describe('bodies refused early', () => {
  it('a JSON body over 1 MiB is refused with 413 before the handler; a guest gets 401 before the body is read', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const routes = Object.keys(matrix).filter((k) => MUTATING.has(k.split(' ')[0]!) && !k.includes('exercises'));
    for (const key of routes) {
      const [method, pattern] = key.split(' ') as [string, string];
      const url = pattern.replace(/:\w+/g, '1');
      const statuses: number[] = [];
      for (const who of ['teacherA', 'studentA', 'adminA', 'guardianA'] as const) {
        const res = await ctx.t.app.inject({ method: method as 'POST', url, headers: { ...ctx.w[who].headers, 'content-type': 'application/json' }, payload: big });
        ctx.count();
        statuses.push(res.statusCode);
      }
      const guest = await ctx.t.app.inject({ method: method as 'POST', url, headers: { 'content-type': 'application/json' }, payload: big });
      ctx.count();
      // whoever may call it gets 413; a caller of the wrong role is refused (403) before the body is read
      expect(statuses, key).toContain(413);
      for (const st of statuses) expect([403, 413], key).toContain(st);
      expect(guest.statusCode, key).toBe(matrix[key]!.access === 'public' ? 413 : 401);
    }
  });

  it('deeply nested, prototype-polluting and non-JSON bodies are 4xx, and pollute nothing', async () => {
    const cases: Array<[string, string]> = [
      ['application/json', '['.repeat(100_000) + ']'.repeat(100_000)],
      ['application/json', '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)],
      ['application/json', '{"name":"x","__proto__":{"polluted":1}}'],
      ['application/json', '{"name":"x","constructor":{"prototype":{"polluted":1}}}'],
      ['application/json', '{"name": NaN}'],
      ['application/json', '{"name": "x",}'],
      ['application/json', ''],
      ['text/plain', 'name=x'],
      ['application/x-www-form-urlencoded', 'name=x'],
      ['application/xml', '<name>x</name>'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--'],
    ];
    for (const [type, payload] of cases) {
      const before = await dbDigest(ctx.t);
      const res = await ctx.t.app.inject({ method: 'POST', url: '/api/courses', headers: { ...ctx.w.teacherA.headers, 'content-type': type }, payload });
      ctx.count();
      expect(res.statusCode, `${type} ${payload.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type} ${payload.slice(0, 40)}`).toBeLessThan(500);
      expect(await dbDigest(ctx.t)).toBe(before);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a NUL character anywhere in JSON, query or path is 422, not a crash', async () => {
    const cases = [
      { method: 'POST', url: '/api/courses', payload: { name: 'Kurs\u0000' } },
      { method: 'POST', url: '/api/courses', payload: { name: 'Kurs', description: '\u0000' } },
      { method: 'POST', url: '/api/students', payload: { name: 'A', email: 'nul@example.test', password: 'abcdefgh\u0000', notes: 'x' } },
      { method: 'GET', url: `/api/students?course_id=1${encodeBytes('\u0000')}` },
      { method: 'GET', url: `/api/students/1${encodeBytes('\u0000')}` },
    ] as const;
    for (const c of cases) {
      const before = await dbDigest(ctx.t);
      const res = await ctx.t.app.inject({ method: c.method, url: c.url, headers: ctx.w.teacherA.headers, ...('payload' in c ? { payload: c.payload } : {}) });
      ctx.count();
      expect(res.statusCode, c.url).toBe(422);
      expect(await dbDigest(ctx.t)).toBe(before);
    }
  });
});
