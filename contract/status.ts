import type { SubmissionStatus } from './constants';

export type StatusInput = {
  completed_at: string | Date | null | undefined;
  due_date: string;
  expiration_date?: string | null | undefined;
};

/**
 * SPEC.md section 4, checked in this order: completed, expired, overdue, open.
 * `today` is the calendar date (YYYY-MM-DD) in the school's time zone; dates compare as strings.
 */
export function deriveStatus(s: StatusInput, today: string): SubmissionStatus {
  if (s.completed_at) return 'completed';
  if (s.expiration_date && s.expiration_date < today) return 'expired';
  if (s.due_date < today) return 'overdue';
  return 'open';
}
