import { z } from 'zod';
import { emailText, emailInput, requiredText } from './common';
import { studentMetricsSchema } from './metrics';
import { feedbackTargetSchema, recordingSchema } from './recordings';
import { inviteCreatedSchema, inviteSchema } from './school';
import { EMAIL_MAX, STUDENT_NAME_MAX } from './students';
import { submissionSchema, taskSeriesSchema } from './submissions';

// The limits without zod (the web app imports them from there).
export * from './guardians-limits';

/**
 * Parents who can follow (docs/decisions/schools-and-roles.md). A guardian account is
 * linked to one or more students of its school and reads, never writes: each child's tasks,
 * practice minutes, streak, the teacher's feedback and the recordings, nothing else.
 */

const id = z.number().int();
const email = emailInput(EMAIL_MAX);

/** A guardian of a student, for the student's teacher and the administrator. */
export const guardianSchema = z
  .object({ id, name: z.string(), email: emailText, created_at: z.string() })
  .meta({ id: 'Guardian' });
export type Guardian = z.infer<typeof guardianSchema>;

/** GET /api/students/{id}/guardians: the student's guardians and the open invitations naming the student. */
export const studentGuardiansResponse = z
  .object({ guardians: z.array(guardianSchema), invites: z.array(inviteSchema) })
  .meta({ id: 'StudentGuardians' });
export type StudentGuardiansResponse = z.infer<typeof studentGuardiansResponse>;

/**
 * POST /api/students/{id}/guardians: give a parent read-only access. When a guardian account of the
 * school has this e-mail already, the student is linked to it at once (`guardian`); otherwise an
 * invitation link is made (`invite`). An e-mail of another kind of account answers 409.
 */
export const guardianAddBody = z.object({ name: requiredText(STUDENT_NAME_MAX), email });
export type GuardianAddBody = z.infer<typeof guardianAddBody>;

export const guardianAddResponse = z
  .object({ guardian: guardianSchema.nullable(), invite: inviteCreatedSchema.nullable() })
  .meta({ id: 'GuardianAdded' });
export type GuardianAddResponse = z.infer<typeof guardianAddResponse>;

export const guardianLinkParams = z.object({
  id: z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,12}$/.test(v) ? Number(v) : v), z.number().int().positive().max(2147483647)),
  guardianId: z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,12}$/.test(v) ? Number(v) : v), z.number().int().positive().max(2147483647)),
});

/** One child in the guardian's overview. */
export const guardianChildSchema = z
  .object({
    id,
    name: z.string(),
    teacher: z.object({ name: z.string() }),
    current_streak: z.number().int(),
    weekly_practice_time_minutes: z.number(),
    open_submissions: z.number().int(),
    overdue_submissions: z.number().int(),
    /** Recordings answered or commented since the child last looked. */
    new_feedback: z.number().int(),
    /** Where the badge's link lands: the recording with the newest feedback, at its newest comment (null without new feedback). */
    new_feedback_latest: feedbackTargetSchema.nullable(),
  })
  .meta({ id: 'GuardianChild' });
export type GuardianChild = z.infer<typeof guardianChildSchema>;

/** GET /api/guardian/children: the guardian's children by name. */
export const guardianChildrenResponse = z.object({ data: z.array(guardianChildSchema) }).meta({ id: 'GuardianChildren' });
export type GuardianChildrenResponse = z.infer<typeof guardianChildrenResponse>;

/**
 * GET /api/guardian/children/{id}: one child. `submissions`: the tasks due from GUARDIAN_TASK_DAYS.back
 * days ago to GUARDIAN_TASK_DAYS.ahead days ahead, by due date (newest first), with the teacher's
 * feedback; `recordings`: the latest GUARDIAN_RECORDINGS_MAX with the teacher's comments. Another's
 * child answers 404.
 */
export const guardianChildDetailSchema = z
  .object({
    child: guardianChildSchema,
    metrics: studentMetricsSchema,
    submissions: z.array(submissionSchema),
    /** The child's series with an occurrence today or still to come (a repeating task once, with today's progress and streak). */
    series: z.array(taskSeriesSchema),
    recordings: z.array(recordingSchema),
  })
  .meta({ id: 'GuardianChildDetail' });
export type GuardianChildDetail = z.infer<typeof guardianChildDetailSchema>;
