import { z } from 'zod';
import { courseIdQuery, emailText, languageQuery, optionalText, type IssueMsg, emailInput, requiredText } from './common';
import { PASSWORD_MIN_LENGTH } from './constants';
import { PASSWORD_MAX, EMAIL_MAX, STUDENT_NAME_MAX, NOTES_MAX, PHONE_MAX } from './students-limits';

// The limits without zod (the web app imports them from there).
export * from './students-limits';

export const COURSE_IDS_MAX = 200;

export const studentSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: emailText,
    phone: z.string().nullable(),
    notes: z.string().nullable(),
    created_at: z.string(),
    courses: z.array(z.object({ id: z.number().int(), name: z.string() })),
  })
  .meta({ id: 'Student' });
export type Student = z.infer<typeof studentSchema>;

/** GET /api/students query. */
export const studentListQuery = z.strictObject({ language: languageQuery, course_id: courseIdQuery });
export type StudentListQuery = z.infer<typeof studentListQuery>;

/** GET /api/students answer: the teacher's students ordered by name. */
export const studentListResponse = z.object({ data: z.array(studentSchema) }).meta({ id: 'StudentList' });
export type StudentListResponse = z.infer<typeof studentListResponse>;

/** The password rule's texts (the schema's own, so the 422 reads as before). */
export const passwordMessages = {
  tooShort: { de: `Das Passwort muss mindestens ${PASSWORD_MIN_LENGTH} Zeichen lang sein.`, tr: `Şifre en az ${PASSWORD_MIN_LENGTH} karakter olmalıdır.` },
  required: { de: 'Bitte geben Sie ein Passwort ein.', tr: 'Lütfen bir şifre girin.' },
} satisfies Record<string, IssueMsg>;

/**
 * A new password: not blank and at least PASSWORD_MIN_LENGTH characters, at most PASSWORD_MAX.
 * The rule is the schema's (documented as minLength and a pattern), not only the service's: a
 * body the OpenAPI document allows is one the server takes (docs/decisions/0011-security-tests.md).
 */
export const newPasswordText = z
  .string()
  .min(1)
  .max(PASSWORD_MAX)
  .refine((v) => v === '' || v.trim() !== '', { message: passwordMessages.required.de, params: { msg: passwordMessages.required } })
  .refine((v) => v.trim() === '' || !passwordTooShort(v), { message: passwordMessages.tooShort.de, params: { msg: passwordMessages.tooShort } })
  .meta({ minLength: PASSWORD_MIN_LENGTH, pattern: '\\S', description: `at least ${PASSWORD_MIN_LENGTH} characters, not only spaces` });

const courseIds = z.array(z.number().int().positive().max(2147483647)).max(COURSE_IDS_MAX);

const email = emailInput(EMAIL_MAX);
const name = requiredText(STUDENT_NAME_MAX);

/**
 * POST /api/students. The password is required here, at least PASSWORD_MIN_LENGTH characters
 * (a readable message in errors.password).
 * `course_ids` (optional) enrols the new student in the same transaction.
 */
export const studentCreateBody = z.object({
  name,
  email,
  password: newPasswordText,
  phone: optionalText(PHONE_MAX),
  notes: optionalText(NOTES_MAX),
  course_ids: courseIds.optional(),
});
export type StudentCreateBody = z.input<typeof studentCreateBody>;

/**
 * PUT /api/students/{id}. A missing, null or blank password leaves it unchanged; a new one
 * (at least PASSWORD_MIN_LENGTH characters) signs the student out everywhere.
 * `course_ids`, when present, replaces the enrolments.
 */
export const studentUpdateBody = z.object({
  name,
  email,
  password: z
    .string()
    .max(PASSWORD_MAX)
    .refine((v) => v.trim() === '' || !passwordTooShort(v), { message: passwordMessages.tooShort.de, params: { msg: passwordMessages.tooShort } })
    .meta({
      pattern: `^(\\s*|[\\s\\S]{${PASSWORD_MIN_LENGTH},})$`,
      description: `blank keeps the current password; otherwise at least ${PASSWORD_MIN_LENGTH} characters`,
    })
    .nullable()
    .optional(),
  phone: optionalText(PHONE_MAX),
  notes: optionalText(NOTES_MAX),
  course_ids: courseIds.optional(),
});
export type StudentUpdateBody = z.input<typeof studentUpdateBody>;

/** PUT /api/students/{id}/courses: replaces the enrolments (only the teacher's own courses). */
export const studentCoursesBody = z.object({ course_ids: courseIds });
export type StudentCoursesBody = z.infer<typeof studentCoursesBody>;

/** The password rule of SPEC.md/CONTRACT.md: when given, at least PASSWORD_MIN_LENGTH characters. */
export function passwordTooShort(password: string): boolean {
  return password.length < PASSWORD_MIN_LENGTH;
}

/**
 * One student's practice at a glance, for the teacher's students list (GET /api/students/progress).
 * `last_practice_at`: start of the student's latest finished practice session (ISO 8601 UTC), null
 * if none. `week_minutes`: minutes of finished sessions started in the last 7 local days including
 * today (APP_TIMEZONE; the same window as `weekly_practice_time_minutes` of the metrics), two
 * decimals. `open_count` / `overdue_count`: tasks by the one status rule (section 4 of SPEC.md).
 */
export const studentProgressSchema = z
  .object({
    student_id: z.number().int(),
    last_practice_at: z.string().nullable(),
    week_minutes: z.number(),
    open_count: z.number().int(),
    overdue_count: z.number().int(),
  })
  .meta({ id: 'StudentProgress' });
export type StudentProgress = z.infer<typeof studentProgressSchema>;

/** GET /api/students/progress query: the same filter as the students list. */
export const studentProgressQuery = z.strictObject({ language: languageQuery, course_id: courseIdQuery });

/** GET /api/students/progress answer: one entry per student of the list (same order: by name). */
export const studentProgressResponse = z.object({ data: z.array(studentProgressSchema) }).meta({ id: 'StudentProgressList' });
export type StudentProgressResponse = z.infer<typeof studentProgressResponse>;
