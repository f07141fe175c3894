-- A parent's weekly note about their children, opted in (docs/decisions/reminders.md).
ALTER TABLE "notification_settings" ADD COLUMN "weekly_note" boolean DEFAULT false NOT NULL;