CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"actor_id" integer,
	"actor_name" text NOT NULL,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" integer,
	"target_name" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guardian_links" (
	"school_id" integer NOT NULL,
	"guardian_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guardian_links_guardian_id_student_id_pk" PRIMARY KEY("guardian_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"student_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_user_id" integer,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invites_kind_check" CHECK ("invites"."kind" in ('teacher', 'guardian'))
);
--> statement-breakpoint
CREATE TABLE "schools" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role_check";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_student_has_teacher";--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "enrolments" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "exercise_courses" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "media_files" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "practice_sessions" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
-- Issue 19: the data of the previous version becomes one school (nothing else changes).
INSERT INTO "schools" ("name") SELECT 'Musikschule' WHERE EXISTS (SELECT 1 FROM "users");--> statement-breakpoint
UPDATE "calendar_feeds" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "courses" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "enrolments" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "exercise_courses" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "exercises" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "media_files" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "practice_sessions" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "recording_comments" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "recordings" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "submissions" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
UPDATE "users" SET "school_id" = (SELECT min("id") FROM "schools");--> statement-breakpoint
ALTER TABLE "calendar_feeds" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "enrolments" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "exercise_courses" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "exercises" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "media_files" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_sessions" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "recording_comments" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "recordings" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "school_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_guardian_id_users_id_fk" FOREIGN KEY ("guardian_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_accepted_user_id_users_id_fk" FOREIGN KEY ("accepted_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_school_created_idx" ON "audit_log" USING btree ("school_id","created_at","id");--> statement-breakpoint
CREATE INDEX "guardian_links_student_idx" ON "guardian_links" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invites_token_hash_key" ON "invites" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invites_school_created_idx" ON "invites" USING btree ("school_id","created_at");--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_courses" ADD CONSTRAINT "exercise_courses_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercises" ADD CONSTRAINT "exercises_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_sessions" ADD CONSTRAINT "practice_sessions_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD CONSTRAINT "recording_comments_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "practice_sessions_school_started_idx" ON "practice_sessions" USING btree ("school_id","started_at");--> statement-breakpoint
CREATE INDEX "submissions_school_completed_idx" ON "submissions" USING btree ("school_id","completed_at");--> statement-breakpoint
CREATE INDEX "users_school_role_name_idx" ON "users" USING btree ("school_id","role","name");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('admin', 'teacher', 'student', 'guardian'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_student_has_teacher" CHECK (("users"."role" = 'student') = ("users"."teacher_id" is not null));;--> statement-breakpoint
-- A row's school is its parent's: an insert that leaves school_id out gets it (TG_ARGV: parent table,
-- the row's column naming the parent); one that names another school than the parent's is refused.
CREATE OR REPLACE FUNCTION uk_fill_school_id() RETURNS trigger AS $$
DECLARE
  parent_id integer;
  parent_school integer;
BEGIN
  parent_id := (to_jsonb(NEW) ->> TG_ARGV[1])::integer;
  IF parent_id IS NULL THEN
    RETURN NEW;
  END IF;
  EXECUTE format('SELECT school_id FROM %I WHERE id = $1', TG_ARGV[0]) INTO parent_school USING parent_id;
  IF parent_school IS NULL THEN
    RETURN NEW;
  END IF;
  IF NEW.school_id IS NULL THEN
    NEW.school_id := parent_school;
  ELSIF NEW.school_id <> parent_school THEN
    RAISE EXCEPTION 'school_id % of % differs from its parent''s school %', NEW.school_id, TG_TABLE_NAME, parent_school USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_school BEFORE INSERT OR UPDATE OF teacher_id, school_id ON users FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'teacher_id');--> statement-breakpoint
CREATE TRIGGER courses_school BEFORE INSERT OR UPDATE OF teacher_id, school_id ON courses FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'teacher_id');--> statement-breakpoint
CREATE TRIGGER exercises_school BEFORE INSERT OR UPDATE OF teacher_id, school_id ON exercises FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'teacher_id');--> statement-breakpoint
CREATE TRIGGER enrolments_school BEFORE INSERT OR UPDATE ON enrolments FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('courses', 'course_id');--> statement-breakpoint
CREATE TRIGGER exercise_courses_school BEFORE INSERT OR UPDATE ON exercise_courses FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('exercises', 'exercise_id');--> statement-breakpoint
CREATE TRIGGER media_files_school BEFORE INSERT OR UPDATE OF exercise_id, school_id ON media_files FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('exercises', 'exercise_id');--> statement-breakpoint
CREATE TRIGGER submissions_school BEFORE INSERT OR UPDATE OF student_id, school_id ON submissions FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'student_id');--> statement-breakpoint
CREATE TRIGGER practice_sessions_school BEFORE INSERT OR UPDATE OF submission_id, school_id ON practice_sessions FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('submissions', 'submission_id');--> statement-breakpoint
CREATE TRIGGER recordings_school BEFORE INSERT OR UPDATE OF submission_id, school_id ON recordings FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('submissions', 'submission_id');--> statement-breakpoint
CREATE TRIGGER recording_comments_school BEFORE INSERT OR UPDATE OF recording_id, school_id ON recording_comments FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('recordings', 'recording_id');--> statement-breakpoint
CREATE TRIGGER calendar_feeds_school BEFORE INSERT OR UPDATE OF user_id, school_id ON calendar_feeds FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'user_id');--> statement-breakpoint
CREATE TRIGGER guardian_links_school BEFORE INSERT OR UPDATE ON guardian_links FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'student_id');
