-- The student's (student_id, due_date) index also carries the columns that decide a task's status
-- and its course, like the teacher's index in 0002: the counts of a student's task list
-- (GET /api/submissions/counts) and the choice of one page of it (order=work, limit, offset)
-- read only the index, not ~1,000 heap rows per student at school scale. Drizzle's schema cannot
-- express INCLUDE; the index keeps its name and key columns, so the schema and snapshot agree.
DROP INDEX IF EXISTS "submissions_student_due_idx";--> statement-breakpoint
CREATE INDEX "submissions_student_due_idx" ON "submissions" USING btree ("student_id","due_date") INCLUDE ("id","completed_at","expiration_date","course_id");
