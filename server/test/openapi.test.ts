import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponsesOf } from '@contract/common';
import { DATE_RANGE, PASSWORD_MIN_LENGTH } from '@contract/constants';
import { ANALYSIS_LIMITS } from '@contract/recording-analysis';
import { openApiTransform, openApiTransformObject } from '../lib/openapi';
import { installOpenApiGuard } from './openapi-guard';
import { setupTestApp, type TestApp, type TestUser } from './test-app';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every schema object of the document with the JSON path it sits at. */
function* walk(node: unknown, path: string): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* walk(v, `${path}[${i}]`);
  } else if (isObj(node)) {
    yield [path, node];
    for (const [k, v] of Object.entries(node)) yield* walk(v, `${path}.${k}`);
  }
}

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  // counts the answers this app's guard saw: one instance
  t = await setupTestApp({}, { balanced: false });
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document (GET /api/docs)', () => {
  it('is structurally valid OpenAPI 3.0: info, paths with operations, responses, resolvable $refs, path parameters', () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    expect(isObj(doc.info) && typeof doc.info.title === 'string' && typeof doc.info.version === 'string').toBe(true);
    const schemas = (doc.components as { schemas: Json }).schemas;
    const paths = doc.paths as Record<string, Json>;
    expect(Object.keys(paths).length).toBeGreaterThan(20);
    const problems: string[] = [];
    const opIds = new Set<string>();
    for (const [path, item] of Object.entries(paths)) {
      if (!path.startsWith('/')) problems.push(`${path}: does not start with /`);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) {
          problems.push(`${path}: unknown key ${method}`);
          continue;
        }
        if (!isObj(op)) continue;
        if (typeof op.operationId === 'string') {
          if (opIds.has(op.operationId)) problems.push(`duplicate operationId ${op.operationId}`);
          opIds.add(op.operationId);
        }
        const responses = op.responses as Record<string, Json>;
        if (!isObj(responses) || Object.keys(responses).length === 0) problems.push(`${method} ${path}: no responses`);
        for (const [status, r] of Object.entries(responses ?? {})) {
          if (!/^[1-5](\d\d|XX)$|^default$/.test(status)) problems.push(`${method} ${path}: bad status ${status}`);
          if (typeof r.description !== 'string') problems.push(`${method} ${path} ${status}: no description`);
          if (status === '204' && 'content' in r) problems.push(`${method} ${path}: 204 has content`);
          if (!['204'].includes(status) && !isObj(r.content)) problems.push(`${method} ${path} ${status}: no content`);
          // the error schema, or one that extends it with `message` (PracticeConflict)
          const ref = /#\/components\/schemas\/([A-Za-z]+)/.exec(JSON.stringify(r.content ?? {}))?.[1];
          const errorLike = ref !== undefined && isObj(schemas[ref]) && isObj((schemas[ref] as Json).properties) && 'message' in ((schemas[ref] as Json).properties as Json);
          if (Number(status) >= 400 && !errorLike) {
            problems.push(`${method} ${path} ${status}: not the error schema`);
          }
        }
        if (!responses?.['500']) problems.push(`${method} ${path}: 500 missing`);
        if (!responses?.['422']) problems.push(`${method} ${path}: 422 missing`);
        const params = (op.parameters ?? []) as Json[];
        const seen = new Set<string>();
        for (const p of params) {
          if (!['query', 'path', 'header', 'cookie'].includes(String(p.in))) problems.push(`${method} ${path}: parameter in ${String(p.in)}`);
          if (seen.has(`${String(p.in)}:${String(p.name)}`)) problems.push(`${method} ${path}: duplicate parameter ${String(p.name)}`);
          seen.add(`${String(p.in)}:${String(p.name)}`);
          if (p.in === 'path' && p.required !== true) problems.push(`${method} ${path}: path parameter ${String(p.name)} not required`);
          if (!isObj(p.schema) && !isObj(p.content)) problems.push(`${method} ${path}: parameter ${String(p.name)} without schema`);
        }
        for (const name of templated) if (!seen.has(`path:${name}`)) problems.push(`${method} ${path}: path parameter {${name}} not described`);
        for (const p of params) if (p.in === 'path' && !templated.includes(String(p.name))) problems.push(`${method} ${path}: path parameter ${String(p.name)} not in the path`);
        if (op.requestBody !== undefined && !isObj((op.requestBody as Json).content)) problems.push(`${method} ${path}: requestBody without content`);
      }
    }
    for (const [where, node] of walk(doc, '$')) {
      if (typeof node.$ref === 'string') {
        const m = /^#\/components\/schemas\/(.+)$/.exec(node.$ref);
        if (!m || !m[1] || !(m[1] in schemas)) problems.push(`${where}: unresolvable $ref ${node.$ref}`);
      }
      // OpenAPI 3.0 has no type lists and no `const`; `type: 'null'` does not exist either
      if (Array.isArray(node.type) || node.type === 'null') problems.push(`${where}: type ${JSON.stringify(node.type)} is not OpenAPI 3.0`);
    }
    expect(problems).toEqual([]);
  });

  it('documents every 204 without content and every e-mail field with format email', () => {
    const problems: string[] = [];
    let noContent = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        const r204 = (op.responses as Record<string, Json>)['204'];
        if (r204) {
          noContent++;
          if ('content' in r204) problems.push(`${method} ${path}: 204 with content`);
        }
      }
    }
    expect(noContent).toBeGreaterThanOrEqual(5);
    let emails = 0;
    for (const [where, node] of walk(doc, '$')) {
      const props = isObj(node.properties) ? node.properties : {};
      for (const [name, s] of Object.entries(props)) {
        if (name !== 'email') continue;
        emails++;
        if (!isObj(s) || s.format !== 'email') problems.push(`${where}.properties.email: ${JSON.stringify(s)}`);
      }
    }
    expect(emails).toBeGreaterThanOrEqual(8); // login, user, student in/out, dashboard, overview…
    expect(problems).toEqual([]);
  });

  it('documents the exercise form as multipart with real arrays and their encoding', () => {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    for (const path of ['/api/exercises', '/api/exercises/{id}']) {
      const body = ((doc.paths as Record<string, Record<string, Json>>)[path]!.post!.requestBody as Json).content as Record<string, Json>;
      expect(Object.keys(body)).toEqual(['multipart/form-data']);
      const form = body['multipart/form-data']!;
      const ref = String((form.schema as Json).$ref).split('/').pop()!;
      const props = schemas[ref]!.properties as Record<string, Json>;
      expect(Object.keys(props).filter((k) => k.includes('['))).toEqual([]);
      expect(props.tags).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(props.media_files).toMatchObject({ type: 'array', items: { type: 'string', format: 'binary' } });
      expect(props.remove_media).toMatchObject({ type: 'array', items: { type: 'integer' } });
      expect(props.course_ids).toMatchObject({ type: 'array', items: { type: 'integer' } });
      expect(form.encoding).toMatchObject({
        tags: { style: 'form', explode: true },
        media_files: { style: 'form', explode: true },
        remove_media: { style: 'form', explode: true },
      });
    }
  });

  it('documents every date parameter and field with format date and a pattern that excludes 0000-00-00 and dates outside the window', () => {
    const dates: Array<[string, Json]> = [];
    for (const [where, node] of walk(doc, '$')) {
      if (node.format === 'date') dates.push([where, node]);
    }
    // due_date, recurrence_end_date, from, to (start/end take date-times too and carry their own pattern)
    expect(dates.length).toBeGreaterThanOrEqual(4);
    for (const [where, node] of dates) {
      const re = new RegExp(String(node.pattern));
      expect(re.test('0000-00-00'), where).toBe(false);
      expect(re.test('9999-12-25'), where).toBe(false);
      expect(re.test('1999-12-31'), where).toBe(false);
      expect(re.test('2101-01-01'), where).toBe(false);
      expect(re.test(DATE_RANGE.min), where).toBe(true);
      expect(re.test(DATE_RANGE.max), where).toBe(true);
    }
    const calendar = (doc.paths as Record<string, Record<string, Json>>)['/api/calendar-events']!.get!.parameters as Json[];
    for (const name of ['start', 'end']) {
      const re = new RegExp(String((calendar.find((p) => p.name === name)!.schema as Json).pattern));
      expect(re.test('0000-00-00')).toBe(false);
      expect(re.test('2026-10-26T00:00:00+01:00')).toBe(true);
    }
  });

  it('documents 413/415 on uploads, 416 on the signed media link, 500 everywhere, 401 only where a sign-in is needed', () => {
    const paths = doc.paths as Record<string, Record<string, { responses: Json; security?: unknown[] }>>;
    for (const p of ['/api/exercises', '/api/exercises/{id}']) expect(Object.keys(paths[p]!.post!.responses)).toEqual(expect.arrayContaining(['413', '415']));
    expect(Object.keys(paths['/api/media-file/{*}']!.get!.responses)).toEqual(expect.arrayContaining(['200', '206', '403', '416']));
    expect(Object.keys(paths['/api/login']!.post!.responses)).toEqual(expect.arrayContaining(['401', '429']));
    expect(paths['/api/user']!.get!.responses['429']).toBeUndefined();
    expect(paths['/api/media-file/{*}']!.get!.responses['401']).toBeUndefined();
  });
});

describe('unknown and empty query parameters', () => {
  it('refuses an unknown query parameter with 422 naming it, on a route with and one without parameters of its own', async () => {
    const teacher = await t.teacher();
    for (const url of ['/api/courses?foo=1', '/api/user?foo=1', '/api/submissions?limit=5&foo=1&bar=']) {
      const res = await t.app.inject({ method: 'GET', url, headers: teacher.headers });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.foo).toEqual(['Unbekannter Parameter.']);
    }
    const tr = await t.app.inject({ method: 'GET', url: '/api/courses?language=tr&foo=1', headers: teacher.headers });
    expect(tr.json().errors).toEqual({ foo: ['Bilinmeyen parametre.'] });
    // a name that cannot be a key of `errors` is named in the text
    const proto = await t.app.inject({ method: 'GET', url: '/api/user?__proto__=1&constructor=', headers: teacher.headers });
    expect(proto.statusCode).toBe(422);
    expect(proto.json().errors).toEqual({ querystring: ['Unbekannter Parameter. (__proto__)', 'Unbekannter Parameter. (constructor)'] });
  });

  it('refuses an empty language (it is not documented as allowed) and takes the documented empty filters as missing', async () => {
    const teacher = await t.teacher();
    expect((await t.app.inject({ method: 'GET', url: '/api/courses?language=', headers: teacher.headers })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/students?course_id=', headers: teacher.headers })).statusCode).toBe(200);
    const params = ((doc.paths as Record<string, Record<string, Json>>)['/api/students']!.get!.parameters as Json[]);
    expect(params.find((p) => p.name === 'course_id')!.allowEmptyValue).toBe(true);
    expect(params.find((p) => p.name === 'language')!.allowEmptyValue).toBeUndefined();
  });
});

describe('the guard that checks every answer of the API tests against the document', () => {
  async function guarded() {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data)); // no zod check: the guard alone must notice
    await app.register(swagger, { openapi: { info: { title: 't', version: '1' } }, transform: openApiTransform, transformObject: openApiTransformObject });
    const reports: string[] = [];
    const guard = installOpenApiGuard(app, { report: (m) => reports.push(m) });
    const out = z.object({ email: z.string().meta({ format: 'email' }), n: z.number().int() }).meta({ id: 'GuardOut' });
    app.get('/api/ok', { schema: { response: { 200: out, ...errorResponsesOf() } } }, async (req, reply) => {
      const q = req.query as Record<string, string>;
      if (q.status) return reply.code(Number(q.status) as 422).send({ message: 'x' });
      if (q.bad) return { email: 'not an e-mail', n: 1.5 };
      return { email: 'a@example.com', n: 1 };
    });
    app.delete('/api/gone', { schema: { response: { 204: z.null(), ...errorResponsesOf() } } }, async (req, reply) =>
      (req.query as Record<string, string>).body ? reply.code(204).send('oops' as never) : reply.code(204).send(null),
    );
    await app.ready();
    return { app, reports, guard };
  }

  it('passes documented answers and reports an undocumented status, a body off the schema, and a 204 with a body', async () => {
    const { app, reports, guard } = await guarded();
    try {
      expect((await app.inject({ method: 'GET', url: '/api/ok' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/ok?status=422' })).statusCode).toBe(422);
      expect((await app.inject({ method: 'DELETE', url: '/api/gone' })).statusCode).toBe(204);
      expect(reports).toEqual([]);
      expect(guard.checked).toBe(3);

      await app.inject({ method: 'GET', url: '/api/ok?status=418' });
      expect(reports.pop()).toMatch(/status 418 is not documented/);
      await app.inject({ method: 'GET', url: '/api/ok?bad=1' });
      const bad = reports.pop()!;
      expect(bad).toMatch(/does not match the document/);
      expect(bad).toMatch(/email/);
      await app.inject({ method: 'DELETE', url: '/api/gone?body=1' });
      expect(reports.pop()).toMatch(/a 204 carries a body/);
      expect(reports).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('is installed on the app of every API test file and has checked this file’s answers', () => {
    expect(t.openApiGuard.checked).toBeGreaterThan(5);
    expect(t.openApiGuard.pending).toEqual([]);
  });
});

/**
 * What Schemathesis checks (`--checks all`), done by walking the document: every documented path
 * answers OPTIONS and every method it does not have with 405 and an `Allow` that lists exactly the
 * documented methods; every documented query parameter refuses a value its schema does not allow
 * (4xx, never 2xx or 5xx). The answers themselves are checked against the document by the guard
 * installed on this app (openapi-guard.ts), as in every API test file.
 */
describe('every operation against its document', () => {
  const VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  /** A concrete path for a documented one: every `{name}` a whole number, the media wildcard a file name. */
  const concrete = (path: string) => path.replace('{*}', 'exercises/1/x.png').replace(/\{[^}]+\}/g, '1');
  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, Json>>).filter(([path]) => path.startsWith('/api/'));

  it('answers OPTIONS and every undocumented method with 405 and Allow listing exactly the documented methods', async () => {
    const findings: string[] = [];
    let checked = 0;
    for (const [path, item] of operations()) {
      const documented = Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => m.toUpperCase());
      if (documented.includes('GET')) documented.push('HEAD');
      const expected = [...new Set(documented)].sort().join(', ');
      for (const method of ['OPTIONS', ...VERBS.filter((v) => !documented.includes(v))] as const) {
        // no caller: a method that wrongly reached a route could not write anything
        const res = await t.app.inject({ method: method as 'GET', url: concrete(path) });
        checked++;
        const allow = String(res.headers.allow ?? '').split(',').map((s) => s.trim()).filter(Boolean).sort().join(', ');
        if (res.statusCode !== 405 || allow !== expected) findings.push(`${method} ${path}: ${res.statusCode}, Allow '${allow}' (documented: ${expected})`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(findings).toEqual([]);
  });

  /** Values a parameter's schema does not allow (at most a few per parameter). */
  function invalidValues(schema: Json, allowEmpty: boolean): string[] {
    const s = (Array.isArray(schema.anyOf) ? (schema.anyOf as Json[]).find((x) => x.type !== 'null') : schema) ?? schema;
    const out: string[] = [];
    if (!allowEmpty) out.push('');
    if (Array.isArray(s.enum)) out.push('zz-not-listed');
    if (s.type === 'integer' || s.type === 'number') {
      out.push('abc', 'null');
      if (s.type === 'integer') out.push('1.5');
      if (typeof s.minimum === 'number') out.push(String(s.minimum - 1));
      if (typeof s.maximum === 'number') out.push(String(s.maximum + 1));
    }
    if (s.type === 'boolean') out.push('maybe');
    if (s.type === 'string') {
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test('%%')) out.push('%%');
      if (s.format === 'date' || s.format === 'date-time') out.push('2020-02-30');
      if (typeof s.maxLength === 'number') out.push('x'.repeat(s.maxLength + 1));
    }
    if (s.type === 'array' && isObj(s.items) && Array.isArray(s.items.enum)) out.push('zz-not-listed');
    return [...new Set(out)];
  }

  it('refuses a schema-invalid value of every documented query parameter (4xx, never 2xx or 5xx)', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const admin = await t.admin();
    const guardian = await t.guardian([student]);
    const callers = [teacher, student, admin, guardian];
    const findings: string[] = [];
    let checked = 0;
    for (const [path, item] of operations()) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        for (const p of ((op.parameters ?? []) as Json[]).filter((x) => x.in === 'query' && isObj(x.schema))) {
          for (const value of invalidValues(p.schema as Json, p.allowEmptyValue === true)) {
            for (const caller of callers) {
              const url = `${concrete(path)}?${encodeURIComponent(String(p.name))}=${encodeURIComponent(value)}`;
              const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers: caller.headers });
              checked++;
              if (res.statusCode < 400 || res.statusCode >= 500)
                findings.push(`${method.toUpperCase()} ${path} ?${String(p.name)}=${JSON.stringify(value)} as ${caller.role}: ${res.statusCode}`);
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(findings).toEqual([]);
  });

  it('refuses a schema-invalid path parameter of every operation (4xx, never 2xx or 5xx)', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const admin = await t.admin();
    const findings: string[] = [];
    let checked = 0;
    for (const [path, item] of operations()) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        for (const p of ((op.parameters ?? []) as Json[]).filter((x) => x.in === 'path' && isObj(x.schema) && x.name !== '*')) {
          for (const value of invalidValues(p.schema as Json, false).filter((v) => v !== '')) {
            for (const caller of [teacher, student, admin]) {
              const url = concrete(path.replace(`{${String(p.name)}}`, encodeURIComponent(value)));
              const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers: caller.headers });
              checked++;
              if (res.statusCode < 400 || res.statusCode >= 500) findings.push(`${method.toUpperCase()} ${path} {${String(p.name)}}=${JSON.stringify(value)} as ${caller.role}: ${res.statusCode}`);
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(findings).toEqual([]);
  });

  let walkSeq = 0;
  /**
   * Rules JSON Schema cannot say (one field against another or against the clock), written in the
   * operation's description instead: the walk below accepts a 422 on these fields there.
   */
  const DESCRIBED: Record<string, { fields: string[]; mentions: RegExp }> = {
    'POST /api/submissions/{id}/practice-sessions/offline': { fields: ['ended_at', 'started_at'], mentions: /not after started_at/ },
    'POST /api/students': { fields: ['course_ids'], mentions: /course_ids must name courses of the calling teacher/ },
    'PUT /api/students/{id}': { fields: ['course_ids'], mentions: /course_ids must name courses of the calling teacher/ },
    'PUT /api/school/storage': { fields: ['student_quota_bytes'], mentions: /may not exceed the school's/ },
    'PUT /api/push/subscription': { fields: ['endpoint'], mentions: /PUSH_SERVICE_HOSTS/ },
  };
  /** A value its (OpenAPI 3.0) schema allows, with every property (`full`) or only the required ones. */
  function validValue(schema: Json, full: boolean, depth = 0): unknown {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    let s = schema;
    if (typeof s.$ref === 'string') s = schemas[s.$ref.split('/').pop()!] ?? {};
    if (Array.isArray(s.allOf)) s = Object.assign({}, ...(s.allOf as Json[]));
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      const branches = ((s.anyOf ?? s.oneOf) as Json[]).filter((b) => b.type !== 'null' && !(b.nullable && b.enum?.toString() === ''));
      return validValue(branches[0] ?? {}, full, depth + 1);
    }
    if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null);
    switch (s.type) {
      case 'object': {
        const props = isObj(s.properties) ? s.properties : {};
        const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
        const out: Json = {};
        for (const [k, v] of Object.entries(props)) if ((full && depth < 3) || required.has(k)) out[k] = validValue(v as Json, full, depth + 1);
        for (const [k, v] of Object.entries(props)) if (Object.keys(out).length < Number(s.minProperties ?? 0)) out[k] ??= validValue(v as Json, full, depth + 1);
        return out;
      }
      case 'array': {
        const n = Math.max(Number(s.minItems ?? 0), full ? 1 : 0);
        return Array.from({ length: n }, (_, i) => {
          const v = validValue(isObj(s.items) ? s.items : {}, full, depth + 1);
          return typeof v === 'number' ? v + i : typeof v === 'string' && s.uniqueItems ? `${v}${i}` : v;
        });
      }
      case 'integer':
      case 'number':
        return typeof s.minimum === 'number' ? Math.max(s.minimum, Math.min(1, Number(s.maximum ?? 1))) : 1;
      case 'boolean':
        return true;
      case 'string': {
        if (s.format === 'date') return DATE_RANGE.min;
        if (s.format === 'date-time') return '2026-01-05T10:00:00Z';
        if (s.format === 'email') return `walk-${(walkSeq++).toString(36)}@example.com`;
        // a field whose pattern no candidate below meets documents an example that does
        if (Array.isArray(s.examples) && typeof s.examples[0] === 'string') return s.examples[0];
        const min = Number(s.minLength ?? 0);
        const max = Number(s.maxLength ?? 1000);
        const re = typeof s.pattern === 'string' ? new RegExp(s.pattern) : null;
        const candidates = ['Walk text', 'abcdefgh', 'x'.repeat(Math.max(min, 1)), '2026-01-05', '1', 'a', '#ff0000', 'C', 'de', '17:00'];
        return candidates.find((c) => c.length >= min && c.length <= max && (!re || re.test(c))) ?? 'x'.repeat(min);
      }
      default:
        return {};
    }
  }

  /** Every operation that reads a JSON body, with the body's schema. */
  function* jsonBodyOperations(): Generator<{ path: string; method: string; op: Json; schema: Json }> {
    for (const [path, item] of operations()) {
      for (const [method, op] of Object.entries(item)) {
        const content = isObj(op.requestBody) && isObj(op.requestBody.content) ? op.requestBody.content : undefined;
        const json = content?.['application/json'] as Json | undefined;
        if (json && isObj(json.schema)) yield { path, method, op, schema: json.schema };
      }
    }
  }

  /** A caller of every role: a teacher, their student, the school's administrator, the student's parent. */
  async function everyRole(): Promise<{ teacher: TestUser; student: TestUser; admin: TestUser; guardian: TestUser }> {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    return { teacher, student, admin: await t.admin(), guardian: await t.guardian([student]) };
  }

  it('takes every JSON body its schema allows past validation (no 422 naming a body field the document allows)', async () => {
    const { teacher, student, admin, guardian } = await everyRole();
    const findings: string[] = [];
    let checked = 0;
    for (const { path, method, op, schema } of jsonBodyOperations()) {
      for (const full of [false, true]) {
        const payload = validValue(schema, full);
        for (const caller of [teacher, student, admin, guardian]) {
          const res = await t.app.inject({ method: method.toUpperCase() as 'POST', url: concrete(path), headers: caller.headers, payload: payload as object });
          checked++;
          if (res.statusCode !== 422) continue;
          const described = DESCRIBED[`${method.toUpperCase()} ${path}`];
          if (described) expect(String(op.description), path).toMatch(described.mentions);
          const errors = Object.keys((res.json() as { errors?: Json }).errors ?? {}).filter((f) => !described?.fields.includes(f));
          if (errors.length) findings.push(`${method.toUpperCase()} ${path} ${full ? 'full' : 'required only'} as ${caller.role}: 422 ${errors.join(', ')} for ${JSON.stringify(payload).slice(0, 160)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(findings).toEqual([]);
  });

  /** The schema a `$ref`, `allOf` or nullable `anyOf` stands for, and whether null is allowed. */
  function resolveSchema(schema: Json): { s: Json; nullable: boolean } {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    let s = schema;
    if (typeof s.$ref === 'string') s = schemas[s.$ref.split('/').pop()!] ?? {};
    if (Array.isArray(s.allOf)) s = Object.assign({}, ...(s.allOf as Json[]));
    let nullable = s.nullable === true;
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      const all = (s.anyOf ?? s.oneOf) as Json[];
      const branches = all.filter((b) => b.type !== 'null' && !(b.nullable && b.enum?.toString() === ''));
      nullable ||= branches.length < all.length;
      const inner = resolveSchema(branches[0] ?? {});
      return { s: inner.s, nullable: nullable || inner.nullable };
    }
    return { s, nullable };
  }

  /**
   * Values at the edges of what a schema allows, as a schema-driven fuzzer's coverage phase tries
   * them (Schemathesis' "positive data acceptance"): the shortest and the longest text, one of
   * spaces, e-mail addresses that JSON Schema's format allows, the smallest and largest number,
   * an empty and a full list, null where null is allowed. Each is checked against the document's
   * own pattern first: what the document refuses is not an edge it allows.
   */
  function edgeValues(schema: Json): unknown[] {
    const { s, nullable } = resolveSchema(schema);
    const out: unknown[] = nullable ? [null] : [];
    if (Array.isArray(s.enum)) return [...out, ...s.enum];
    switch (s.type) {
      case 'string': {
        const min = Number(s.minLength ?? 0);
        const max = Number(s.maxLength ?? 5000);
        const re = typeof s.pattern === 'string' ? new RegExp(s.pattern) : null;
        let cands: string[];
        if (s.format === 'date') cands = [DATE_RANGE.min, DATE_RANGE.max, '2028-02-29'];
        else if (s.format === 'date-time') cands = ['2026-01-05T10:00:00Z', '2026-01-05T10:00:00.000+01:00'];
        else if (s.format === 'email') cands = ['0@com', 'a@b.c', 'x@[127.0.0.1]', `${'a'.repeat(60)}@example.com`];
        else cands = ['x'.repeat(Math.max(min, 1)), 'x'.repeat(Math.min(max, 5000)), ' '.repeat(Math.max(min, 1)), '0', 'İ', ' x '];
        for (const ex of [s.example, ...(Array.isArray(s.examples) ? s.examples : [])]) if (typeof ex === 'string') cands.push(ex, ` ${ex} `, ex.toUpperCase());
        return [...out, ...new Set(cands.filter((c) => c.length >= min && c.length <= max && (!re || re.test(c))))];
      }
      case 'integer':
      case 'number': {
        // OpenAPI 3.0: exclusiveMinimum/-Maximum are booleans that move the bound by one whole step
        const step = s.type === 'integer' ? 1 : 1e-6;
        const lo = typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum === true ? step : 0) : undefined;
        const hi = typeof s.maximum === 'number' ? s.maximum - (s.exclusiveMaximum === true ? step : 0) : undefined;
        const cands = [lo, hi, lo === undefined ? -1 : undefined, hi === undefined ? 2147483647 : undefined, 0].filter((v): v is number => v !== undefined);
        return [...out, ...new Set(cands.filter((v) => (lo === undefined || v >= lo) && (hi === undefined || v <= hi)))];
      }
      case 'boolean':
        return [...out, true, false];
      case 'array': {
        const items = isObj(s.items) ? s.items : {};
        const lists: unknown[] = [];
        if (Number(s.minItems ?? 0) === 0) lists.push([]);
        if (typeof s.maxItems === 'number' && s.maxItems <= 100) {
          lists.push(
            Array.from({ length: s.maxItems }, (_, i) => {
              const v = validValue(items, true, 1);
              return typeof v === 'number' ? v + i : typeof v === 'string' && s.uniqueItems ? `${v}${i}` : v;
            }),
          );
        }
        return [...out, ...lists];
      }
      default:
        return out;
    }
  }

  /** The body with one value at a time moved to an edge its schema allows, or an optional field left out. */
  function* edgeBodies(schema: Json, base: unknown, depth = 0): Generator<{ where: string; body: unknown }> {
    const { s } = resolveSchema(schema);
    if (s.type === 'object' && isObj(base) && depth < 3) {
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [k, prop] of Object.entries(isObj(s.properties) ? s.properties : {})) {
        const cur = k in base ? base[k] : validValue(prop as Json, true, depth + 1);
        for (const v of edgeBodies(prop as Json, cur, depth + 1)) yield { where: v.where ? `${k}.${v.where}` : k, body: { ...base, [k]: v.body } };
        if (!required.has(k) && k in base && Object.keys(base).length > Number(s.minProperties ?? 0)) {
          const { [k]: _left, ...rest } = base;
          yield { where: `${k} left out`, body: rest };
        }
      }
      return;
    }
    for (const v of edgeValues(schema)) yield { where: '', body: v };
  }

  it('takes every edge value its body schema allows past validation (no 422 naming a field the document allows that value for)', async () => {
    const { teacher, student, admin, guardian } = await everyRole();
    const findings: string[] = [];
    let checked = 0;
    for (const { path, method, op, schema } of jsonBodyOperations()) {
      const base = validValue(schema, true);
      const send = (caller: TestUser, payload: unknown) =>
        t.app.inject({ method: method.toUpperCase() as 'POST', url: concrete(path), headers: { ...caller.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      // the caller the operation is for: the first whose plain body is not refused for who they are
      let caller = teacher;
      for (const c of [teacher, student, admin, guardian]) {
        const res = await send(c, base);
        if (res.statusCode !== 401 && res.statusCode !== 403) {
          caller = c;
          break;
        }
      }
      const described = DESCRIBED[`${method.toUpperCase()} ${path}`];
      if (described) expect(String(op.description), path).toMatch(described.mentions);
      for (const edge of edgeBodies(schema, base)) {
        const where = edge.where;
        // each request its own new address: an address taken by the request before is a rule of the data, not of the schema
        const body: unknown = JSON.parse(JSON.stringify(edge.body).replace(/walk-[0-9a-z]+@example\.com/g, () => `walk-${(walkSeq++).toString(36)}@example.com`));
        const res = await send(caller, body);
        checked++;
        if (res.statusCode !== 422) continue;
        const errors = Object.keys((res.json() as { errors?: Json }).errors ?? {}).filter((f) => !described?.fields.includes(f));
        if (errors.length) findings.push(`${method.toUpperCase()} ${path} [${where}] as ${caller.role}: 422 ${errors.join(', ')} for ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(checked).toBeGreaterThan(250);
    expect(findings).toEqual([]);
  });

  it('takes every edge value the exercise form documents past validation (multipart, one field at a time)', async () => {
    const teacher = await t.teacher();
    const findings: string[] = [];
    let checked = 0;
    const op = (doc.paths as Record<string, Record<string, Json>>)['/api/exercises']!.post!;
    const form = ((op.requestBody as Json).content as Json)['multipart/form-data'] as Json;
    const { s } = resolveSchema(form.schema as Json);
    const props = s.properties as Record<string, Json>;
    for (const [name, prop] of Object.entries(props)) {
      if (name === 'media_files' || name === 'remove_media') continue; // files; removal is an update's
      const { s: ps } = resolveSchema(prop);
      const values: unknown[] = ps.type === 'array' ? [[], ...edgeValues(ps.items as Json).map((v) => [v])] : edgeValues(prop);
      for (const value of values) {
        if (value === null) continue;
        const fd = new FormData();
        if (name !== 'title') fd.append('title', 'Walk text');
        for (const v of Array.isArray(value) ? value : [value]) fd.append(name, String(v));
        const encoded = new Response(fd);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/exercises',
          payload: Buffer.from(await encoded.arrayBuffer()),
          headers: { ...teacher.headers, 'content-type': encoded.headers.get('content-type') ?? '' },
        });
        checked++;
        // a rule the field's description states with its 422 (another teacher's course, a grouping without its meter)
        const described = String(prop.description ?? '').includes(`otherwise 422 errors.${name}`);
        const named = Object.keys((res.json() as { errors?: Json }).errors ?? {});
        if (res.statusCode === 422 && !(described && named.every((f) => f === name || f.startsWith(`${name}.`)))) findings.push(`${name}=${JSON.stringify(value).slice(0, 80)}: 422 ${res.body.slice(0, 160)}`);
        else if (res.statusCode !== 201 && res.statusCode !== 422) findings.push(`${name}=${JSON.stringify(value).slice(0, 80)}: ${res.statusCode}`);
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(findings).toEqual([]);
  });

  it("documents the analysis PUT's own bounds of a track (hop, frames, bytes), not the decoder's wider ones", () => {
    const op = (doc.paths as Record<string, Record<string, Json>>)['/api/recordings/{id}/analysis']!.put!;
    const { s } = resolveSchema(((op.requestBody as Json).content as Record<string, Json>)['application/json']!.schema as Json);
    const track = (s.properties as Record<string, Json>).track!;
    const props = (resolveSchema(track).s.properties ?? {}) as Record<string, Json>;
    expect(props.hop_ms).toMatchObject({ minimum: ANALYSIS_LIMITS.minHopMs, maximum: ANALYSIS_LIMITS.maxHopMs });
    expect(props.frames).toMatchObject({ maximum: ANALYSIS_LIMITS.maxFrames });
    expect(props.data).toMatchObject({ maxLength: Math.ceil((ANALYSIS_LIMITS.maxTrackBytes * 4) / 3) + 4 });
  });

  it('documents the rule for a new password (at least 8 characters, not only spaces) wherever one is set', () => {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    const resolve = (x: Json): Json => (typeof x.$ref === 'string' ? (schemas[x.$ref.split('/').pop()!] ?? x) : x);
    const problems: string[] = [];
    let fields = 0;
    for (const [path, item] of operations()) {
      if (path === '/api/login') continue; // a sign-in takes any password and answers 401 for a wrong one
      for (const [method, op] of Object.entries(item)) {
        const body = isObj(op.requestBody) && isObj(op.requestBody.content) ? (op.requestBody.content['application/json'] as Json | undefined) : undefined;
        const schema = body && isObj(body.schema) ? resolve(body.schema) : undefined;
        const pw = schema && isObj(schema.properties) ? (schema.properties.password as Json | undefined) : undefined;
        if (!pw) continue;
        fields++;
        const s = Array.isArray(pw.anyOf) ? ((pw.anyOf as Json[]).find((x) => x.type === 'string') ?? pw) : pw;
        const re = new RegExp(String(s.pattern ?? '.*'));
        const allows = (v: string) => v.length >= Number(s.minLength ?? 0) && re.test(v);
        if (allows('abc')) problems.push(`${method} ${path}: allows 'abc'`);
        if (allows('x'.repeat(PASSWORD_MIN_LENGTH)) === false) problems.push(`${method} ${path}: refuses a valid password`);
        // where a password is required, one of spaces is refused (an update takes blank as 'keep')
        if (s.minLength !== undefined && allows(' '.repeat(PASSWORD_MIN_LENGTH))) problems.push(`${method} ${path}: allows a password of spaces`);
      }
    }
    expect(problems).toEqual([]);
    expect(fields).toBeGreaterThanOrEqual(3); // student create and update, invite accept
  });
});
