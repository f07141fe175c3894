import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exerciseMultipartDoc } from './exercises';
import { parseGrouping, parseMeter, strokeList, USUL_PATTERN_MAX } from './exercise-settings-limits';
import { STROKES } from './music-keys';

/**
 * The exercise form's document says, with a pattern per text field, exactly what the server's
 * parsers take: a value the pattern allows is kept (never a 422 for a documented value), and one
 * it refuses is refused. Checked on random texts made of the characters those fields consist of.
 */
type Props = Record<string, { pattern?: string }>;
const json = z.toJSONSchema(exerciseMultipartDoc, { io: 'input' }) as { properties?: Props; $defs?: Record<string, { properties: Props }> };
const props: Props = json.properties ?? json.$defs?.ExerciseForm?.properties ?? {};
const pattern = (name: string) => new RegExp(props[name]!.pattern!);
const blank = (v: string) => v.trim() === '';

const text = (alphabet: string[], maxLength: number) => fc.array(fc.constantFrom(...alphabet), { maxLength }).map((a) => a.join(''));

describe('the exercise form’s patterns against the parsers', () => {
  it('meter: the pattern allows exactly what parseMeter reads (blank: not set)', () => {
    const re = pattern('meter');
    fc.assert(
      fc.property(text(['0', '1', '2', '4', '6', '7', '8', '9', '/', ' ', '\t'], 9), (v) => {
        expect(re.test(v), JSON.stringify(v)).toBe(blank(v) || parseMeter(v) !== null);
      }),
      { numRuns: 3000 },
    );
    for (const v of ['7/8', ' 16 / 16 ', '04/04']) expect(re.test(v)).toBe(true);
    for (const v of ['0/4', '17/8', '4/3', '4/32']) expect(re.test(v)).toBe(false);
  });

  it('meter_grouping: the pattern allows exactly what parseGrouping reads (blank: not set)', () => {
    const re = pattern('meter_grouping');
    fc.assert(
      fc.property(text(['0', '1', '2', '3', '9', '+', ' '], 14), (v) => {
        expect(re.test(v), JSON.stringify(v)).toBe(blank(v) || parseGrouping(v) !== null);
      }),
      { numRuns: 3000 },
    );
    expect(re.test(Array(16).fill('1').join('+'))).toBe(true);
    expect(re.test(Array(17).fill('1').join('+'))).toBe(false);
  });

  it('usul_pattern: the pattern allows exactly the stroke lists the server keeps (1–64 strokes, blank: not set)', () => {
    const re = pattern('usul_pattern');
    const keeps = (v: string) => {
      const list = strokeList(v);
      return list === null || (Array.isArray(list) && list.length <= USUL_PATTERN_MAX && list.every((s) => (STROKES as readonly string[]).includes(String(s))));
    };
    const word = fc.constantFrom('dum', 'DÜM', 'düm', 'tek', 'TEK', 'rest', 'Rest', '-', '.', 'x', 'dumm', 'te');
    const sep = fc.constantFrom(' ', ',', ', ', '  ', '\t');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, sep), { maxLength: 70 }), (parts) => {
        const v = parts.map(([w, s]) => w + s).join('');
        expect(re.test(v), JSON.stringify(v)).toBe(keeps(v));
      }),
      { numRuns: 2000 },
    );
  });
});
