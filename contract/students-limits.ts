/**
 * The lengths of a student's fields (contract/students.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const STUDENT_NAME_MAX = 120;

export const EMAIL_MAX = 254;

export const PASSWORD_MAX = 200;

export const PHONE_MAX = 50;

export const NOTES_MAX = 2000;
