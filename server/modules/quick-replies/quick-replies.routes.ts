import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import { QUICK_REPLY_LIMITS, quickReplyBody, quickReplyListResponse, quickReplySchema, type QuickReply } from '@contract/recordings';
import { rows, type DbOrTx } from '../../db/client';
import { AppError, notFound, type Msg } from '../../errors';
import { currentUser, type AuthUser } from '../../lib/auth';

const tags = ['recordings'];

export const quickReplyMessages = {
  notFound: { de: 'Schnellantwort nicht gefunden.', tr: 'Hızlı yanıt bulunamadı.' },
  tooMany: {
    de: `Sie können höchstens ${QUICK_REPLY_LIMITS.perTeacher} Schnellantworten speichern. Bitte löschen Sie zuerst eine.`,
    tr: `En fazla ${QUICK_REPLY_LIMITS.perTeacher} hızlı yanıt kaydedebilirsiniz. Lütfen önce birini silin.`,
  },
} satisfies Record<string, Msg>;

type Row = { id: number; text: string; created_at: Date | string };
const toReply = (r: Row): QuickReply => ({ id: r.id, text: r.text, created_at: new Date(r.created_at).toISOString() });

/** Only the teacher's own replies, inside their school: anyone else's id is the same 404 as none. */
async function ownReply(db: DbOrTx, teacher: AuthUser, id: number): Promise<Row | undefined> {
  const [r] = await rows<Row>(db, sql`select id, text, created_at from quick_replies where id = ${id} and teacher_id = ${teacher.id} and school_id = ${teacher.schoolId} for update`);
  return r;
}

/**
 * A teacher's saved quick replies for comments (docs/decisions/spoken-comments-and-quick-replies.md):
 * at most 50 of at most 500 characters each, read and changed only by their owner.
 */
export default async function quickRepliesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.deps.db;

  app.get(
    '/api/quick-replies',
    {
      config: { access: 'teacher' },
      schema: { tags, description: "The teacher's own saved replies, oldest first.", querystring: languageOnlyQuery, response: { 200: quickReplyListResponse, ...errorResponsesOf(401, 403) } },
    },
    async (req) => {
      const t = currentUser(req);
      const found = await rows<Row>(db, sql`select id, text, created_at from quick_replies where teacher_id = ${t.id} and school_id = ${t.schoolId} order by id`);
      return { data: found.map(toReply) };
    },
  );

  app.post(
    '/api/quick-replies',
    {
      config: { access: 'teacher' },
      schema: {
        tags,
        description: `Saves a reply (1–${QUICK_REPLY_LIMITS.maxChars} characters); the ${QUICK_REPLY_LIMITS.perTeacher + 1}st answers 422.`,
        querystring: languageOnlyQuery,
        body: quickReplyBody,
        response: { 201: quickReplySchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const t = currentUser(req);
      const created = await db.transaction(async (tx) => {
        // the teacher's row is locked (not its key): two saves at once cannot both be the 51st
        await tx.execute(sql`select id from users where id = ${t.id} and school_id = ${t.schoolId} for no key update`);
        const [n] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from quick_replies where teacher_id = ${t.id} and school_id = ${t.schoolId}`);
        if (Number(n?.n ?? 0) >= QUICK_REPLY_LIMITS.perTeacher) throw new AppError(422, quickReplyMessages.tooMany, { text: [quickReplyMessages.tooMany] });
        const [r] = await rows<Row>(
          tx,
          sql`insert into quick_replies (school_id, teacher_id, text) values (${t.schoolId}, ${t.id}, ${req.body.text}) returning id, text, created_at`,
        );
        return r!;
      });
      return reply.code(201).send(toReply(created));
    },
  );

  app.patch(
    '/api/quick-replies/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags,
        description: 'The owner changes the text of a reply.',
        params: idParams,
        querystring: languageOnlyQuery,
        body: quickReplyBody,
        response: { 200: quickReplySchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req) => {
      const t = currentUser(req);
      return db.transaction(async (tx) => {
        if (!(await ownReply(tx, t, req.params.id))) throw notFound(quickReplyMessages.notFound);
        const [r] = await rows<Row>(tx, sql`update quick_replies set text = ${req.body.text} where id = ${req.params.id} and school_id = ${t.schoolId} returning id, text, created_at`);
        return toReply(r!);
      });
    },
  );

  app.delete(
    '/api/quick-replies/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags,
        description: 'The owner deletes a reply.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const t = currentUser(req);
      await db.transaction(async (tx) => {
        if (!(await ownReply(tx, t, req.params.id))) throw notFound(quickReplyMessages.notFound);
        await tx.execute(sql`delete from quick_replies where id = ${req.params.id} and school_id = ${t.schoolId}`);
      });
      return reply.code(204).send(null);
    },
  );
}
