import { z } from 'zod';
import { courseIdQuery, dateString, emailText, languageQuery } from './common';

// The limits without zod (the web app imports them from there).
export * from './dashboard-limits';

/** GET /api/dashboard (teacher): counts filtered by the selected course. */
export const dashboardQuery = z.strictObject({ language: languageQuery, course_id: courseIdQuery });

export const recentStudentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: emailText,
  created_at: z.string(),
});
export type RecentStudent = z.infer<typeof recentStudentSchema>;

export const teacherDashboardSchema = z
  .object({
    /** The teacher's students (enrolled in the course when one is selected). */
    students: z.number().int(),
    /** The teacher's courses (1 when a course is selected). */
    courses: z.number().int(),
    /** Live exercises (linked to the course when one is selected). */
    exercises: z.number().int(),
    /** Tasks of the teacher's students (of the course when one is selected). */
    submissions: z.number().int(),
    submission_status: z.object({
      open: z.number().int(),
      overdue: z.number().int(),
      expired: z.number().int(),
      completed: z.number().int(),
    }),
    /** The 8 most recently registered students. */
    recent_students: z.array(recentStudentSchema),
  })
  .meta({ id: 'TeacherDashboard' });
export type TeacherDashboard = z.infer<typeof teacherDashboardSchema>;

/** GET /api/dashboard/attention (teacher): the same filter as the counts. */
export const attentionQuery = dashboardQuery;

const day = dateString;
const instant = z.string().meta({ format: 'date-time' });

export const quietStudentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The school's date (APP_TIMEZONE) of the last practice session; null: never practised. */
  last_practice: day.nullable(),
  /** Days since the last practice session, or since registering when never practised. */
  days: z.number().int(),
});
export type QuietStudent = z.infer<typeof quietStudentSchema>;

export const overdueStudentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Overdue tasks: not done, past the due date, not expired. */
  overdue: z.number().int(),
  /** The due date of the oldest of them. */
  oldest_due: day,
});
export type OverdueStudent = z.infer<typeof overdueStudentSchema>;

export const waitingTakeSchema = z.object({
  /** The recording's id (open it in the review inbox: /review?take={id}). */
  id: z.number().int(),
  submission_id: z.number().int(),
  student: z.object({ id: z.number().int(), name: z.string() }),
  exercise_title: z.string(),
  created_at: instant,
  /** Whole school days since it was sent. */
  days: z.number().int(),
});
export type WaitingTake = z.infer<typeof waitingTakeSchema>;

export const teacherAttentionSchema = z
  .object({
    quiet_days: z.number().int(),
    overdue_min: z.number().int(),
    /** Students without practice for `quiet_days` days or more, longest first. */
    quiet: z.object({ total: z.number().int(), students: z.array(quietStudentSchema) }),
    /** Students with `overdue_min` overdue tasks or more, most first. */
    overdue: z.object({ total: z.number().int(), students: z.array(overdueStudentSchema) }),
    /** Unanswered takes, oldest first (the review inbox's order). */
    waiting: z.object({ total: z.number().int(), takes: z.array(waitingTakeSchema) }),
    /** The first steps of a new teacher, over all courses: has a course, a student, a live exercise, a task. */
    first_steps: z.object({ course: z.boolean(), student: z.boolean(), exercise: z.boolean(), assignment: z.boolean() }),
  })
  .meta({ id: 'TeacherAttention' });
export type TeacherAttention = z.infer<typeof teacherAttentionSchema>;
