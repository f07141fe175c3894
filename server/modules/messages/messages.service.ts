import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGE_LIMITS, type Conversation, type Message, type MessageBody, type MessagePage } from '@contract/messages';
import { rows, type Db, type DbOrTx } from '../../db/client';
import { AppError, forbidden, invalid, notFound, type Msg } from '../../errors';
import { audit } from '../../lib/audit';
import type { AuthUser } from '../../lib/auth';

/**
 * Messages (docs/decisions/messages.md): per student one conversation between the student, the
 * student's teacher (users.teacher_id, whoever it is now) and the student's parents (guardian_links).
 * Nobody else reads or writes in it: not another teacher, not another parent, not the school's
 * administrator (who exports and erases a student's data, messages included, but does not read
 * along). Every statement names the caller's school.
 */
export const messageMessages = {
  notFound: { de: 'Unterhaltung nicht gefunden.', tr: 'Konuşma bulunamadı.' },
  messageNotFound: { de: 'Nachricht nicht gefunden.', tr: 'Mesaj bulunamadı.' },
  notParticipant: {
    de: 'Nachrichten schreiben nur Lehrkräfte, Schülerinnen und Schüler und ihre Eltern.',
    tr: 'Mesajları yalnızca öğretmenler, öğrenciler ve velileri yazar.',
  },
  notesTeacherOnly: { de: 'Unterrichtsnotizen schreibt nur die Lehrkraft.', tr: 'Ders notlarını yalnızca öğretmen yazar.' },
  pinNotesOnly: { de: 'Nur Unterrichtsnotizen können angeheftet werden.', tr: 'Yalnızca ders notları sabitlenebilir.' },
  pinTeacherOnly: { de: 'Nur die Lehrkraft heftet Unterrichtsnotizen an.', tr: 'Ders notlarını yalnızca öğretmen sabitler.' },
  tooManyPinned: {
    de: `Es können höchstens ${MESSAGE_LIMITS.maxPinned} Unterrichtsnotizen angeheftet sein; zuerst muss eine gelöst werden.`,
    tr: `En fazla ${MESSAGE_LIMITS.maxPinned} ders notu sabitlenebilir; önce birinin sabitlemesi kaldırılmalı.`,
  },
  badLink: {
    de: 'Die verknüpfte Aufgabe oder Aufnahme gehört nicht zu diesem Schüler.',
    tr: 'Bağlanan ödev veya kayıt bu öğrenciye ait değil.',
  },
  tooMany: {
    de: `Höchstens ${MESSAGE_LIMITS.perHour} Nachrichten in einer Stunde. Später geht es weiter.`,
    tr: `Bir saatte en fazla ${MESSAGE_LIMITS.perHour} mesaj yazılabilir. Daha sonra devam edilebilir.`,
  },
  notYours: { de: 'Eine Nachricht löscht nur, wer sie geschrieben hat, oder die Lehrkraft.', tr: 'Bir mesajı yalnızca yazan kişi ya da öğretmen silebilir.' },
} satisfies Record<string, Msg>;

type Role = 'teacher' | 'student' | 'guardian';

/** The conversations the caller takes part in, as a condition on `u` (the student's users row). */
function participates(user: AuthUser): SQL {
  switch (user.role) {
    case 'student':
      return sql`u.id = ${user.id}`;
    case 'teacher':
      return sql`u.teacher_id = ${user.id}`;
    case 'guardian':
      return sql`exists (select 1 from guardian_links gl where gl.school_id = ${user.schoolId} and gl.guardian_id = ${user.id} and gl.student_id = u.id)`;
    default:
      return sql`false`;
  }
}

function participantRole(user: AuthUser): Role {
  if (user.role === 'admin') throw forbidden(messageMessages.notParticipant);
  return user.role;
}

type MessageRow = {
  id: number;
  student_id: number;
  kind: 'message' | 'lesson_note';
  body: string;
  author_id: number | null;
  author_name: string | null;
  author_role: Role;
  link_task_id: number | null;
  link_recording_id: number | null;
  link_at_ms: number | null;
  link_title: string | null;
  pinned_at: Date | string | null;
  created_at: Date | string;
};

const iso = (v: Date | string): string => new Date(v).toISOString();

/** A message's columns with its author's name and its link's title (a link whose task is gone is none). */
const messageColumns = sql`m.id, m.student_id, m.kind, m.body, m.author_id, a.name as author_name, m.author_role,
  m.link_task_id, m.link_recording_id, m.link_at_ms, s.exercise_title as link_title, m.pinned_at, m.created_at`;
const messageJoins = sql`left join users a on a.id = m.author_id
  left join submissions s on s.id = m.link_task_id and s.school_id = m.school_id`;

function toMessage(r: MessageRow, user: AuthUser, teacherId: number | null): Message {
  const linked = r.link_task_id !== null && r.link_title !== null;
  return {
    id: Number(r.id),
    student_id: Number(r.student_id),
    kind: r.kind,
    body: r.body,
    author: r.author_id !== null && r.author_name !== null ? { id: Number(r.author_id), name: r.author_name, role: r.author_role } : null,
    link: linked
      ? {
          kind: r.link_recording_id !== null ? 'take' : 'task',
          task_id: Number(r.link_task_id),
          recording_id: r.link_recording_id !== null ? Number(r.link_recording_id) : null,
          at_ms: r.link_recording_id !== null && r.link_at_ms !== null ? Number(r.link_at_ms) : null,
          title: r.link_title ?? '',
        }
      : null,
    pinned_at: r.pinned_at ? iso(r.pinned_at) : null,
    created_at: iso(r.created_at),
    can_delete: (r.author_id !== null && Number(r.author_id) === user.id) || (user.role === 'teacher' && teacherId === user.id),
  };
}

export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The student of a conversation the caller takes part in (anyone else: 404, as for a missing id). */
  private async conversation(db: DbOrTx, user: AuthUser, studentId: number, lock = false): Promise<{ id: number; name: string; teacher_id: number | null }> {
    participantRole(user);
    const [s] = await rows<{ id: number; name: string; teacher_id: number | null }>(
      db,
      sql`select u.id, u.name, u.teacher_id from users u
          where u.id = ${studentId} and u.school_id = ${user.schoolId} and u.role = 'student' and ${participates(user)}
          ${lock ? sql`for no key update` : sql``}`,
    );
    if (!s) throw notFound(messageMessages.notFound);
    return { id: Number(s.id), name: s.name, teacher_id: s.teacher_id === null ? null : Number(s.teacher_id) };
  }

  /**
   * The caller's conversations with their unread counts, in one statement: what waits longest
   * first (oldest unread message from someone else), then the latest conversation, then by name.
   */
  async list(user: AuthUser): Promise<Conversation[]> {
    participantRole(user);
    const found = await rows<{
      student_id: number;
      student_name: string;
      unread: number;
      waiting_since: Date | string | null;
      last_id: number | null;
      last_body: string | null;
      last_kind: 'message' | 'lesson_note' | null;
      last_role: Role | null;
      last_at: Date | string | null;
    }>(
      this.db,
      sql`select u.id as student_id, u.name as student_name,
                 coalesce(w.unread, 0)::int as unread, w.waiting_since,
                 l.id as last_id, l.body as last_body, l.kind as last_kind, l.author_role as last_role, l.created_at as last_at
            from users u
            left join message_reads r on r.user_id = ${user.id} and r.student_id = u.id
            left join lateral (
              select count(*) as unread, min(m.created_at) as waiting_since
                from messages m
               where m.student_id = u.id and m.school_id = ${user.schoolId}
                 and m.id > coalesce(r.last_read_id, 0) and m.author_id is distinct from ${user.id}
            ) w on true
            left join lateral (
              select m.id, m.body, m.kind, m.author_role, m.created_at from messages m
               where m.student_id = u.id and m.school_id = ${user.schoolId}
               order by m.id desc limit 1
            ) l on true
           where u.school_id = ${user.schoolId} and u.role = 'student' and ${participates(user)}
           order by (coalesce(w.unread, 0) > 0) desc, w.waiting_since asc nulls last, l.id desc nulls last, lower(u.name), u.id`,
    );
    return found.map((r) => ({
      student_id: Number(r.student_id),
      student_name: r.student_name,
      unread: Number(r.unread),
      waiting_since: r.waiting_since ? iso(r.waiting_since) : null,
      last_message:
        r.last_id !== null && r.last_at !== null
          ? { id: Number(r.last_id), body: r.last_body ?? '', kind: r.last_kind ?? 'message', author_role: r.last_role, created_at: iso(r.last_at) }
          : null,
    }));
  }

  /** The number of messages from others the caller has not read, over all their conversations. */
  async unread(user: AuthUser): Promise<number> {
    if (user.role === 'admin') return 0;
    const [r] = await rows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n
            from users u
            join messages m on m.student_id = u.id and m.school_id = ${user.schoolId}
            left join message_reads r on r.user_id = ${user.id} and r.student_id = u.id
           where u.school_id = ${user.schoolId} and u.role = 'student' and ${participates(user)}
             and m.id > coalesce(r.last_read_id, 0) and m.author_id is distinct from ${user.id}`,
    );
    return Number(r?.n ?? 0);
  }

  /** One page of a conversation, newest first; the first page also carries the pinned lesson notes. */
  async page(user: AuthUser, studentId: number, before?: number): Promise<MessagePage> {
    const s = await this.conversation(this.db, user, studentId);
    const found = await rows<MessageRow>(
      this.db,
      sql`select ${messageColumns} from messages m ${messageJoins}
          where m.student_id = ${s.id} and m.school_id = ${user.schoolId}${before !== undefined ? sql` and m.id < ${before}` : sql``}
          order by m.id desc limit ${MESSAGE_LIMITS.pageSize + 1}`,
    );
    const page = found.slice(0, MESSAGE_LIMITS.pageSize);
    const pinned =
      before === undefined
        ? await rows<MessageRow>(
            this.db,
            sql`select ${messageColumns} from messages m ${messageJoins}
                where m.student_id = ${s.id} and m.school_id = ${user.schoolId} and m.pinned_at is not null
                order by m.pinned_at desc, m.id desc`,
          )
        : [];
    const [read] = await rows<{ last_read_id: number }>(this.db, sql`select last_read_id from message_reads where user_id = ${user.id} and student_id = ${s.id}`);
    const last = page[page.length - 1];
    return {
      student_id: s.id,
      student_name: s.name,
      data: page.map((r) => toMessage(r, user, s.teacher_id)),
      pinned: pinned.map((r) => toMessage(r, user, s.teacher_id)),
      next_before: found.length > MESSAGE_LIMITS.pageSize && last ? Number(last.id) : null,
      read_up_to: Number(read?.last_read_id ?? 0),
      can_write_notes: user.role === 'teacher' && s.teacher_id === user.id,
    };
  }

  /** Writes a message (a lesson note: the teacher only); a link must be the student's task or a take of it. */
  async send(user: AuthUser, studentId: number, body: Required<Pick<MessageBody, 'body'>> & { kind: 'message' | 'lesson_note'; link: { task_id: number; recording_id: number | null; at_ms: number | null } | null }): Promise<Message> {
    const role = participantRole(user);
    return this.db.transaction(async (tx) => {
      // the student's row is locked until the commit: messages sent at the same moment (on other
      // connections, in other processes) are counted one after the other, each seeing the ones
      // before it (docs/decisions/messages.md)
      const s = await this.conversation(tx, user, studentId, true);
      if (body.kind === 'lesson_note' && role !== 'teacher') throw forbidden(messageMessages.notesTeacherOnly);
      // a conversation is not a flood: the author's messages of the last hour here (the student's index, then a filter)
      const [recent] = await rows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from messages
            where student_id = ${s.id} and school_id = ${user.schoolId} and author_id = ${user.id} and created_at > now() - interval '1 hour'`,
      );
      if (Number(recent?.n ?? 0) >= MESSAGE_LIMITS.perHour) throw new AppError(429, messageMessages.tooMany, undefined, undefined, { 'retry-after': '600' });
      const link = body.link;
      if (link) {
        const take = link.recording_id;
        const [ok] = await rows<{ ok: number }>(
          tx,
          take === null
            ? sql`select 1 as ok from submissions where id = ${link.task_id} and student_id = ${s.id} and school_id = ${user.schoolId}`
            : sql`select 1 as ok from recordings r join submissions t on t.id = r.submission_id and t.school_id = r.school_id
                  where r.id = ${take} and r.submission_id = ${link.task_id} and t.student_id = ${s.id} and r.school_id = ${user.schoolId}`,
        );
        if (!ok) throw invalid({ link: messageMessages.badLink });
      }
      const [created] = await rows<{ id: number }>(
        tx,
        sql`insert into messages (school_id, student_id, author_id, author_role, kind, body, link_task_id, link_recording_id, link_at_ms)
            values (${user.schoolId}, ${s.id}, ${user.id}, ${role}, ${body.kind}, ${body.body}, ${link?.task_id ?? null}, ${link?.recording_id ?? null},
                    ${link?.recording_id != null ? link.at_ms : null})
            returning id`,
      );
      // one's own message is read: the author's unread count never counts it anyway, and the
      // conversation opens at it
      await tx.execute(
        sql`insert into message_reads (user_id, student_id, last_read_id) values (${user.id}, ${s.id}, ${created!.id})
            on conflict (user_id, student_id) do update set last_read_id = greatest(message_reads.last_read_id, excluded.last_read_id), updated_at = now()`,
      );
      const [r] = await rows<MessageRow>(tx, sql`select ${messageColumns} from messages m ${messageJoins} where m.id = ${created!.id}`);
      return toMessage(r!, user, s.teacher_id);
    });
  }

  /** Marks the conversation read up to a message (never back). */
  async markRead(user: AuthUser, studentId: number, upTo: number): Promise<void> {
    const s = await this.conversation(this.db, user, studentId);
    // never past the newest message there is: a later message must count as unread
    await this.db.execute(
      sql`insert into message_reads (user_id, student_id, last_read_id)
          select ${user.id}, ${s.id}, least(${upTo}, coalesce(max(m.id), 0)) from messages m where m.student_id = ${s.id} and m.school_id = ${user.schoolId}
          on conflict (user_id, student_id) do update set last_read_id = greatest(message_reads.last_read_id, excluded.last_read_id), updated_at = now()`,
    );
  }

  /** A message of a conversation the caller takes part in, locked (anyone else's: 404). */
  private async ownMessage(tx: DbOrTx, user: AuthUser, id: number): Promise<{ row: MessageRow; teacherId: number | null }> {
    participantRole(user);
    const [r] = await rows<MessageRow & { teacher_id: number | null }>(
      tx,
      sql`select ${messageColumns}, u.teacher_id from messages m ${messageJoins}
          join users u on u.id = m.student_id and u.school_id = m.school_id
          where m.id = ${id} and m.school_id = ${user.schoolId} and ${participates(user)}
          for update of m`,
    );
    if (!r) throw notFound(messageMessages.messageNotFound);
    return { row: r, teacherId: r.teacher_id === null ? null : Number(r.teacher_id) };
  }

  /** The student's teacher pins or releases a lesson note (at most MESSAGE_LIMITS.maxPinned pinned). */
  async pin(user: AuthUser, id: number, pinned: boolean): Promise<Message> {
    return this.db.transaction(async (tx) => {
      const { row, teacherId } = await this.ownMessage(tx, user, id);
      if (user.role !== 'teacher' || teacherId !== user.id) throw forbidden(messageMessages.pinTeacherOnly);
      // what the message is, or how many are pinned, conflicts with a pin: 409, not 422 (the body is well-formed)
      if (row.kind !== 'lesson_note') throw new AppError(409, messageMessages.pinNotesOnly, { pinned: [messageMessages.pinNotesOnly] });
      if (pinned && !row.pinned_at) {
        // the student's row is locked: two pins at once cannot both be the sixth
        await tx.execute(sql`select id from users where id = ${row.student_id} and school_id = ${user.schoolId} for no key update`);
        const [n] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from messages where student_id = ${row.student_id} and school_id = ${user.schoolId} and pinned_at is not null`);
        if (Number(n?.n ?? 0) >= MESSAGE_LIMITS.maxPinned) throw new AppError(409, messageMessages.tooManyPinned, { pinned: [messageMessages.tooManyPinned] });
      }
      await tx.execute(sql`update messages set pinned_at = ${pinned ? sql`coalesce(pinned_at, now())` : sql`null`} where id = ${id} and school_id = ${user.schoolId}`);
      const [fresh] = await rows<MessageRow>(tx, sql`select ${messageColumns} from messages m ${messageJoins} where m.id = ${id}`);
      return toMessage(fresh!, user, teacherId);
    });
  }

  /** Deletes a message (its author, or the student's teacher); audited as 'message.delete' without its text. */
  async remove(user: AuthUser, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { row, teacherId } = await this.ownMessage(tx, user, id);
      const own = row.author_id !== null && Number(row.author_id) === user.id;
      if (!own && !(user.role === 'teacher' && teacherId === user.id)) throw forbidden(messageMessages.notYours);
      await tx.execute(sql`delete from messages where id = ${id} and school_id = ${user.schoolId}`);
      await audit(tx, user, 'message.delete', { type: 'user', id: Number(row.student_id), name: null }, {
        message_id: Number(row.id),
        kind: row.kind,
        author_role: row.author_role,
        own,
        written_at: iso(row.created_at),
      });
    });
  }

  async retention(user: AuthUser): Promise<number> {
    const [r] = await rows<{ d: number }>(this.db, sql`select message_retention_days as d from schools where id = ${user.schoolId}`);
    return Number(r?.d ?? MESSAGE_LIMITS.retentionDays.default);
  }

  /** The administrator sets how long messages are kept; audited as 'school.message_retention'. */
  async setRetention(admin: AuthUser, days: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [before] = await rows<{ d: number }>(tx, sql`select message_retention_days as d from schools where id = ${admin.schoolId} for update`);
      await tx.execute(sql`update schools set message_retention_days = ${days} where id = ${admin.schoolId}`);
      if (Number(before?.d) !== days) await audit(tx, admin, 'school.message_retention', { type: 'school', id: admin.schoolId, name: null }, { from: Number(before?.d), to: days });
      return days;
    });
  }

  /**
   * Deletes every message older than its school's retention (the scheduled job, once across all
   * processes); pinned lesson notes go too: the retention is the school's promise. Answers how many.
   */
  async prune(now = new Date()): Promise<number> {
    const gone = await rows<{ id: number }>(
      this.db,
      sql`delete from messages m using schools sc
          where sc.id = m.school_id and m.created_at < ${now.toISOString()}::timestamptz - make_interval(days => sc.message_retention_days)
          returning m.id`,
    );
    if (gone.length) this.log.info({ messages: gone.length }, 'messages past their retention deleted');
    return gone.length;
  }
}
