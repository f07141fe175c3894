import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPETENCY_LEVELS } from '@contract/constants';

/**
 * The competency levels mean the same in both languages (web/locales/GLOSSARY.md). SPEC.md fixes the
 * German labels; the Turkish ones translate those words, not the level's English key: "Fortgeschritten"
 * (advanced) is "İleri", never "Orta" (intermediate).
 */
const LEVELS: Record<(typeof COMPETENCY_LEVELS)[number], { de: string; tr: string }> = {
  beginner: { de: 'Anfänger', tr: 'Başlangıç' },
  intermediate: { de: 'Fortgeschritten', tr: 'İleri' },
  advanced: { de: 'Experte', tr: 'Uzman' },
  expert: { de: 'Meister', tr: 'Usta' },
};

/** The exercises' difficulty uses the same words where it shares them ("Fortgeschritten"). */
const DIFFICULTY: Record<string, { de: string; tr: string }> = {
  leicht: { de: 'Leicht', tr: 'Kolay' },
  mittel: { de: 'Mittel', tr: 'Orta' },
  fortgeschritten: { de: 'Fortgeschritten', tr: 'İleri' },
};

const root = dirname(fileURLToPath(import.meta.url));
const read = (lang: string, ns: string) => JSON.parse(readFileSync(join(root, lang, `${ns}.json`), 'utf8')) as Record<string, unknown>;
const namespaces = readdirSync(join(root, 'de'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5));

/** Every `competency` / `difficulty` object of a namespace (top level or one level down), by path. */
function groups(value: Record<string, unknown>, name: string): Array<{ path: string; labels: Record<string, string> }> {
  const out: Array<{ path: string; labels: Record<string, string> }> = [];
  const visit = (v: unknown, path: string[]) => {
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (k === name && child && typeof child === 'object') out.push({ path: [...path, k].join('.'), labels: child as Record<string, string> });
      else visit(child, [...path, k]);
    }
  };
  visit(value, []);
  return out;
}

describe('competency levels and difficulties mean the same in de and tr', () => {
  const competency = namespaces.flatMap((ns) => groups(read('de', ns), 'competency').map((g) => ({ ns, ...g })));

  it('finds the level lists (tasks, progress, guardians)', () => {
    expect(competency.map((g) => g.ns).sort()).toEqual(expect.arrayContaining(['guardians', 'progress', 'tasks']));
  });

  it.each(competency.map((g) => [`${g.ns}:${g.path}`, g] as const))('%s maps 1:1 to the fixed table', (_, g) => {
    const tr = groups(read('tr', g.ns), 'competency').find((x) => x.path === g.path)?.labels ?? {};
    for (const level of COMPETENCY_LEVELS) {
      expect(g.labels[level], `de ${level}`).toBe(LEVELS[level].de);
      expect(tr[level], `tr ${level}`).toBe(LEVELS[level].tr);
    }
  });

  it('the table itself is one-to-one (no two levels share a word)', () => {
    expect(new Set(Object.values(LEVELS).map((l) => l.tr)).size).toBe(COMPETENCY_LEVELS.length);
    expect(new Set(Object.values(LEVELS).map((l) => l.de)).size).toBe(COMPETENCY_LEVELS.length);
  });

  it.each(['exercises', 'assignments'])('%s: the difficulties use the same words', (ns) => {
    const de = groups(read('de', ns), 'difficulty').filter((g) => 'mittel' in g.labels);
    expect(de.length).toBeGreaterThan(0);
    for (const g of de) {
      const tr = groups(read('tr', ns), 'difficulty').find((x) => x.path === g.path)?.labels ?? {};
      for (const [key, words] of Object.entries(DIFFICULTY)) {
        expect(g.labels[key], `de ${g.path}.${key}`).toBe(words.de);
        expect(tr[key], `tr ${g.path}.${key}`).toBe(words.tr);
      }
    }
  });
});
