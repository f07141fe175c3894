// Loaded beside the app's script, run while that is still on its way (a phone's line needs about a
// second for it): the page's first date formatter loads ICU's data, 25-45 ms of a slow phone's CPU
// in one task that no screen with a date can do without. Done here, the app's start finds it
// loaded (docs/decisions/first-load-on-a-phone.md, "ICU while the script loads").
try {
  new Intl.DateTimeFormat('de', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(0);
  performance.mark('icu-warm');
} catch {
  // A browser without Intl's time zones: the app's start loads what it has.
}
