ALTER TABLE "exercises" ADD COLUMN "tempo_bpm" smallint;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "meter" text;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "meter_grouping" text;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "usul" text;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "usul_pattern" jsonb;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "makam" text;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "durak" text;--> statement-breakpoint
ALTER TABLE "practice_sessions" ADD COLUMN "tempo_bpm" smallint;--> statement-breakpoint
ALTER TABLE "exercises" ADD CONSTRAINT "exercises_tempo_check" CHECK ("exercises"."tempo_bpm" is null or "exercises"."tempo_bpm" between 20 and 300);--> statement-breakpoint
ALTER TABLE "practice_sessions" ADD CONSTRAINT "practice_sessions_tempo_check" CHECK ("practice_sessions"."tempo_bpm" is null or "practice_sessions"."tempo_bpm" between 20 and 300);