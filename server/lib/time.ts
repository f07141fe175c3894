// One formatter per time zone: building an Intl.DateTimeFormat costs ~0.1 ms, and "today" is
// asked on almost every request (8 % of the server's CPU on the task detail, found by the bench).
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function dateInZone(instant: Date, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA formats as YYYY-MM-DD; an unknown zone throws here, before anything is cached
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(instant);
}

/** "Today" for the school: the calendar date in APP_TIMEZONE. */
export function todayInZone(timeZone: string, now: Date = new Date()): string {
  return dateInZone(now, timeZone);
}
