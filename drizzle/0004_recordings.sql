CREATE TABLE "recording_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"recording_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"at_ms" integer,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_comments_at_check" CHECK ("recording_comments"."at_ms" is null or "recording_comments"."at_ms" >= 0),
	CONSTRAINT "recording_comments_text_check" CHECK (char_length("recording_comments"."text") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "recordings" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"kind" text NOT NULL,
	"mime_type" text NOT NULL,
	"path" text NOT NULL,
	"filename" text NOT NULL,
	"size" bigint NOT NULL,
	"duration_ms" integer NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	"seen_at" timestamp with time zone,
	"feedback_at" timestamp with time zone,
	CONSTRAINT "recordings_kind_check" CHECK ("recordings"."kind" in ('audio', 'video')),
	CONSTRAINT "recordings_numbers_check" CHECK ("recordings"."size" >= 0 and "recordings"."duration_ms" >= 0)
);
--> statement-breakpoint
ALTER TABLE "recording_comments" ADD CONSTRAINT "recording_comments_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD CONSTRAINT "recording_comments_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_comments_recording_idx" ON "recording_comments" USING btree ("recording_id","at_ms");--> statement-breakpoint
CREATE UNIQUE INDEX "recordings_path_key" ON "recordings" USING btree ("path");--> statement-breakpoint
CREATE INDEX "recordings_submission_idx" ON "recordings" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "recordings_student_idx" ON "recordings" USING btree ("student_id","created_at");--> statement-breakpoint
CREATE INDEX "recordings_inbox_idx" ON "recordings" USING btree ("teacher_id","created_at","id") WHERE "recordings"."answered_at" is null;--> statement-breakpoint
CREATE INDEX "recordings_created_idx" ON "recordings" USING btree ("created_at");