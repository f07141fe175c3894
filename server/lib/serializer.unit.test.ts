import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calendarResponse } from '@contract/calendar';
import { createFastSerializerCompiler, outputJsonSchema } from './serializer';

const compile = (schema: z.ZodType, check: boolean) =>
  createFastSerializerCompiler({ check })({ schema, method: 'GET', url: '/x', httpStatus: '200' });

const event = {
  id: 1,
  title: 'Ayşe – Lange Töne',
  start: '2026-11-22',
  completed: false,
  status: 'open' as const,
  backgroundColor: '#F59E0B',
  borderColor: '#F59E0B',
  submission_id: 1,
  student_id: 2,
  student_name: 'Ayşe "Yılmaz"\n</script>',
};

describe('fast response serializer', () => {
  it('writes what zod writes for a real response schema, nulls and escapes included', () => {
    const fast = compile(calendarResponse, false)([event, { ...event, id: 2, completed: true, status: 'completed' }]);
    expect(JSON.parse(fast)).toEqual(z.encode(calendarResponse, [event, { ...event, id: 2, completed: true, status: 'completed' }]));
  });

  it('drops keys the schema does not name (a password hash never leaks)', () => {
    const schema = z.object({ id: z.number(), name: z.string() });
    const out = JSON.parse(compile(schema, false)({ id: 1, name: 'A', password_hash: 'secret' }));
    expect(out).toEqual({ id: 1, name: 'A' });
  });

  it('writes nulls of nullable fields', () => {
    const schema = z.array(z.object({ id: z.number(), due: z.string().nullable() }));
    expect(compile(schema, false)([{ id: 1, due: null }, { id: 2, due: '2026-11-24' }])).toBe('[{"id":1,"due":null},{"id":2,"due":"2026-11-24"}]');
  });

  it('turns nullable primitives and objects into type lists instead of anyOf', () => {
    const json = outputJsonSchema(z.object({ a: z.string().nullable(), b: z.object({ x: z.number() }).nullable() }));
    const props = json.properties as Record<string, { type: unknown; anyOf?: unknown }>;
    expect(props.a?.type).toEqual(['string', 'null']);
    expect(props.b?.type).toEqual(['object', 'null']);
    expect(props.b?.anyOf).toBeUndefined();
    const stringify = compile(z.object({ a: z.string().nullable(), b: z.object({ x: z.number() }).nullable() }), false);
    expect(JSON.parse(stringify({ a: null, b: null }))).toEqual({ a: null, b: null });
    expect(JSON.parse(stringify({ a: 'x', b: { x: 1, y: 2 } }))).toEqual({ a: 'x', b: { x: 1 } });
  });

  it('in check mode refuses an answer that breaks its schema, and one the fast path would write differently', () => {
    const schema = z.object({ n: z.number().int() });
    expect(() => compile(schema, true)({ n: 'drei' })).toThrow();
    // fast-json-stringify would coerce the string '3' to 3; zod refuses it: check mode catches that.
    expect(() => compile(z.object({ n: z.union([z.number(), z.string()]) }), true)({ n: '3' })).not.toThrow();
    expect(() => compile(schema, true)({ n: '3' })).toThrow();
    expect(compile(schema, true)({ n: 3 })).toBe('{"n":3}');
  });
});
