import { sql } from 'drizzle-orm';
import { rows, type Db, type DbOrTx } from '../../db/client';
import { invalid, notFound, type Msg } from '../../errors';
import { forgetUser, type AuthUser } from '../../lib/auth';
import { audit } from '../../lib/audit';
import { hashPassword } from '../../lib/passwords';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { passwordTooShort, type Student } from '@contract/students';
import {
  deleteOrphanedGuardians,
  deleteStudent,
  guardiansOf,
  emailTaken,
  findOwnStudent,
  insertStudent,
  isOwnStudent,
  listStudents,
  ownCourseIds,
  revokeTokens,
  setEnrolments,
  updateStudent,
} from './students.repo';
import { forgetStudent } from '../school/forget';
import { eraseCounts } from '../school/school.repo';

export const studentMessages = {
  emailTaken: {
    de: 'Diese E-Mail-Adresse wird bereits verwendet.',
    tr: 'Bu e-posta adresi zaten kullanılıyor.',
  },
  passwordTooShort: {
    de: `Das Passwort muss mindestens ${PASSWORD_MIN_LENGTH} Zeichen lang sein.`,
    tr: `Şifre en az ${PASSWORD_MIN_LENGTH} karakter olmalıdır.`,
  },
  passwordRequired: { de: 'Bitte geben Sie ein Passwort ein.', tr: 'Lütfen bir şifre girin.' },
  unknownCourses: {
    de: 'Mindestens ein gewählter Kurs existiert nicht.',
    tr: 'Seçilen kurslardan en az biri mevcut değil.',
  },
} satisfies Record<string, Msg>;

type StudentInput = {
  name: string;
  email: string;
  password?: string | null | undefined;
  phone?: string | null | undefined;
  notes?: string | null | undefined;
  course_ids?: number[] | undefined;
};

/** A unique-index violation on users.email (two requests racing for one address). */
function isEmailUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (pg.code === '23505' && (pg.constraint === 'users_email_lower_key' || String(pg.message).includes('users_email_lower_key'))) return true;
    if ((e as { cause?: unknown }).cause === e) break;
  }
  return false;
}

export class StudentsService {
  constructor(private readonly db: Db) {}

  list(teacher: AuthUser, courseId?: number): Promise<Student[]> {
    return listStudents(this.db, teacher.schoolId, teacher.id, courseId ? { courseId } : {});
  }

  async get(teacher: AuthUser, id: number, db: DbOrTx = this.db): Promise<Student> {
    const s = await findOwnStudent(db, teacher.schoolId, teacher.id, id);
    if (!s) throw notFound();
    return s;
  }

  private async checkInput(db: DbOrTx, teacher: AuthUser, input: StudentInput, exceptId: number | undefined, passwordRequired: boolean) {
    const errors: Record<string, Msg> = {};
    const password = input.password ?? '';
    if (password.trim() === '') {
      if (passwordRequired) errors.password = studentMessages.passwordRequired;
    } else if (passwordTooShort(password)) {
      errors.password = studentMessages.passwordTooShort;
    }
    if (await emailTaken(db, input.email, exceptId)) errors.email = studentMessages.emailTaken;
    if (input.course_ids?.length) {
      const own = await ownCourseIds(db, teacher.schoolId, teacher.id, input.course_ids);
      if (input.course_ids.some((c) => !own.has(c))) errors.course_ids = studentMessages.unknownCourses;
    }
    if (Object.keys(errors).length) throw invalid(errors);
  }

  async create(teacher: AuthUser, input: StudentInput): Promise<Student> {
    await this.checkInput(this.db, teacher, input, undefined, true);
    const passwordHash = await hashPassword(input.password ?? '');
    try {
      return await this.db.transaction(async (tx) => {
        const id = await insertStudent(tx, teacher.schoolId, teacher.id, {
          name: input.name,
          email: input.email,
          phone: input.phone ?? null,
          notes: input.notes ?? null,
          passwordHash,
        });
        if (input.course_ids?.length) await setEnrolments(tx, teacher.schoolId, id, input.course_ids);
        return this.get(teacher, id, tx);
      });
    } catch (err) {
      if (isEmailUniqueViolation(err)) throw invalid({ email: studentMessages.emailTaken });
      throw err;
    }
  }

  async update(teacher: AuthUser, id: number, input: StudentInput): Promise<Student> {
    if (!(await isOwnStudent(this.db, teacher.schoolId, teacher.id, id))) throw notFound();
    await this.checkInput(this.db, teacher, input, id, false);
    const newPassword = input.password && input.password.trim() !== '' ? input.password : undefined;
    const passwordHash = newPassword ? await hashPassword(newPassword) : undefined;
    try {
      const updated = await this.db.transaction(async (tx) => {
        if (!(await isOwnStudent(tx, teacher.schoolId, teacher.id, id))) throw notFound();
        const [before] = await rows<{ email: string }>(tx, sql`select email from users where id = ${id} and school_id = ${teacher.schoolId} for update`);
        await updateStudent(tx, teacher.schoolId, teacher.id, id, {
          name: input.name,
          email: input.email,
          phone: input.phone ?? null,
          notes: input.notes ?? null,
          ...(passwordHash ? { passwordHash } : {}),
        });
        // A changed password signs the student out on every device.
        if (passwordHash) await revokeTokens(tx, id);
        // Security-relevant: a new password (the teacher can sign in as the student) and a new
        // sign-in address. By id only: no password, no address in the entry.
        if (passwordHash) await audit(tx, teacher, 'student.password_reset', { type: 'user', id, name: null });
        if (before && before.email.toLowerCase() !== input.email.toLowerCase()) await audit(tx, teacher, 'student.email_change', { type: 'user', id, name: null });
        if (input.course_ids) await setEnrolments(tx, teacher.schoolId, id, input.course_ids);
        return this.get(teacher, id, tx);
      });
      // Committed: the student's signed-in sessions see the new name and e-mail, or end (new password).
      await forgetUser(this.db, id);
      return updated;
    } catch (err) {
      if (isEmailUniqueViolation(err)) throw invalid({ email: studentMessages.emailTaken });
      throw err;
    }
  }

  async setCourses(teacher: AuthUser, id: number, courseIds: number[]): Promise<Student> {
    if (!(await isOwnStudent(this.db, teacher.schoolId, teacher.id, id))) throw notFound();
    const own = await ownCourseIds(this.db, teacher.schoolId, teacher.id, courseIds);
    if (courseIds.some((c) => !own.has(c))) throw invalid({ course_ids: studentMessages.unknownCourses });
    return this.db.transaction(async (tx) => {
      if (!(await isOwnStudent(tx, teacher.schoolId, teacher.id, id))) throw notFound();
      await setEnrolments(tx, teacher.schoolId, id, courseIds);
      return this.get(teacher, id, tx);
    });
  }

  /** The account and everything of it, in one transaction; answers the ids of the deleted tasks (their recordings' folders). */
  async remove(teacher: AuthUser, id: number): Promise<number[]> {
    const { taskIds, guardians } = await this.db.transaction(async (tx) => {
      if (!(await isOwnStudent(tx, teacher.schoolId, teacher.id, id))) throw notFound();
      const counts = await eraseCounts(tx, teacher.schoolId, id);
      const following = await guardiansOf(tx, teacher.schoolId, id);
      // As the administrator's erasure: names and addresses copied elsewhere go too (school/forget.ts).
      await forgetStudent(tx, teacher.schoolId, id);
      const taskIds = await deleteStudent(tx, teacher.schoolId, teacher.id, id);
      // a parent whose only child this was has no reason for an account any more (docs/decisions/schools-and-roles.md)
      const guardians = await deleteOrphanedGuardians(tx, teacher.schoolId, following);
      await audit(tx, teacher, 'student.delete', { type: 'user', id, name: null }, {
        tasks: counts.tasks,
        practice_sessions: counts.practice_sessions,
        recordings: counts.recordings,
        guardian_accounts: guardians.length,
        guardian_account_ids: guardians,
      });
      return { taskIds, guardians };
    });
    await forgetUser(this.db, id);
    for (const g of guardians) await forgetUser(this.db, g);
    return taskIds;
  }
}
