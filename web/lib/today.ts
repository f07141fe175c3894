/** One formatter per time zone: building one costs more than formatting (a screen asks for today per row). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date (YYYY-MM-DD) in the browser's time zone, or in `timeZone`. */
export function localToday(now: Date = new Date(), timeZone?: string): string {
  const key = timeZone ?? '';
  let format = dayFormats.get(key);
  if (!format) dayFormats.set(key, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(now);
}
