import { z } from 'zod';
import { optionalText, requiredText } from './common';
import { COURSE_DESCRIPTION_MAX, COURSE_NAME_MAX } from './courses-limits';

// The limits without zod (the web app imports them from there).
export * from './courses-limits';

export const courseSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    created_at: z.string(),
    students_count: z.number().int(),
  })
  .meta({ id: 'Course' });
export type Course = z.infer<typeof courseSchema>;

/** GET /api/courses: a teacher's own courses, or the courses a student is enrolled in, by name. */
export const courseListResponse = z.array(courseSchema);

/** POST /api/courses and PUT /api/courses/{id}. Name required; description optional (empty = none). */
export const courseBody = z.object({
  name: requiredText(COURSE_NAME_MAX),
  description: optionalText(COURSE_DESCRIPTION_MAX),
});
export type CourseBody = z.input<typeof courseBody>;
