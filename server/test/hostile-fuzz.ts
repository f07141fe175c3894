import fc from 'fast-check';

/** Awkward texts: injections, traversal, format look-alikes, bidi and zero-width characters, huge and empty. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  "' or 1=1 --",
  '"; drop table users; --',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '%zz',
  '\u202eexe.png',
  '\u200b',
  '\ufeff',
  'İıŞşĞğÜüÖöÇç ß',
  'e\u0301',
  '\ud800',
  '\udfff\ud800',
  '🎵'.repeat(3000),
  'x'.repeat(100_000),
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '-0',
  '0',
  '0x10',
  '1e309',
  '9'.repeat(40),
  '2147483648',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '2026-02-30',
  '0000-01-01',
  '9999-12-31',
  '+275760-09-13',
  '2026-1-1',
  '1.5',
  ' 12',
  'de',
  'tr',
  'teacher',
  'student',
  'series',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => s.repeat(2000)) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e308, -1e308, 5e-324, 0.5, -0),
  fc.double({ noNaN: true }),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value: wrong types, nulls, nested arrays and objects with odd keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.integer(), { minLength: 300, maxLength: 1200 }) },
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'teacher_id', 'student_id', 'role', 'password_hash', 'user_id', 'deleted_at', 'created_at', 'completed_at', 'time_spent_minutes'),
  hostileString,
);

type Mutation = { op: 'replace' | 'delete' | 'extra' | 'nested'; key: string; value: unknown };

/** Mutations of a valid JSON object: replaced, missing and extra fields, or a different value altogether. */
export function hostileBody(base: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(base);
  const mutation: fc.Arbitrary<Mutation> = fc.record({
    op: fc.constantFrom('replace', 'replace', 'delete', 'extra', 'nested'),
    key: keys.length ? fc.oneof(fc.constantFrom(...keys), hostileKey) : hostileKey,
    value: hostileValue,
  });
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => applyMutations(base, ms)) },
    { weight: 1, arbitrary: hostileValue },
  );
}

function applyMutations(base: Record<string, unknown>, ms: Mutation[]): unknown {
  const body: Record<string, unknown> = structuredClone(base);
  for (const m of ms) {
    if (m.op === 'delete') delete body[m.key];
    else if (m.op === 'nested') {
      const inner = body[m.key];
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        const k = Object.keys(inner)[0] ?? 'x';
        body[m.key] = { ...(inner as Record<string, unknown>), [k]: m.value };
      } else if (Array.isArray(inner)) body[m.key] = [...inner, m.value];
      else body[m.key] = m.value;
    } else Object.defineProperty(body, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
  }
  return body;
}

/** Percent-encodes every byte of the UTF-8 form (works for lone surrogates, which encodeURIComponent refuses). */
export function encodeBytes(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A path segment: usually encoded, sometimes raw (malformed percent signs, dots, slashes). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map(encodeBytes) },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '%', '%zz', '%2e%2e', '..%2f..', '%00', '-1', '0', '1.5', '1e3', '0x1', '99999999999999999999', 'abc', '%E0%A4%A', '%C0%AE%C0%AE') },
);

export const QUERY_KEYS = ['course_id', 'student_id', 'status', 'from', 'to', 'start', 'end', 'page', 'per_page', 'language', 'scope', 'exp', 'sig', 'download', 'search', 'category', 'difficulty'];

/** Extra or replaced query parameters, encoded (and sometimes repeated). */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: hostileString }), hostileString), { minLength: 1, maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeBytes(k)}=${encodeBytes(v)}`).join('&'));
