import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginResponse } from '@contract/auth';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import {
  AUDIT_PAGE_SIZE,
  INVITE_VALID_DAYS,
  SCHOOL_WEEKS,
  auditLogQuery,
  auditLogResponse,
  inviteAcceptBody,
  inviteCreatedSchema,
  inviteListResponse,
  invitePublicSchema,
  inviteTokenParams,
  schoolDashboardSchema,
  schoolSchema,
  schoolStudentListQuery,
  schoolStudentListResponse,
  schoolStudentSchema,
  schoolTeacherListResponse,
  schoolTeacherSchema,
  schoolUpdateBody,
  studentErasedSchema,
  studentEraseBody,
  studentExportResponses,
  studentMoveBody,
  teacherInviteBody,
} from '@contract/school';
import { currentUser } from '../../lib/auth';
import { requestLang } from '../../lib/lang';
import { LOGIN_BODY_LIMIT } from '../../lib/limits';
import { contentDisposition } from '../media/media.service';
import { studentZip } from './export';
import { acceptInvite, createInvite, publicInvite, revokeInvite, schoolInvites } from './invites';
import { publicOrigin } from '../../lib/public-url';
import { mailerOf } from '../../lib/mail';
import { SchoolService } from './school.service';

const tags = ['school'];

/** The school administration (docs/decisions/schools-and-roles.md): the administrator's routes, and the public invitation links. */
export default async function schoolRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.deps.db;
  const service = new SchoolService(db, app.deps.storage, app.deps.config.APP_TIMEZONE, app.log);

  app.get(
    '/api/school',
    {
      config: { access: 'admin' },
      schema: { tags, description: "The administrator's school.", querystring: languageOnlyQuery, response: { 200: schoolSchema, ...errorResponsesOf(401, 403) } },
    },
    async (req) => service.school(currentUser(req)),
  );

  app.patch(
    '/api/school',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: "Renames the administrator's school (audit log: school.rename).",
        querystring: languageOnlyQuery,
        body: schoolUpdateBody,
        response: { 200: schoolSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => service.rename(currentUser(req), req.body.name),
  );

  app.get(
    '/api/school/dashboard',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          "The school's figures in APP_TIMEZONE: active and deactivated teachers; students, and those with a practice session started in " +
          `the last 7 days (today included); guardians; and for the last ${SCHOOL_WEEKS} weeks (Monday–Sunday, oldest first, the current ` +
          'week last) the minutes of finished practice sessions by their start and the tasks completed.',
        querystring: languageOnlyQuery,
        response: { 200: schoolDashboardSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.dashboard(currentUser(req)),
  );

  app.get(
    '/api/school/teachers',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: "Every teacher of the school by name, deactivated ones included, with their number of students.",
        querystring: languageOnlyQuery,
        response: { 200: schoolTeacherListResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ data: await service.teachers(currentUser(req)) }),
  );

  app.post(
    '/api/school/teachers/:id/deactivate',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'The teacher can no longer sign in; a token they hold stops working at once (every server process), their private calendar ' +
          'address ends. Their students and all data stay. An id that is not a teacher of the school → 404. Audit log: teacher.deactivate.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: schoolTeacherSchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req) => service.deactivate(currentUser(req), req.params.id),
  );

  app.post(
    '/api/school/teachers/:id/reactivate',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: 'The teacher can sign in again. An id that is not a teacher of the school → 404. Audit log: teacher.reactivate.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: schoolTeacherSchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req) => service.reactivate(currentUser(req), req.params.id),
  );

  app.get(
    '/api/school/students',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: "The school's students by name with their teacher and number of guardians; q filters by name or e-mail, teacher_id by teacher.",
        querystring: schoolStudentListQuery,
        response: { 200: schoolStudentListResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ data: await service.students(currentUser(req), req.query) }),
  );

  app.post(
    '/api/school/students/:id/move',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Gives the student with every task, practice session and recording to another active teacher of the school (otherwise 422 ' +
          "errors.teacher_id); the enrolments in the old teacher's courses end and the tasks lose that course. Answers the student. " +
          'Audit log: student.move.',
        params: idParams,
        querystring: languageOnlyQuery,
        body: studentMoveBody,
        response: { 200: schoolStudentSchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req) => service.move(currentUser(req), req.params.id, req.body.teacher_id),
  );

  app.get(
    '/api/school/students/:id/export',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Everything stored about the student as a zip download: student.json and the recordings\' files (recordings/<id>-<name>). ' +
          'Audit log: student.export.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: studentExportResponses,
      },
    },
    async (req, reply) => {
      const admin = currentUser(req);
      const now = new Date();
      const { json, files, student } = await service.exportStudent(admin, req.params.id, now);
      const date = now.toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition('attachment', `${student.name} ${date}.zip`))
        .header('cache-control', 'no-store')
        .send(studentZip(app.deps.storage, json, files, req.log, now));
    },
  );

  app.post(
    '/api/school/students/:id/erase',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          "Erases the student completely: the recordings' files, then the account with every task, practice session, recording, comment, " +
          'enrolment, guardian link and calendar address, and the guardian accounts left without a child. confirm_name must be the ' +
          "student's name (otherwise 422 errors.confirm_name). Backups made before keep the data until they are rotated (backups_note). " +
          'Audit log: student.erase.',
        params: idParams,
        querystring: languageOnlyQuery,
        body: studentEraseBody,
        response: { 200: studentErasedSchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req) => service.erase(currentUser(req), req.params.id, req.body.confirm_name, requestLang(req)),
  );

  app.post(
    '/api/school/invites',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          `Invites a teacher: a one-time link (valid ${INVITE_VALID_DAYS} days) to set a password, answered once in \`url\` to copy, and ` +
          'e-mailed when the server has a mail server (`emailed`). 409 when the e-mail belongs to an account or to an open invitation. ' +
          'Audit log: invite.create.',
        querystring: languageOnlyQuery,
        body: teacherInviteBody,
        response: { 201: inviteCreatedSchema, ...errorResponsesOf(401, 403, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const admin = currentUser(req);
      const created = await createInvite(db, admin, { kind: 'teacher', name: req.body.name, email: req.body.email, studentIds: [] }, publicOrigin(req, app.deps.config), mailerOf(app));
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.get(
    '/api/school/invites',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: "The school's invitations (teachers and guardians), newest first, each with its state: open, accepted, expired or revoked.",
        querystring: languageOnlyQuery,
        response: { 200: inviteListResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ data: await schoolInvites(db, currentUser(req).schoolId) }),
  );

  app.delete(
    '/api/school/invites/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: 'Revokes an open invitation: its link answers 404 from now on. 409 when it is no longer open. Audit log: invite.revoke.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await revokeInvite(db, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/invites/:token',
    {
      // No sign-in: the 43-character secret in the link is the permission.
      config: { access: 'public' },
      schema: {
        tags,
        security: [],
        description: 'What an invitation link is for (the page greets with it). 404 for an unknown, used, revoked or expired link.',
        params: inviteTokenParams,
        querystring: languageOnlyQuery,
        response: { 200: invitePublicSchema, ...errorResponsesOf(404) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return publicInvite(db, req.params.token);
    },
  );

  app.post(
    '/api/invites/:token/accept',
    {
      config: { access: 'public' },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags,
        security: [],
        description:
          'Sets the password of the invited teacher or guardian (at least 8 characters, otherwise 422 errors.password), creates the account ' +
          '(a guardian follows the invitation\'s children) and signs in: the answer of POST /api/login. The link works once: afterwards, ' +
          'and when unknown, revoked or expired, 404. 409 when an account with the e-mail exists meanwhile. Audit log: invite.accept.',
        params: inviteTokenParams,
        querystring: languageOnlyQuery,
        body: inviteAcceptBody,
        response: { 200: loginResponse, ...errorResponsesOf(404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return acceptInvite(db, req.params.token, req.body.password);
    },
  );

  app.get(
    '/api/school/audit-log',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          `The school's audit log, newest first, ${AUDIT_PAGE_SIZE} entries a page: who did what to whom and when (sign-ins of ` +
          'administrators, invitations, role and state changes, moves, exports, erasures). `before` (an entry id, next_before of the ' +
          'previous page) pages back.',
        querystring: auditLogQuery,
        response: { 200: auditLogResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.auditLog(currentUser(req), req.query.before),
  );
}
