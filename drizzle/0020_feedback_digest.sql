-- A daily digest of new feedback by e-mail, opted in (docs/decisions/reminders.md).
ALTER TABLE "notification_settings" ADD COLUMN "feedback_digest" boolean DEFAULT false NOT NULL;