import { z } from 'zod';
import { dateString, languageQuery, optionalText } from './common';
import { EXPIRY_DAYS, RECURRENCE_TYPES } from './constants';
import { submissionSchema } from './submissions';

export const TEACHER_NOTE_MAX = 2000;
/** At most this many students per assignment. */
export const ASSIGNEES_MAX = 500;
/** At most this many tasks per request (students × dates): a year of daily tasks for 50 students. */
export const ASSIGNMENT_ROWS_MAX = 20_000;

const id = z.number().int().positive().max(2147483647);
const emptyToNull = (v: unknown) => (v === '' ? null : v);

/**
 * POST /api/submissions: the assignment payload of SPEC.md section 3.
 * - `recurrence_type` missing or 'none': one task per student on `due_date`; `recurrence_end_date`
 *   is then ignored.
 * - Repeating: tasks on every date from `due_date` to `recurrence_end_date` inclusive (default end
 *   of SPEC.md section 9 when missing); the end may not lie before the due date nor more than one
 *   year after it.
 * - `expiration_days` (1–30): each task expires that many days after its own due date. Missing or
 *   null: the tasks never expire. The dialog pre-fills 2 (SPEC's 'Standard: 2 Tage').
 */
export const createAssignmentBody = z
  .object({
    exercise_id: id,
    due_date: dateString,
    course_id: z.preprocess(emptyToNull, id.nullable().optional()),
    teacher_note: optionalText(TEACHER_NOTE_MAX),
    assignees: z.object({ users: z.array(id).min(1).max(ASSIGNEES_MAX) }),
    recurrence_type: z.enum(RECURRENCE_TYPES).optional(),
    recurrence_end_date: z.preprocess(emptyToNull, dateString.nullable().optional()),
    expiration_days: z.preprocess(emptyToNull, z.number().int().min(EXPIRY_DAYS.min).max(EXPIRY_DAYS.max).nullable().optional()),
  })
  .meta({ id: 'AssignmentCreate' });
export type CreateAssignmentBody = z.input<typeof createAssignmentBody>;

export const createAssignmentQuery = z.strictObject({ language: languageQuery });

export const createAssignmentResponse = z.object({ submissions: z.array(submissionSchema) }).meta({ id: 'AssignmentCreated' });
export type CreateAssignmentResponse = z.infer<typeof createAssignmentResponse>;

/** DELETE /api/submissions/{id}: `scope=series` also removes the open tasks of its series from its date on. */
export const deleteSubmissionQuery = z.strictObject({
  language: languageQuery,
  scope: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['one', 'series']).optional()),
});
export type DeleteSubmissionQuery = z.infer<typeof deleteSubmissionQuery>;
