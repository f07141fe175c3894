/**
 * Display formats of SPEC.md section 9. Calendar dates ('YYYY-MM-DD') are formatted from their parts,
 * never through a Date in the local zone, so they never shift by a day.
 */

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

type DateInput = string | Date | null | undefined;

/**
 * Intl formatters are costly to make (a calendar month formats hundreds of dates): one per locale,
 * options and time zone, made on first use and kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

function toDate(value: DateInput): { date: Date; calendar: boolean } | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : { date: value, calendar: false };
  const m = DATE_ONLY.exec(value);
  if (m) return { date: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))), calendar: true };
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : { date: d, calendar: false };
}

/** 'dd.mm.yyyy' (de-DE in every interface language, as SPEC.md says). Empty string for no date. */
export function formatDate(value: DateInput, timeZone?: string): string {
  const p = toDate(value);
  if (!p) return '';
  return dateTimeFormat('de-DE', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: p.calendar ? 'UTC' : timeZone,
  }).format(p.date);
}

/** 'dd.mm.yyyy, HH:MM' for timestamps. */
export function formatDateTime(value: DateInput, timeZone?: string): string {
  const p = toDate(value);
  if (!p) return '';
  return dateTimeFormat('de-DE', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: p.calendar ? 'UTC' : timeZone,
  }).format(p.date);
}

/** Long date with weekday: 'Montag, 23. November 2026' (de), '23 Kasım 2026 Pazartesi' (tr). */
export function formatLongDate(value: DateInput, language: string = 'de', timeZone?: string): string {
  const p = toDate(value);
  if (!p) return '';
  return dateTimeFormat(language === 'tr' ? 'tr-TR' : 'de-DE', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: p.calendar ? 'UTC' : timeZone,
  }).format(p.date);
}

/** The interface languages whose units differ (SPEC.md section 9 gives the German ones). */
export type UnitLanguage = 'de' | 'tr';

/**
 * Units per language: German as SPEC.md fixes them ('min', 'h', 's', 'Bytes'); Turkish abbreviations
 * ('dk' dakika, 'sa' saat, 'sn' saniye, 'bayt'). See web/locales/GLOSSARY.md.
 */
export const UNITS: Record<UnitLanguage, { minutes: string; hours: string; seconds: string; bytes: string }> = {
  de: { minutes: 'min', hours: 'h', seconds: 's', bytes: 'Bytes' },
  tr: { minutes: 'dk', hours: 'sa', seconds: 'sn', bytes: 'bayt' },
};

/**
 * The unit formatters take the language as an argument, never from a global: a component passes
 * `useLanguage()` (web/lib/i18n.ts), so that the React Compiler, which memoises what a render
 * computes by its inputs, formats again when the language changes.
 */
const unitsOf = (language: string) => UNITS[language === 'tr' ? 'tr' : 'de'];

/** Practice time: under 60 minutes 'N min' (rounded), otherwise 'h:mm h' (tr: 'N dk', 'h:mm sa'). */
export function formatPracticeTime(minutes: number | null | undefined, language: string): string {
  const u = unitsOf(language);
  const total = Math.max(0, Math.round(Number(minutes) || 0));
  if (total < 60) return `${total} ${u.minutes}`;
  const h = Math.floor(total / 60);
  const m = total % 60;
  return `${h}:${String(m).padStart(2, '0')} ${u.hours}`;
}

/** A duration in minutes: under 1 minute as seconds ('45 s', tr '45 sn'), otherwise as practice time. */
export function formatDuration(minutes: number | null | undefined, language: string): string {
  const value = Math.max(0, Number(minutes) || 0);
  if (value < 1) return `${Math.round(value * 60)} ${unitsOf(language).seconds}`;
  return formatPracticeTime(value, language);
}

/** Timer display mm:ss (minutes keep counting past 59). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const SIZE_UNITS = ['', 'KB', 'MB', 'GB'] as const;
const sizeNumber = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2, useGrouping: false });

/** File size, base 1024, up to two decimals: '0 Bytes', '1,5 KB', '20 MB' (tr: '0 bayt', '1,5 KB'). */
export function formatFileSize(bytes: number | null | undefined, language: string): string {
  const b = Math.max(0, Number(bytes) || 0);
  const byteUnit = unitsOf(language).bytes;
  if (b === 0) return `0 ${byteUnit}`;
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(b) / Math.log(1024)));
  return `${sizeNumber.format(b / 1024 ** i)} ${SIZE_UNITS[i] || byteUnit}`;
}

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A rounded percent of 0–100 in the language's own format (Intl, style 'percent'): German '86 %'
 * (with a no-break space), Turkish '%86'; '–' when there is no value. The one place that writes a
 * percent sign for the interface (web/locales/GLOSSARY.md): texts take the formatted value.
 */
export function formatPercent(value: number | null | undefined, language: string): string {
  if (value === null || value === undefined || Number.isNaN(Number(value))) return '–';
  const locale = language === 'tr' ? 'tr-TR' : 'de-DE';
  let f = percentFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    percentFormats.set(locale, f);
  }
  return f.format(Math.round(Number(value)) / 100);
}

/** Initials: first letter of each word, upper case; 'U' when there is no name. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'U';
  return words.map((w) => w[0]!.toLocaleUpperCase('de-DE')).join('');
}
