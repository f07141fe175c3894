import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every key path of a nested translation object ('a.b.c'). */
function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

/** i18next plural forms differ by language (de: _one/_other, tr: _one/_other too); compare the base key. */
function base(key: string): string {
  return key.replace(/_(zero|one|two|few|many|other)$/, '');
}

const localesDir = fileURLToPath(new URL('../locales', import.meta.url));
const namespacesOf = (lang: string) =>
  readdirSync(join(localesDir, lang))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
const load = (lang: string, ns: string): unknown => JSON.parse(readFileSync(join(localesDir, lang, `${ns}.json`), 'utf8'));

describe('translations', () => {
  it('de and tr have the same namespace files', () => {
    expect(namespacesOf('tr')).toEqual(namespacesOf('de'));
  });

  for (const ns of namespacesOf('de')) {
    it(`namespace "${ns}": every key exists in de and tr, no empty texts`, () => {
      const de = load('de', ns);
      const tr = load('tr', ns);
      const deKeys = new Set(keys(de).map(base));
      const trKeys = new Set(keys(tr).map(base));
      expect([...deKeys].filter((k) => !trKeys.has(k)), `keys of de/${ns}.json missing in tr/${ns}.json`).toEqual([]);
      expect([...trKeys].filter((k) => !deKeys.has(k)), `keys of tr/${ns}.json missing in de/${ns}.json`).toEqual([]);
      const empty = (obj: unknown, lang: string) =>
        keys(obj)
          .filter((k) => {
            const v = k.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown>)?.[part], obj);
            return typeof v !== 'string' || v.trim() === '';
          })
          .map((k) => `${lang}:${k}`);
      expect([...empty(de, 'de'), ...empty(tr, 'tr')], 'empty or non-text values').toEqual([]);
    });
  }
});

describe('i18n module', () => {
  it('loads every namespace file and starts in German', async () => {
    const { default: i18n, namespaces, resources, LAZY_NAMESPACES } = await import('./i18n');
    expect(i18n.language).toBe('de');
    // every file: in the first load, or registered by its feature's chunk
    expect([...namespaces, ...LAZY_NAMESPACES].sort()).toEqual(namespacesOf('de'));
    expect(namespaces.filter((n) => (LAZY_NAMESPACES as readonly string[]).includes(n))).toEqual([]);
    expect(i18n.hasResourceBundle('de', 'school')).toBe(false);
    await import('@web/features/school/i18n');
    expect(i18n.t('school:accept.title')).toBe('Einladung');
    expect(Object.keys(resources).sort()).toEqual(['de', 'tr']);
    expect(i18n.t('auth:loginError')).toBe('Anmeldung fehlgeschlagen');
    await i18n.changeLanguage('tr');
    expect(i18n.t('auth:loginError')).toBe('Giriş başarısız');
    await i18n.changeLanguage('de');
  });
});
