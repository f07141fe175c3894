-- The teacher's 'needs attention' card (docs/decisions/teacher-day-actions.md) counts overdue tasks
-- per student along submissions_teacher_due_idx: its INCLUDE also carries student_id, so the count
-- stays an index-only scan instead of a heap visit per overdue task, and the table the bulk
-- assignment writes gets no further index. The last practice of each student is one backward probe
-- of practice_sessions_student_started_idx, which now carries school_id, the statement's tenant
-- filter. Drizzle's schema cannot express INCLUDE; the indexes keep their names and key columns, so
-- the schema and its snapshot stay as they are (as 0002, 0003 and 0010).
DROP INDEX IF EXISTS "submissions_teacher_due_idx";--> statement-breakpoint
CREATE INDEX "submissions_teacher_due_idx" ON "submissions" USING btree ("teacher_id","due_date") INCLUDE ("id","completed_at","expiration_date","course_id","school_id","student_id");--> statement-breakpoint
DROP INDEX IF EXISTS "practice_sessions_student_started_idx";--> statement-breakpoint
CREATE INDEX "practice_sessions_student_started_idx" ON "practice_sessions" USING btree ("student_id","started_at") INCLUDE ("school_id");
