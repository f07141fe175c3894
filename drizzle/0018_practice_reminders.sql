-- The daily practice reminder (docs/decisions/reminders.md): who wants it when, and which were sent (once a day, across processes).
CREATE TABLE "notification_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"reminder_time" text,
	"language" text DEFAULT 'de' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_time_check" CHECK ("notification_settings"."reminder_time" is null or "notification_settings"."reminder_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "notification_settings_language_check" CHECK ("notification_settings"."language" in ('de', 'tr'))
);
--> statement-breakpoint
CREATE TABLE "reminders_sent" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"local_date" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminders_sent_user_id_kind_local_date_pk" PRIMARY KEY("user_id","kind","local_date")
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders_sent" ADD CONSTRAINT "reminders_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_settings_reminder_idx" ON "notification_settings" USING btree ("reminder_time");--> statement-breakpoint
CREATE INDEX "reminders_sent_date_idx" ON "reminders_sent" USING btree ("local_date");