import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type Serializer = (data: unknown) => string;

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);

/**
 * zod writes `x.nullable()` as `anyOf: [X, {type: 'null'}]`; fast-json-stringify would try each
 * branch with a validator for every value. A type list (`type: ['string', 'null']`) says the same
 * and is serialised by a plain type check.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) out[k] = simplify(v);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((b) => isDeepStrictEqual(b, { type: 'null' }));
    const other = anyOf[1 - nullIndex] as JsonSchema | undefined;
    if (nullIndex !== -1 && other && typeof other.type === 'string' && PRIMITIVES.has(other.type) && !('anyOf' in other) && !('oneOf' in other)) {
      const { anyOf: _drop, ...rest } = out;
      void _drop;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** The JSON Schema of a zod schema's output, in the form fast-json-stringify compiles. */
export function outputJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-07' }) as JsonSchema;
  delete json.$schema;
  // draft-07 names shared parts `definitions`; keep them where the $refs point.
  return simplify(json) as JsonSchema;
}

function resolveSchema(maybe: unknown): z.ZodType {
  if (maybe instanceof z.ZodType) return maybe;
  const props = (maybe as { properties?: unknown } | null)?.properties;
  if (props instanceof z.ZodType) return props;
  throw new Error(`response schema is not a zod schema: ${JSON.stringify(maybe)}`);
}

/**
 * Response serializer compiled once per route and status from the route's zod response schema,
 * on that route's first answer rather than at start: compiling all of them (zod → JSON Schema →
 * fast-json-stringify) was the largest part of the start's CPU time (docs/decisions/bench-results.md).
 * The serializer itself:
 * fast-json-stringify writes only the keys the schema names (a column added to a query never
 * leaks), ~6× faster than encoding each answer with zod and JSON.stringify (docs/decisions/
 * bench-results.md). With `check` (the API tests) every answer is also encoded by zod: an answer
 * that breaks its schema fails like before, and one the two serializers would write differently
 * fails too, so the fast path can never drift from the contract unnoticed.
 */
export function createFastSerializerCompiler(opts: { check: boolean }): FastifySerializerCompiler<unknown> {
  return ({ schema: maybe, method, url }) => {
    const schema = resolveSchema(maybe);
    let compiled: Serializer | undefined;
    const stringify: Serializer = (data) => (compiled ??= fastJson(outputJsonSchema(schema)) as Serializer)(data);
    if (!opts.check) return stringify;
    const checked: Serializer = (data) => {
      const encoded = z.safeEncode(schema, data);
      if (encoded.error) throw new ResponseSerializationError(method, url, { cause: encoded.error });
      const fast = stringify(data);
      if (!isDeepStrictEqual(JSON.parse(fast), JSON.parse(JSON.stringify(encoded.data)))) {
        throw new Error(`fast serializer differs from zod for ${method} ${url}:\n${fast.slice(0, 2000)}\n${JSON.stringify(encoded.data).slice(0, 2000)}`);
      }
      return fast;
    };
    return checked;
  };
}
