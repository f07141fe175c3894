import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bodyErrors, errorResponsesOf, languageOnlyQuery } from '@contract/common';
import { schoolStorageBody, schoolStorageSchema, STORAGE_TOP_STUDENTS, studentStorageSchema } from '@contract/storage';
import { currentUser } from '../../lib/auth';
import { StorageQuota } from './storage.service';

/** Storage quotas (docs/decisions/storage-quota.md): the student's own usage; the school's, for its administrator. */
export default async function storageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const quota = new StorageQuota(app.deps.db, app.deps.config, app.deps.mediaDir);

  app.get(
    '/api/storage/usage',
    {
      config: { access: 'student' },
      schema: {
        tags: ['storage'],
        description:
          "The student's own recordings against their quota (the school's per-student quota), and how many bytes the next recording may have " +
          "(less when the school's storage is nearly full: school_full).",
        querystring: languageOnlyQuery,
        response: { 200: studentStorageSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => quota.studentUsage(currentUser(req)),
  );

  app.get(
    '/api/school/storage',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['school'],
        description:
          "The school's storage: recordings and exercise media against the school's quota, the per-student quota, the server's defaults, " +
          `and the ${STORAGE_TOP_STUDENTS} students whose recordings take the most.`,
        querystring: languageOnlyQuery,
        response: { 200: schoolStorageSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => quota.schoolStorage(currentUser(req)),
  );

  app.put(
    '/api/school/storage',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['school'],
        description:
          "Sets the school's quota and the per-student quota in bytes (null: the server's default). The per-student quota may not exceed " +
          "the school's (422 errors.student_quota_bytes). A quota below what is stored deletes nothing; it stops new uploads. " +
          'Audit log: school.storage_quota.',
        querystring: languageOnlyQuery,
        body: schoolStorageBody,
        response: { 200: schoolStorageSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => quota.update(currentUser(req), req.body),
  );
}
