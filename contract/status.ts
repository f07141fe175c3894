import type { SubmissionStatus } from './constants';
import { compareDates } from './recurrence';

export type StatusInput = {
  completed_at: string | Date | null | undefined;
  due_date: string;
  expiration_date?: string | null | undefined;
};

/**
 * SPEC.md section 4, checked in this order: completed, expired, overdue, open.
 * `today` is the calendar date (YYYY-MM-DD) in the school's time zone. Dates compare as dates
 * (compareDates), like the SQL of the lists (`s.expiration_date < today::date`), never as text.
 */
export function deriveStatus(s: StatusInput, today: string): SubmissionStatus {
  if (s.completed_at) return 'completed';
  if (s.expiration_date && compareDates(s.expiration_date, today) < 0) return 'expired';
  if (compareDates(s.due_date, today) < 0) return 'overdue';
  return 'open';
}
