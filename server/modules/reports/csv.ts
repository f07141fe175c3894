/**
 * CSV for spreadsheets (RFC 4180 with what Excel needs in Germany and Turkey): fields separated by
 * ';' (both locales use the decimal comma, so Excel splits on ';'), CRLF line ends, UTF-8 with a
 * byte-order mark (without it Excel reads ä, ş, ğ as two characters each).
 */
export const CSV_SEPARATOR = ';';
export const UTF8_BOM = '\uFEFF';

/**
 * Cells Excel or LibreOffice would run as a formula (or DDE) start with one of these: = + - @, a
 * tab or a carriage return, and the full-width forms ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20),
 * which spreadsheets in East Asian locales turn into the ASCII ones on input.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * One text cell: a leading formula character gets a "'" in front (OWASP's CSV injection guard: the
 * sheet shows the text, never runs it); a cell with the separator, a quote or a line break is
 * quoted, its quotes doubled.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  if (/[;",\r\n]/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** A number with a decimal comma and at most `digits` decimals (15,5 · 0 · 7,25); empty for null. */
export function csvNumber(value: number | null, digits = 2): string {
  if (value === null || !Number.isFinite(value)) return '';
  const rounded = Number(value.toFixed(digits));
  return String(rounded).replace('.', ',');
}

/** The whole file: BOM, then each row's cells joined by the separator, rows ended by CRLF. */
export function csvFile(rows: string[][]): string {
  return UTF8_BOM + rows.map((r) => `${r.join(CSV_SEPARATOR)}\r\n`).join('');
}
