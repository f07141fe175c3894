import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, onTestFinished } from 'vitest';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;

const DOC_ID = 'uk-openapi';

/**
 * An OpenAPI 3.0 schema as JSON Schema for Ajv: `nullable` becomes a null branch, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` (draft 4 style) become numbers, and references to
 * components point into the document added under DOC_ID.
 */
export function openApiToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApiToJsonSchema);
  if (!isObj(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.startsWith('#/') ? `${DOC_ID}${v}` : v;
    else if (k === 'properties' && isObj(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, openApiToJsonSchema(s)]));
    else out[k] = openApiToJsonSchema(v);
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] && typeof out[bound] === 'number') out[flag] = out[bound];
      else delete out[flag];
      if (typeof out[flag] === 'number') delete out[bound];
    }
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string' && !('$ref' in out)) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/** Converts a documented path (`/api/courses/{id}`) from a Fastify route url (`/api/courses/:id`, `/api/media/*`). */
export function docPath(routeUrl: string): string {
  return routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  if (documented === actual || documented === '*/*') return true;
  return documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1));
}

export type OpenApiGuard = {
  /** Answers that broke the document and were not tied to a running test (a beforeAll); thrown by close(). */
  pending: string[];
  /** How many answers were checked (the guard's own test asserts it saw some). */
  checked: number;
};

/**
 * Test-only: checks every answer of the app against its OpenAPI document (`app.swagger()`), the
 * one clients are generated from. An answer fails when its route is in the document but its
 * status is not listed for that operation, when its content type is not one the status lists,
 * when a JSON body does not match the documented schema (Ajv with formats, components resolved),
 * or when a 204 carries a body. A failure fails the test that caused the answer (onTestFinished);
 * one caused outside a test is kept in `pending` for the file's close().
 *
 * Not checked: answers of routes the document hides on purpose (health, /api/docs), of unknown
 * URLs (the not-found handler), and bodies that are streams (media files, compressed streams):
 * for those, status and content type are still checked.
 */
export function installOpenApiGuard(app: FastifyInstance, opts: { report?: (message: string) => void } = {}): OpenApiGuard {
  const guard: OpenApiGuard = { pending: [], checked: 0 };
  let ajv: Ajv | undefined;
  let doc: Json | undefined;
  const validators = new Map<string, ValidateFunction>();

  function setup(): { ajv: Ajv; doc: Json } {
    if (!ajv || !doc) {
      doc = app.swagger() as unknown as Json;
      ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
      addFormats(ajv);
      ajv.addFormat('binary', true);
      const components = isObj(doc.components) ? doc.components : {};
      ajv.addSchema({ $id: DOC_ID, components: openApiToJsonSchema(components) });
    }
    return { ajv, doc };
  }

  function fail(message: string): void {
    if (opts.report) return opts.report(message);
    const name = expect.getState().currentTestName;
    const text = `OpenAPI guard: ${message}${name ? `\n  (in test: ${name})` : ''}`;
    try {
      onTestFinished(() => {
        throw new Error(text);
      });
    } catch {
      guard.pending.push(text);
    }
  }

  app.addHook('onSend', async (req, reply, payload) => {
    const routeUrl = req.routeOptions.url;
    const routeSchema = req.routeOptions.schema as { hide?: boolean } | undefined;
    if (!routeUrl || !routeUrl.startsWith('/api/') || routeSchema?.hide) return payload;
    // A path that belongs to another route (DELETE /api/recordings/inbox): the method table's 405, not this operation's answer.
    if (reply.statusCode === 405) return payload;
    const { ajv: v, doc: d } = setup();
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
    const path = docPath(routeUrl);
    const where = `${req.method} ${req.url.split('?')[0]} (${method.toUpperCase()} ${path}) → ${reply.statusCode}`;
    const op = (d.paths as Record<string, Record<string, Json>> | undefined)?.[path]?.[method];
    if (!op) {
      fail(`${where}: the route is not in the document`);
      return payload;
    }
    guard.checked++;
    const status = String(reply.statusCode);
    const response = (op.responses as Record<string, Json> | undefined)?.[status];
    if (!response) {
      fail(`${where}: status ${status} is not documented (documented: ${Object.keys((op.responses as Json) ?? {}).join(', ')})`);
      return payload;
    }
    const isStream = payload !== null && typeof payload === 'object' && typeof (payload as { pipe?: unknown }).pipe === 'function';
    if (status === '204') {
      if (response.content) fail(`${where}: a 204 is documented with content`);
      // the routes send null (their 204 schema is z.null(), serialised 'null'); Fastify writes no body for a 204
      if (payload !== undefined && payload !== null && payload !== '' && payload !== 'null') fail(`${where}: a 204 carries a body`);
      return payload;
    }
    const content = isObj(response.content) ? response.content : undefined;
    if (!content) {
      if (payload !== undefined && payload !== null && payload !== '') fail(`${where}: a body where the document says none`);
      return payload;
    }
    const type = String(reply.getHeader('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const documented = Object.keys(content).find((t) => mediaTypeMatches(t, type));
    if (!documented) {
      fail(`${where}: content type '${type}' is not documented (documented: ${Object.keys(content).join(', ')})`);
      return payload;
    }
    if (req.method === 'HEAD' || isStream || !documented.includes('json')) return payload;
    let text: string;
    try {
      const encoding = String(reply.getHeader('content-encoding') ?? '');
      const raw = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
      if (!raw) return payload;
      text = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
    } catch (e) {
      fail(`${where}: unreadable body (${String(e)})`);
      return payload;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      fail(`${where}: the body is not JSON: ${text.slice(0, 200)}`);
      return payload;
    }
    const key = `${method} ${path} ${status} ${documented}`;
    let validate = validators.get(key);
    if (!validate) {
      const schema = (content[documented] as Json | undefined)?.schema ?? {};
      validate = v.compile(openApiToJsonSchema(schema) as Json);
      validators.set(key, validate);
    }
    if (!validate(body)) {
      fail(`${where}: the body does not match the document: ${v.errorsText(validate.errors, { separator: '; ' })}\n  body: ${text.slice(0, 500)}`);
    }
    return payload;
  });
  return guard;
}
