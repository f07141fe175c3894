import i18n, { type BackendModule, type Resource } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { EVENTS } from '@contract/constants';
import { getStoredLanguage, setStoredLanguage } from './storage';

export const LANGUAGES = ['de', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

export const LANGUAGE_NAMES: Record<Language, { name: string; flag: string }> = {
  de: { name: 'Deutsch', flag: '🇩🇪' },
  tr: { name: 'Türkçe', flag: '🇹🇷' },
};

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

/**
 * Namespaces of screens that few users open (the school's administration, the parents' view): not
 * in the first load (DESIGN.md's 170 KB budget of /login), but registered by their feature's chunk
 * (`registerNamespace`, web/features/school/i18n.ts, web/features/guardians/i18n.ts), and the
 * exercise library's texts, which only a teacher's exercise screens use (web/features/exercises/i18n.ts), and
 * the listening reports' texts, which come with the report's chunk (web/features/listening/i18n.ts), and
 * the "Passwort vergessen?" pages' texts (web/features/password-reset/i18n.ts), and the reminders'
 * settings and unsubscribe page (web/features/reminders/i18n.ts), and the assignment dialog's
 * (web/features/assignments/i18n.ts), the messages' screens (web/features/messages/i18n.ts), and the
 * takes' and feedback's texts (web/features/recordings/i18n.ts).
 */
export const LAZY_NAMESPACES = ['school', 'guardians', 'exercises', 'listening', 'password', 'reminders', 'assignments', 'messages', 'recordings'] as const;

/**
 * The German texts (web/locales/de/<namespace>.json, found at build time: a new namespace is just a
 * new file) are part of the first load: German is the default and the fallback. The Turkish ones
 * come as one chunk of their own (web/lib/locales-tr.ts) when Turkish is chosen, so a German
 * first load does not carry them (docs/decisions/first-load-on-a-phone.md: the entry script of a phone).
 */
const files = import.meta.glob<Record<string, unknown>>(['../locales/de/*.json', '!../locales/de/school.json', '!../locales/de/guardians.json', '!../locales/de/exercises.json', '!../locales/de/listening.json', '!../locales/de/password.json', '!../locales/de/reminders.json', '!../locales/de/assignments.json', '!../locales/de/messages.json', '!../locales/de/recordings.json'], {
  eager: true,
  import: 'default',
});

export const resources: Resource = {};
for (const [path, content] of Object.entries(files)) {
  const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!m) continue;
  const [, lang, ns] = m as unknown as [string, string, string];
  (resources[lang] ??= {})[ns] = content;
}

/** The other languages' texts, one chunk per language: namespace → texts. */
const LAZY_LANGUAGES: Record<Exclude<Language, typeof DEFAULT_LANGUAGE>, () => Promise<{ default: Record<string, Record<string, unknown>> }>> = {
  tr: () => import('./locales-tr'),
};

/** i18next reads a language it does not have from its chunk (i18next waits for it in changeLanguage). */
const lazyLanguages: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = isLanguage(language) && language !== DEFAULT_LANGUAGE ? LAZY_LANGUAGES[language] : undefined;
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (m) => callback(null, m.default[namespace] ?? {}),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};
export const namespaces = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

/**
 * The starting language: a stored choice wins; otherwise the first of the browser's preferred
 * languages (navigator.languages, 'tr-TR' → tr) that the app has; German otherwise.
 */
export function detectLanguage(stored: unknown, preferred: readonly string[] | undefined): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of preferred ?? []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

function browserLanguages(): readonly string[] | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : undefined;
}

const initial: Language = detectLanguage(getStoredLanguage(), browserLanguages());

/** The web app manifest in the interface language (docs/decisions/offline-practice.md: the installed app's name). */
function linkManifest(lng: string) {
  if (typeof document === 'undefined') return;
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (link) link.href = lng === 'tr' ? '/manifest.tr.webmanifest' : '/manifest.webmanifest';
}

function announce(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  linkManifest(lng);
  if (typeof window !== 'undefined') {
    window.dispatchEvent(new CustomEvent(EVENTS.languageChanged, { detail: { language: lng } }));
  }
}

void i18n.use(lazyLanguages).use(initReactI18next).init({
  resources,
  partialBundledLanguages: true,
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  initAsync: false,
});
if (typeof document !== 'undefined') document.documentElement.lang = initial;

/**
 * A plain label (no count, context, values or default) is looked up once per language: i18next
 * resolves, interpolates and post-processes every call, and a screen asks for the same labels per
 * row and card (a third of a list's first render on a phone, docs/decisions/first-load-on-a-phone.md). The cache is emptied
 * whenever texts or the language change. Calls with any other option go to i18next as they are.
 */
const PLAIN_OPTIONS = new Set(['lng', 'lngs', 'ns', 'keyPrefix']);
const labels = new Map<string, unknown>();
const translate = i18n.t.bind(i18n) as unknown as (key: unknown, options?: unknown, ...rest: unknown[]) => unknown;
function labelKey(key: unknown, options: unknown, rest: unknown[]): string | null {
  if (typeof key !== 'string' || rest.length || (options !== undefined && (options === null || typeof options !== 'object'))) return null;
  const o = (options ?? {}) as Record<string, unknown>;
  for (const name in o) if (o[name] !== undefined && !PLAIN_OPTIONS.has(name)) return null;
  const ns = Array.isArray(o.ns) ? o.ns.join(',') : String(o.ns ?? '');
  const lng = String(o.lng ?? (Array.isArray(o.lngs) ? o.lngs.join(',') : i18n.language));
  return `${lng}\u0000${ns}\u0000${String(o.keyPrefix ?? '')}\u0000${key}`;
}
i18n.t = ((key: unknown, options?: unknown, ...rest: unknown[]) => {
  const id = labelKey(key, options, rest);
  if (id === null) return translate(key, options, ...rest);
  if (labels.has(id)) return labels.get(id);
  const text = translate(key, options);
  labels.set(id, text);
  return text;
}) as unknown as typeof i18n.t;
const forgetLabels = () => labels.clear();
i18n.on('languageChanged', forgetLabels);
i18n.on('loaded', forgetLabels);
i18n.store.on('added', forgetLabels);
i18n.store.on('removed', forgetLabels);

/** Resolves when the texts of the starting language are there (at once for German): the app renders after it. */
export const i18nReady: Promise<unknown> = initial === DEFAULT_LANGUAGE ? Promise.resolve() : i18n.loadLanguages(initial).catch(() => undefined);
linkManifest(initial);

i18n.on('languageChanged', (lng) => {
  if (!isLanguage(lng)) return;
  setStoredLanguage(lng);
  announce(lng);
});

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/**
 * The interface language for what a component formats while rendering (units, numbers): a value
 * the React Compiler sees change, unlike currentLanguage(), which it would read once and keep.
 */
export function useLanguage(): Language {
  const { i18n: instance } = useTranslation();
  return isLanguage(instance.language) ? instance.language : DEFAULT_LANGUAGE;
}

/** Switches the interface language: stored under `language`, <html lang> set, 'language-changed' dispatched. */
export async function setLanguage(lng: Language): Promise<void> {
  await i18n.changeLanguage(lng);
}

export default i18n;

/** Adds a lazily loaded namespace (LAZY_NAMESPACES) in both languages; called once by its feature's module. */
export function registerNamespace(ns: (typeof LAZY_NAMESPACES)[number], bundles: Record<Language, Record<string, unknown>>): void {
  for (const lng of LANGUAGES) if (!i18n.hasResourceBundle(lng, ns)) i18n.addResourceBundle(lng, ns, bundles[lng], true, true);
}
