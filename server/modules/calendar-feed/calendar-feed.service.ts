import { createHash, createHmac, randomBytes } from 'node:crypto';
import ical, { ICalCalendarMethod } from 'ical-generator';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import { audit } from '../../lib/audit';
import type { Lang } from '../../errors';
import { notFound } from '../../errors';
import { CALENDAR_FEED_DAYS, CALENDAR_FEED_TTL_SECONDS, CALENDAR_FILE_PATTERN } from '@contract/reports';
import type { SubmissionStatus } from '@contract/constants';
import { addDays } from '@contract/recurrence';
import {
  createFeedIfMissing,
  findFeed,
  findFeedOwner,
  replaceFeed,
  studentFeedTasks,
  teacherFeedGroups,
  updateFeedHash,
  type FeedRow,
} from './calendar-feed.repo';

const FILE_RE = new RegExp(CALENDAR_FILE_PATTERN);

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The secret of an address: HMAC-SHA256(APP_SECRET, user id and nonce), 43 characters of base64url. */
export function feedSecret(appSecret: string, userId: number, nonce: string): string {
  return createHmac('sha256', appSecret).update(`calendar-feed:${userId}:${nonce}`).digest('base64url');
}

const texts = {
  status: {
    completed: { de: 'Erledigt', tr: 'Tamamlandı' },
    expired: { de: 'Verfallen', tr: 'Süresi dolmuş' },
    overdue: { de: 'Überfällig', tr: 'Gecikmiş' },
    open: { de: 'Offen', tr: 'Bekliyor' },
  } satisfies Record<SubmissionStatus, Record<Lang, string>>,
  statusLine: { de: 'Status', tr: 'Durum' },
  note: { de: 'Notiz vom Lehrer', tr: 'Öğretmenin notu' },
  expires: { de: 'Verfällt nach dem', tr: 'Süresi şu tarihten sonra doluyor' },
  calendarName: { de: 'Übungskontrolle', tr: 'Übungskontrolle' },
  studentsCount: { de: (n: number) => `${n} Schüler`, tr: (n: number) => `${n} öğrenci` },
  completedCount: { de: (n: number) => `${n} erledigt`, tr: (n: number) => `${n} tamamlandı` },
  notes: { de: 'Notizen', tr: 'Notlar' },
};

/** dd.mm.yyyy, the app's date format in both languages. */
const deDate = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;

export type Subscription = { secret: string; createdAt: Date };

/** Whose address: the user and their school (every statement stays inside it). */
type FeedUser = Pick<AuthUser, 'id' | 'schoolId'>;

export class CalendarFeedService {
  constructor(
    private readonly db: Db,
    private readonly appSecret: string,
  ) {}

  private toSubscription(userId: number, row: FeedRow): Subscription {
    return { secret: feedSecret(this.appSecret, userId, row.nonce), createdAt: new Date(row.created_at) };
  }

  /** The user's address; made on first ask. */
  async get(user: FeedUser): Promise<Subscription> {
    const { id: userId, schoolId } = user;
    let row = await findFeed(this.db, schoolId, userId);
    if (!row) {
      const nonce = randomBytes(16).toString('hex');
      await createFeedIfMissing(this.db, schoolId, userId, nonce, sha256(feedSecret(this.appSecret, userId, nonce)));
      row = await findFeed(this.db, schoolId, userId);
      if (!row) throw notFound(); // the user was deleted meanwhile
    }
    const sub = this.toSubscription(userId, row);
    const hash = sha256(sub.secret);
    if (hash !== row.secret_hash) await updateFeedHash(this.db, schoolId, userId, hash);
    return sub;
  }

  /** A new address; the old one answers 404 from now on. */
  async renew(user: FeedUser & Pick<AuthUser, 'name' | 'role'>): Promise<Subscription> {
    const nonce = randomBytes(16).toString('hex');
    // The old address stops working: audited, as every change of a secret is (by id, server/lib/audit.ts).
    const row = await this.db.transaction(async (tx) => {
      const r = await replaceFeed(tx, user.schoolId, user.id, nonce, sha256(feedSecret(this.appSecret, user.id, nonce)));
      await audit(tx, user, 'calendar.renew', { type: 'user', id: user.id, name: null });
      return r;
    });
    return this.toSubscription(user.id, row);
  }

  /**
   * The calendar file of `{secret}.ics`, or 404 (unknown, renewed, malformed: one answer for all).
   * A student's tasks are one all-day event each; a teacher's are one event per exercise and due
   * date, listing the students and their status.
   */
  async file(fileName: string, o: { today: string; lang: Lang; origin: string }): Promise<string> {
    if (!FILE_RE.test(fileName)) throw notFound();
    const owner = await findFeedOwner(this.db, sha256(fileName.slice(0, -4)));
    if (!owner) throw notFound();
    const { lang, today, origin } = o;
    const from = addDays(today, -CALENDAR_FEED_DAYS.back);
    const to = addDays(today, CALENDAR_FEED_DAYS.ahead);
    const cal = ical({
      name: `${texts.calendarName[lang]} – ${owner.name}`,
      prodId: { company: 'uebungskontrolle', product: 'calendar', language: lang.toUpperCase() },
      method: ICalCalendarMethod.PUBLISH,
      ttl: CALENDAR_FEED_TTL_SECONDS,
    });
    const stamp = new Date();
    if (owner.role === 'student') {
      for (const task of await studentFeedTasks(this.db, owner.school_id, owner.id, from, to, today)) {
        const lines = [`${texts.statusLine[lang]}: ${texts.status[task.status][lang]}`];
        if (task.expiration_date) lines.push(`${texts.expires[lang]} ${deDate(task.expiration_date)}`);
        if (task.teacher_note) lines.push('', `${texts.note[lang]}:`, task.teacher_note);
        cal.createEvent({
          id: `submission-${task.id}@uebungskontrolle`,
          start: task.due_date,
          end: addDays(task.due_date, 1),
          allDay: true,
          stamp,
          summary: task.title,
          description: lines.join('\n'),
          url: `${origin}/submissions/${task.id}`,
        });
      }
    } else {
      for (const g of await teacherFeedGroups(this.db, owner.school_id, owner.id, from, to, today)) {
        const done = g.students.filter((s) => s.status === 'completed').length;
        const lines = [`${texts.studentsCount[lang](g.students.length)}, ${texts.completedCount[lang](done)}`, ''];
        for (const s of g.students) lines.push(`${s.name}: ${texts.status[s.status][lang]}`);
        const notes = [...new Set(g.students.map((s) => s.note).filter((n): n is string => !!n))];
        if (notes.length) lines.push('', `${texts.notes[lang]}:`, ...notes);
        cal.createEvent({
          id: `teacher-${owner.id}-${g.exercise_key}-${sha256(g.title).slice(0, 8)}-${g.due_date}@uebungskontrolle`,
          start: g.due_date,
          end: addDays(g.due_date, 1),
          allDay: true,
          stamp,
          summary: `${g.title} (${done}/${g.students.length})`,
          description: lines.join('\n'),
          url: `${origin}/`,
        });
      }
    }
    return cal.toString();
  }
}
