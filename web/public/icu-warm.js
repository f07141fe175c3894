// A worker started by /warm-up.js: the page's first date, number or plural formatter loads ICU's
// data and tables, 40-100 ms of a phone's CPU in one call that no screen can split. Loaded here, on
// a thread of its own, it lands in the browser's process-wide caches, and the page's own first
// formatter takes a millisecond (docs/decisions/first-load-on-a-phone.md, "ICU off the main thread").
// What the app makes first: dates as de-DE in both languages (web/lib/format.ts), numbers, plurals
// (i18next) and name order (web/lib/collator.ts) in each interface language.
try {
  var day = { year: 'numeric', month: '2-digit', day: '2-digit' };
  new Intl.DateTimeFormat('de-DE', day).format(0);
  new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit' }).format(0);
  new Intl.DateTimeFormat('de-DE', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(0);
  ['de', 'tr'].forEach(function (l) {
    new Intl.DateTimeFormat(l, { day: 'numeric', month: 'long' }).format(0);
    new Intl.NumberFormat(l).format(1.5);
    new Intl.PluralRules(l).select(1);
    new Intl.Collator(l, { sensitivity: 'base' }).compare('a', 'b');
    new Intl.RelativeTimeFormat(l).format(1, 'day');
  });
} catch {
  // A browser without part of Intl: the page loads what it has itself.
}
close();
