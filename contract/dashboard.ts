import { z } from 'zod';
import { courseIdQuery, emailText, languageQuery } from './common';

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
