import { describe, expect, it, vi } from 'vitest';
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

describe('labels looked up once per language', () => {
  it('a plain label asks i18next once; values, counts and new texts are not served stale', async () => {
    const { default: i18n } = await import('./i18n');
    const { translator } = i18n as unknown as { translator: { translate: (...args: unknown[]) => unknown } };
    const calls = vi.spyOn(translator, 'translate');
    const t = i18n.getFixedT('de', 'common');
    expect(t('actions.delete')).toBe('Löschen');
    expect(t('actions.delete')).toBe('Löschen');
    expect(calls).toHaveBeenCalledTimes(1);

    // Values are interpolated on every call.
    expect(i18n.t('students:count', { shown: 1, total: 2 })).toBe('1 von 2');
    expect(i18n.t('students:count', { shown: 3, total: 4 })).toBe('3 von 4');

    // Another language, and texts added or replaced later.
    await i18n.changeLanguage('tr');
    expect(i18n.t('common:actions.delete')).toBe('Sil');
    await i18n.changeLanguage('de');
    expect(i18n.t('common:actions.delete')).toBe('Löschen');
    i18n.addResourceBundle('de', 'probe', { label: 'eins' });
    expect(i18n.t('probe:label')).toBe('eins');
    i18n.addResourceBundle('de', 'probe', { label: 'zwei' }, true, true);
    expect(i18n.t('probe:label')).toBe('zwei');
    calls.mockRestore();
  });
});

describe('the starting language', () => {
  it('a Turkish browser starts in Turkish, any other in German; a stored choice wins', async () => {
    const { detectLanguage } = await import('./i18n');
    expect(detectLanguage(null, ['tr-TR', 'tr', 'en-US'])).toBe('tr');
    expect(detectLanguage(null, ['TR'])).toBe('tr');
    expect(detectLanguage(null, ['en-US', 'tr'])).toBe('tr');
    expect(detectLanguage(null, ['de-AT', 'tr-TR'])).toBe('de');
    expect(detectLanguage(null, ['en-US', 'fr'])).toBe('de');
    expect(detectLanguage(null, [])).toBe('de');
    expect(detectLanguage(null, undefined)).toBe('de');
    expect(detectLanguage('de', ['tr-TR'])).toBe('de');
    expect(detectLanguage('tr', ['de-DE'])).toBe('tr');
    expect(detectLanguage('xx', ['tr-TR'])).toBe('tr');
  });
});
