-- What the app heard in a take (docs/decisions/listening.md): its pitch track and onsets from a browser,
-- the report the server computed from them; gone with the take (cascade).
CREATE TABLE "recording_analyses" (
	"recording_id" integer PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"track" "bytea" NOT NULL,
	"track_version" smallint NOT NULL,
	"computed_by" text NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"report" jsonb NOT NULL,
	"analysis_version" smallint NOT NULL,
	"settings_key" text NOT NULL,
	"report_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_analyses_track_check" CHECK (octet_length("recording_analyses"."track") between 14 and 524288),
	CONSTRAINT "recording_analyses_computed_by_check" CHECK ("recording_analyses"."computed_by" in ('student', 'teacher'))
);
--> statement-breakpoint
ALTER TABLE "recording_analyses" ADD CONSTRAINT "recording_analyses_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_analyses" ADD CONSTRAINT "recording_analyses_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_analyses_school_idx" ON "recording_analyses" USING btree ("school_id");--> statement-breakpoint
-- The school of an analysis is its recording's (as for comments, migrations 0009 and 0010).
CREATE TRIGGER recording_analyses_school BEFORE INSERT OR UPDATE OF recording_id, school_id ON recording_analyses FOR EACH ROW EXECUTE FUNCTION uk_fill_school_id('recordings', 'recording_id');
