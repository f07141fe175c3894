-- Spoken comments and saved quick replies (docs/decisions/spoken-comments-and-quick-replies.md).
CREATE TABLE "quick_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quick_replies_text_check" CHECK (char_length("quick_replies"."text") between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "recording_comments" DROP CONSTRAINT "recording_comments_text_check";--> statement-breakpoint
ALTER TABLE "recording_comments" ADD COLUMN "audio_path" text;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD COLUMN "audio_mime_type" text;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD COLUMN "audio_size" bigint;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD COLUMN "audio_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "quick_replies" ADD CONSTRAINT "quick_replies_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quick_replies" ADD CONSTRAINT "quick_replies_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quick_replies_teacher_idx" ON "quick_replies" USING btree ("teacher_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recording_comments_audio_path_key" ON "recording_comments" USING btree ("audio_path") WHERE "recording_comments"."audio_path" is not null;--> statement-breakpoint
ALTER TABLE "recording_comments" ADD CONSTRAINT "recording_comments_audio_check" CHECK (("recording_comments"."audio_path" is null and "recording_comments"."audio_mime_type" is null and "recording_comments"."audio_size" is null and "recording_comments"."audio_duration_ms" is null) or ("recording_comments"."audio_path" is not null and "recording_comments"."audio_mime_type" is not null and "recording_comments"."audio_size" >= 0 and "recording_comments"."audio_duration_ms" >= 0));--> statement-breakpoint
ALTER TABLE "recording_comments" ADD CONSTRAINT "recording_comments_text_check" CHECK (char_length("recording_comments"."text") <= 2000 and (char_length("recording_comments"."text") >= 1 or "recording_comments"."audio_path" is not null));--> statement-breakpoint
-- The school of a quick reply is its teacher's (as for courses and exercises, migration 0009).
CREATE TRIGGER quick_replies_school BEFORE INSERT OR UPDATE OF teacher_id, school_id ON quick_replies FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('users', 'teacher_id');--> statement-breakpoint
-- The school's storage sum reads the clips' sizes from the index only (as 0011; not in the schema, which cannot express INCLUDE).
CREATE INDEX IF NOT EXISTS "recording_comments_school_audio_idx" ON "recording_comments" USING btree ("school_id") INCLUDE ("audio_size") WHERE "audio_path" is not null;
