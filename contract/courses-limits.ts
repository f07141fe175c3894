/**
 * The lengths of a course's fields (contract/courses.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const COURSE_NAME_MAX = 120;

export const COURSE_DESCRIPTION_MAX = 2000;
