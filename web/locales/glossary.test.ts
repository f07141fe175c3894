import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** web/locales/GLOSSARY.md: the Turkish files use one term per concept, Turkish quotes and Turkish units. */
const dir = join(dirname(fileURLToPath(import.meta.url)), 'tr');

/** Words that name a concept the glossary names differently (checked as word beginnings, any case). */
const BANNED: Array<{ pattern: RegExp; use: string }> = [
  { pattern: /(^|[^\p{L}])görev/iu, use: 'ödev (task)' },
  { pattern: /(^|[^\p{L}])egzersiz/iu, use: 'alıştırma (exercise)' },
  { pattern: /(^|[^\p{L}])pratik/iu, use: 'çalışma (practice)' },
  { pattern: /(^|[^\p{L}])hoca/iu, use: 'öğretmen (teacher)' },
  { pattern: /„/u, use: 'Turkish quotes “…”' },
  { pattern: /(^|[^\p{L}])Bytes?([^\p{L}]|$)/u, use: 'bayt' },
  { pattern: /\d(\s|\}\})(min|h|s)([^\p{L}]|$)/u, use: 'dk / sa / sn' },
];

function strings(value: unknown, path: string[] = []): Array<{ key: string; text: string }> {
  if (typeof value === 'string') return [{ key: path.join('.'), text: value }];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, [...path, k]));
  return [];
}

const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('Turkish glossary', () => {
  it('finds the Turkish locale files', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files)('%s uses only the glossary terms, Turkish quotes and units', (file) => {
    const texts = strings(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    const problems = texts.flatMap(({ key, text }) =>
      BANNED.filter((b) => b.pattern.test(text)).map((b) => `${file} ${key}: "${text}" – use ${b.use}`),
    );
    expect(problems).toEqual([]);
  });

  it('catches a banned synonym and German quotes (the check itself works)', () => {
    const hit = (text: string) => BANNED.some((b) => b.pattern.test(text));
    expect(hit('Yeni görevler')).toBe(true);
    expect(hit('Egzersizler')).toBe(true);
    expect(hit('„Tüm kurslar“ı seçin')).toBe(true);
    expect(hit('{{count}} Bytes')).toBe(true);
    expect(hit('5 min')).toBe(true);
    expect(hit('Yeni ödevler ve alıştırmalar, “Tüm kurslar”ı seçin, 5 dk')).toBe(false);
  });
});
