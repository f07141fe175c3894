/**
 * A strict reader of RFC 5545 text for the tests: CRLF line ends only, lines of at most 75 octets,
 * folded lines unfolded, components properly nested (VCALENDAR around VEVENTs), the required
 * properties present, text values unescaped. Throws on anything else.
 */
export type IcsEvent = { props: Map<string, { params: string; value: string }> };
export type Ics = { calendar: Map<string, string>; events: IcsEvent[] };

const unescapeText = (v: string) => v.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

export function parseIcs(text: string): Ics {
  if (/\r(?!\n)|(?<!\r)\n/.test(text)) throw new Error('a line does not end with CRLF');
  const physical = text.replace(/\r\n$/, '').split('\r\n');
  for (const l of physical) if (Buffer.byteLength(l, 'utf8') > 75) throw new Error(`line longer than 75 octets: ${l}`);
  const lines: string[] = [];
  for (const l of physical) {
    if (l.startsWith(' ') || l.startsWith('\t')) {
      if (!lines.length) throw new Error('a folded line at the start');
      lines[lines.length - 1] += l.slice(1);
    } else lines.push(l);
  }
  if (lines[0] !== 'BEGIN:VCALENDAR' || lines.at(-1) !== 'END:VCALENDAR') throw new Error('not one VCALENDAR');
  const calendar = new Map<string, string>();
  const events: IcsEvent[] = [];
  let current: IcsEvent | null = null;
  for (const line of lines.slice(1, -1)) {
    const m = /^([A-Z0-9-]+)((?:;[^:]*)?):(.*)$/.exec(line);
    if (!m) throw new Error(`not a content line: ${line}`);
    const [, name, params, value] = m as unknown as [string, string, string, string];
    if (name === 'BEGIN') {
      if (value !== 'VEVENT' || current) throw new Error(`unexpected BEGIN:${value}`);
      current = { props: new Map() };
    } else if (name === 'END') {
      if (value !== 'VEVENT' || !current) throw new Error(`unexpected END:${value}`);
      for (const req of ['UID', 'DTSTAMP', 'DTSTART']) if (!current.props.has(req)) throw new Error(`VEVENT without ${req}`);
      events.push(current);
      current = null;
    } else if (current) {
      current.props.set(name, { params, value: unescapeText(value) });
    } else calendar.set(name, value);
  }
  if (current) throw new Error('VEVENT not closed');
  if (calendar.get('VERSION') !== '2.0' || !calendar.get('PRODID')) throw new Error('VERSION 2.0 and PRODID are required');
  return { calendar, events };
}

/** The date of an all-day DTSTART/DTEND (`;VALUE=DATE:YYYYMMDD`) as YYYY-MM-DD; throws for any other form. */
export function allDayDate(e: IcsEvent, prop: 'DTSTART' | 'DTEND'): string {
  const p = e.props.get(prop);
  if (!p || p.params !== ';VALUE=DATE' || !/^\d{8}$/.test(p.value)) throw new Error(`${prop} is not an all-day date: ${JSON.stringify(p)}`);
  return `${p.value.slice(0, 4)}-${p.value.slice(4, 6)}-${p.value.slice(6, 8)}`;
}
