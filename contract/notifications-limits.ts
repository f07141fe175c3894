/**
 * When reminders may come (contract/notifications.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const TIME_OF_DAY_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Whether 'HH:MM' lies in the quiet stretch `from`–`to` (which may run past midnight). */
export function inQuietHours(time: string, from: string, to: string): boolean {
  if (from === to) return false;
  return from < to ? time >= from && time < to : time >= from || time < to;
}
