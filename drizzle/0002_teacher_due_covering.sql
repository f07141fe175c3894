-- The teacher's (teacher_id, due_date) index also carries the columns that decide a task's status
-- and its course, so the dashboard's counts over all of a teacher's tasks are an index-only scan
-- (measured at school scale, 100k tasks of one teacher: 48-61 ms -> 19-22 ms) without adding a
-- ninth index to the table the bulk assignment writes. Drizzle's schema cannot express INCLUDE;
-- the index keeps its name and key columns, so the schema and its snapshot stay as they are.
DROP INDEX IF EXISTS "submissions_teacher_due_idx";--> statement-breakpoint
CREATE INDEX "submissions_teacher_due_idx" ON "submissions" USING btree ("teacher_id","due_date") INCLUDE ("completed_at","expiration_date","course_id");
