-- Messages between teacher, student and parents, lesson notes, and the school's retention (docs/decisions/messages.md).
CREATE TABLE "message_reads" (
	"user_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"last_read_id" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_reads_user_id_student_id_pk" PRIMARY KEY("user_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"author_id" integer,
	"author_role" text NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"body" text NOT NULL,
	"link_task_id" integer,
	"link_recording_id" integer,
	"link_at_ms" integer,
	"pinned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_body_check" CHECK (char_length("messages"."body") between 1 and 2000),
	CONSTRAINT "messages_kind_check" CHECK ("messages"."kind" in ('message', 'lesson_note')),
	CONSTRAINT "messages_role_check" CHECK ("messages"."author_role" in ('teacher', 'student', 'guardian'))
);
--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "message_retention_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reads" ADD CONSTRAINT "message_reads_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_link_task_id_submissions_id_fk" FOREIGN KEY ("link_task_id") REFERENCES "public"."submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_link_recording_id_recordings_id_fk" FOREIGN KEY ("link_recording_id") REFERENCES "public"."recordings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_student_idx" ON "messages" USING btree ("student_id","id");--> statement-breakpoint
CREATE INDEX "messages_school_created_idx" ON "messages" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_pinned_idx" ON "messages" USING btree ("student_id","pinned_at") WHERE "messages"."pinned_at" is not null;--> statement-breakpoint
-- The school of a message is its student's (as for quick replies, migration 0015).
CREATE TRIGGER messages_school BEFORE INSERT OR UPDATE OF student_id, school_id ON messages FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'student_id');
