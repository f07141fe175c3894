CREATE TABLE "courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"teacher_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrolments" (
	"course_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enrolments_course_id_student_id_pk" PRIMARY KEY("course_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "exercise_courses" (
	"exercise_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	CONSTRAINT "exercise_courses_exercise_id_course_id_pk" PRIMARY KEY("exercise_id","course_id")
);
--> statement-breakpoint
CREATE TABLE "exercises" (
	"id" serial PRIMARY KEY NOT NULL,
	"teacher_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"category" text,
	"difficulty" text,
	"target" text,
	"estimated_minutes" integer,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"priority" smallint DEFAULT 2 NOT NULL,
	"language" text DEFAULT 'de' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "exercises_priority_check" CHECK ("exercises"."priority" between 1 and 5),
	CONSTRAINT "exercises_minutes_check" CHECK ("exercises"."estimated_minutes" is null or "exercises"."estimated_minutes" >= 1)
);
--> statement-breakpoint
CREATE TABLE "media_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"exercise_id" integer NOT NULL,
	"type" text NOT NULL,
	"path" text NOT NULL,
	"filename" text NOT NULL,
	"size" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "practice_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"duration_minutes" double precision,
	CONSTRAINT "practice_sessions_duration_check" CHECK ("practice_sessions"."duration_minutes" is null or ("practice_sessions"."duration_minutes" >= 0 and "practice_sessions"."duration_minutes" <= 180))
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"exercise_id" integer,
	"exercise_title" text NOT NULL,
	"course_id" integer,
	"series_id" uuid NOT NULL,
	"due_date" date NOT NULL,
	"expiration_date" date,
	"completed_at" timestamp with time zone,
	"teacher_note" text,
	"teacher_feedback" text,
	"accuracy_score" double precision,
	"time_spent_minutes" double precision DEFAULT 0 NOT NULL,
	"competency_level" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submissions_accuracy_check" CHECK ("submissions"."accuracy_score" is null or ("submissions"."accuracy_score" >= 0 and "submissions"."accuracy_score" <= 100)),
	CONSTRAINT "submissions_expiry_check" CHECK ("submissions"."expiration_date" is null or "submissions"."expiration_date" >= "submissions"."due_date")
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"phone" text,
	"notes" text,
	"teacher_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('teacher', 'student')),
	CONSTRAINT "users_student_has_teacher" CHECK (("users"."role" = 'teacher') = ("users"."teacher_id" is null))
);
--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolments" ADD CONSTRAINT "enrolments_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_courses" ADD CONSTRAINT "exercise_courses_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_courses" ADD CONSTRAINT "exercise_courses_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercises" ADD CONSTRAINT "exercises_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_sessions" ADD CONSTRAINT "practice_sessions_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_sessions" ADD CONSTRAINT "practice_sessions_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courses_teacher_name_idx" ON "courses" USING btree ("teacher_id","name");--> statement-breakpoint
CREATE INDEX "enrolments_student_idx" ON "enrolments" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "exercise_courses_course_idx" ON "exercise_courses" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "exercises_teacher_live_idx" ON "exercises" USING btree ("teacher_id","created_at") WHERE "exercises"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "media_files_path_key" ON "media_files" USING btree ("path");--> statement-breakpoint
CREATE INDEX "media_files_exercise_idx" ON "media_files" USING btree ("exercise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "practice_sessions_one_running_key" ON "practice_sessions" USING btree ("submission_id") WHERE "practice_sessions"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "practice_sessions_submission_idx" ON "practice_sessions" USING btree ("submission_id","started_at");--> statement-breakpoint
CREATE INDEX "practice_sessions_student_started_idx" ON "practice_sessions" USING btree ("student_id","started_at");--> statement-breakpoint
CREATE INDEX "submissions_student_due_idx" ON "submissions" USING btree ("student_id","due_date");--> statement-breakpoint
CREATE INDEX "submissions_teacher_due_idx" ON "submissions" USING btree ("teacher_id","due_date");--> statement-breakpoint
CREATE INDEX "submissions_course_due_idx" ON "submissions" USING btree ("course_id","due_date");--> statement-breakpoint
CREATE INDEX "submissions_series_idx" ON "submissions" USING btree ("series_id","due_date");--> statement-breakpoint
CREATE INDEX "submissions_exercise_idx" ON "submissions" USING btree ("exercise_id");--> statement-breakpoint
CREATE INDEX "submissions_student_completed_idx" ON "submissions" USING btree ("student_id","completed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_series_student_due_key" ON "submissions" USING btree ("series_id","student_id","due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_hash_key" ON "tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "tokens_user_idx" ON "tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_teacher_created_idx" ON "users" USING btree ("teacher_id","created_at");--> statement-breakpoint
CREATE INDEX "users_teacher_name_idx" ON "users" USING btree ("teacher_id","name");