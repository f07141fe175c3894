-- time_spent_minutes of a task is the sum of its finished practice sessions, kept by the database
-- so that no code path (stop, complete, crash recovery, delete) can let it drift.
CREATE OR REPLACE FUNCTION submissions_sync_time_spent() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    UPDATE submissions SET time_spent_minutes = COALESCE((
      SELECT round(sum(duration_minutes)::numeric, 2)::double precision FROM practice_sessions
      WHERE submission_id = OLD.submission_id AND ended_at IS NOT NULL), 0)
    WHERE id = OLD.submission_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.submission_id <> OLD.submission_id) THEN
    UPDATE submissions SET time_spent_minutes = COALESCE((
      SELECT round(sum(duration_minutes)::numeric, 2)::double precision FROM practice_sessions
      WHERE submission_id = NEW.submission_id AND ended_at IS NOT NULL), 0)
    WHERE id = NEW.submission_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER practice_sessions_time_spent
AFTER INSERT OR UPDATE OF ended_at, duration_minutes, submission_id OR DELETE ON practice_sessions
FOR EACH ROW EXECUTE FUNCTION submissions_sync_time_spent();
