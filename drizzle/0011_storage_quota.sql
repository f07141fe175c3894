-- Storage quotas (docs/decisions/storage-quota.md): a school's own quotas in bytes; null keeps the
-- server's defaults (STORAGE_QUOTA_SCHOOL_GB, STORAGE_QUOTA_STUDENT_MB).
ALTER TABLE "schools" ADD COLUMN "storage_quota_bytes" bigint;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "student_quota_bytes" bigint;--> statement-breakpoint
-- Every upload sums the school's recordings and exercise media inside its transaction: these
-- covering indexes let both sums read only the index. Drizzle's schema cannot express INCLUDE, so
-- the schema and its snapshot do not name them (as 0010).
CREATE INDEX IF NOT EXISTS "recordings_school_size_idx" ON "recordings" USING btree ("school_id","student_id") INCLUDE ("size");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "media_files_school_size_idx" ON "media_files" USING btree ("school_id") INCLUDE ("size");
