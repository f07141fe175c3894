import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import { UPLOAD_MAX_BYTES } from '@contract/constants';
import {
  EXERCISE_LIMITS,
  exerciseCategoriesQuery,
  exerciseCategoriesResponse,
  exerciseListQuery,
  exerciseListResponse,
  exerciseMultipartDoc,
  exerciseSchema,
} from '@contract/exercises';
import { currentUser } from '../../lib/auth';
import { requestLang } from '../../lib/lang';
import { categoryLabels, ExercisesService, moveOrphanMediaAside, notMultipart } from './exercises.service';
import { FORM_LIMITS, readExerciseForm } from './exercises.upload';
import { storageErrorSchema } from '@contract/storage';
import { declaredUploadBytes } from '../../lib/disk-space';
import { StorageQuota } from '../storage/storage.service';

/** The multipart body is read by the handler (streamed to disk), so only params and query are validated up front. */
const skipBodyValidation: typeof validatorCompiler = (ctx) =>
  ctx.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(ctx);

/** An upload may take an hour (node's requestTimeout, server/lib/limits.ts): older temporary files are leftovers. */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

export default async function exercisesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const storage = app.deps.storage;
  // On the embedded database this process owns DATA_DIR (the lock): every temporary upload file is
  // a leftover of a crash. On PostgreSQL other processes may share the media folder and be
  // uploading right now: leftovers are the files of dead processes of this machine, and any file
  // older than an upload may take (also hourly).
  const shared = app.deps.dbKind === 'postgres';
  await storage.sweepTemp(shared ? TEMP_MAX_AGE_MS : 0, { deadOwners: true });
  if (shared) {
    const sweep = setInterval(() => void storage.sweepTemp(TEMP_MAX_AGE_MS).catch((err: unknown) => app.log.warn({ err }, 'temp sweep failed')), TEMP_MAX_AGE_MS).unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  }
  // In a bucket other processes (other machines) may be storing an upload right now, its row not
  // yet committed: only objects older than an upload may take are orphans there.
  await moveOrphanMediaAside(app.deps.db, storage, app.log, storage.kind === 's3' ? TEMP_MAX_AGE_MS : 0);
  const quota = new StorageQuota(app.deps.db, app.deps.config, app.deps.mediaDir);
  const service = new ExercisesService(app.deps.db, storage, app.log, quota);
  /** Before the body: room in the school's quota and on the disk for what the client says it sends (docs/decisions/storage-quota.md). */
  const assertUploadRoom = async (schoolId: number, contentLength: string | undefined) => {
    const declared = declaredUploadBytes(contentLength);
    if (declared !== undefined && declared > 0) await quota.assertRoom(app.deps.db, { schoolId, studentId: null }, declared, { field: 'media_files' });
    // a form of text alone (an edit without new media) writes no file: no disk check
    if (declared !== 0) await quota.assertDisk(declared ?? 0);
  };

  // Encapsulated in this plugin: only these routes accept multipart bodies.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    // The name as sent: cleanFilename takes markup out before the folders (busboy's own cut
    // would keep `b>.png` of `../<b>böse</b>.png`).
    preservePath: true,
    // What the form needs and no more (exercises.upload.ts FORM_LIMITS): text stays in memory.
    limits: {
      fileSize: UPLOAD_MAX_BYTES,
      files: EXERCISE_LIMITS.files,
      fields: FORM_LIMITS.fields,
      fieldSize: FORM_LIMITS.fieldBytes,
      fieldNameSize: FORM_LIMITS.fieldNameBytes,
      parts: FORM_LIMITS.fields + EXERCISE_LIMITS.files,
      headerPairs: 20,
    },
  });

  app.get(
    '/api/exercises',
    {
      config: { access: 'teacher', cache: true },
      schema: { tags: ['exercises'], querystring: exerciseListQuery, response: { 200: exerciseListResponse, ...errorResponsesOf(401, 403) } },
    },
    async (req) => service.list(currentUser(req), req.query, requestLang(req)),
  );

  app.get(
    '/api/exercises/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['exercises'],
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: exerciseSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.get(currentUser(req), req.params.id, requestLang(req)),
  );

  app.post(
    '/api/exercises',
    {
      config: { access: 'teacher' },
      validatorCompiler: skipBodyValidation as never,
      schema: {
        tags: ['exercises'],
        consumes: ['multipart/form-data'],
        querystring: languageOnlyQuery,
        body: exerciseMultipartDoc,
        response: { 201: exerciseSchema, ...errorResponsesOf(401, 403, 409), ...bodyErrors, 413: storageErrorSchema, 507: storageErrorSchema },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      if (!req.isMultipart()) throw notMultipart();
      await assertUploadRoom(user.schoolId, req.headers['content-length']);
      const form = await readExerciseForm(req, storage);
      const exercise = await service.save(user, undefined, form, requestLang(req));
      return reply.code(201).send(exercise);
    },
  );

  app.post(
    '/api/exercises/:id',
    {
      config: { access: 'teacher' },
      validatorCompiler: skipBodyValidation as never,
      schema: {
        tags: ['exercises'],
        description: 'Update. Existing media stay unless listed in remove_media.',
        consumes: ['multipart/form-data'],
        params: idParams,
        querystring: languageOnlyQuery,
        body: exerciseMultipartDoc,
        response: { 200: exerciseSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors, 413: storageErrorSchema, 507: storageErrorSchema },
      },
    },
    async (req) => {
      const user = currentUser(req);
      await service.assertOwn(user, req.params.id);
      if (!req.isMultipart()) throw notMultipart();
      await assertUploadRoom(user.schoolId, req.headers['content-length']);
      const form = await readExerciseForm(req, storage);
      return service.save(user, req.params.id, form, requestLang(req));
    },
  );

  app.delete(
    '/api/exercises/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['exercises'],
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.remove(currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/exercise-categories',
    {
      config: { access: 'user' },
      schema: { tags: ['exercises'], querystring: exerciseCategoriesQuery, response: { 200: exerciseCategoriesResponse, ...errorResponsesOf(401, 403) } },
    },
    async (req) => categoryLabels(req.query.language ?? requestLang(req)),
  );
}
