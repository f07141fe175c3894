-- A take recorded during a practice session ("Diesen Durchgang aufnehmen") names that session; the
-- upload checks it is of the same student and task. A deleted session leaves the take (set null).
ALTER TABLE "recordings" ADD COLUMN "practice_session_id" integer;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_practice_session_id_practice_sessions_id_fk" FOREIGN KEY ("practice_session_id") REFERENCES "public"."practice_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recordings_practice_session_idx" ON "recordings" USING btree ("practice_session_id");