import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { invalid, notFound, type Lang, type Msg } from '../../errors';
import { forgetUser, type AuthUser } from '../../lib/auth';
import { audit } from '../../lib/audit';
import { clusterOf } from '../../lib/cluster';
import type { Storage } from '../../lib/storage';
import { todayInZone } from '../../lib/time';
import {
  SCHOOL_WEEKS,
  type AuditLogResponse,
  type School,
  type SchoolDashboard,
  type SchoolStudent,
  type SchoolStudentListQuery,
  type SchoolTeacher,
  type StudentErased,
} from '@contract/school';
import {
  auditLogPage,
  dashboardFigures,
  deactivateTeacher,
  eraseCounts,
  eraseStudent,
  findSchool,
  findStudent,
  findTeacher,
  listSchoolStudents,
  listTeachers,
  moveStudent,
  reactivateTeacher,
  recordingFilesOf,
  renameSchool,
  studentExportData,
  type StudentExportData,
} from './school.repo';
import { recordingFolder } from '../recordings/recordings.service';
import { forgetStudent } from './forget';

export const schoolMessages = {
  teacherNotActive: {
    de: 'Bitte wählen Sie eine aktive Lehrkraft dieser Schule.',
    tr: 'Lütfen bu okulun aktif bir öğretmenini seçin.',
  },
  sameTeacher: {
    de: 'Der Schüler ist bereits bei dieser Lehrkraft.',
    tr: 'Öğrenci zaten bu öğretmende.',
  },
  confirmName: {
    de: 'Der eingegebene Name stimmt nicht mit dem Namen des Schülers überein.',
    tr: 'Girilen ad öğrencinin adıyla eşleşmiyor.',
  },
  /** What an erasure cannot reach: the backups (docs/deploy.md, "Schools, invitations and erasure"). */
  backupsNote: {
    de:
      'Die Daten sind aus der Übungskontrolle gelöscht. Sicherungen (Backups), die vor diesem Zeitpunkt erstellt wurden, ' +
      'enthalten sie noch, bis sie turnusmäßig gelöscht werden. Wird eine solche Sicherung wiederhergestellt, muss der Schüler erneut gelöscht werden.',
    tr:
      "Veriler Übungskontrolle'den silindi. Bu andan önce alınmış yedekler, sırası geldiğinde silinene kadar bu verileri " +
      'içermeye devam eder. Böyle bir yedek geri yüklenirse öğrencinin yeniden silinmesi gerekir.',
  },
} satisfies Record<string, Msg>;

/** What the export zip holds besides student.json: the recordings' files, read from the media store. */
export type ExportFile = { path: string; name: string; mtime: Date };

/** A recording's file name inside the zip: `recordings/<id>-<name>` with only safe characters. */
export function exportFileName(id: number, filename: string): string {
  const safe = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-100);
  return `recordings/${id}-${safe || 'aufnahme'}`;
}

const sameName = (a: string, b: string) => a.trim().normalize('NFC') === b.trim().normalize('NFC');

/**
 * The school's administration (docs/decisions/schools-and-roles.md): figures, teachers, students, moves, the audit log and the
 * data rights. Every call is the administrator's and stays inside their school (404 for anything of
 * another school, exactly like an id that does not exist).
 */
export class SchoolService {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly timeZone: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async school(admin: AuthUser): Promise<School> {
    const s = await findSchool(this.db, admin.schoolId);
    if (!s) throw notFound();
    return { ...s, time_zone: this.timeZone };
  }

  async rename(admin: AuthUser, name: string): Promise<School> {
    await this.db.transaction(async (tx) => {
      const old = await renameSchool(tx, admin.schoolId, name);
      if (old === undefined) throw notFound();
      if (old !== name) await audit(tx, admin, 'school.rename', { type: 'school', id: admin.schoolId, name }, { from: old, to: name });
    });
    return this.school(admin);
  }

  async dashboard(admin: AuthUser, now = new Date()): Promise<SchoolDashboard> {
    const school = await this.school(admin);
    const figures = await dashboardFigures(this.db, admin.schoolId, todayInZone(this.timeZone, now), this.timeZone, SCHOOL_WEEKS);
    return { school, ...figures };
  }

  teachers(admin: AuthUser): Promise<SchoolTeacher[]> {
    return listTeachers(this.db, admin.schoolId);
  }

  private async teacher(admin: AuthUser, id: number): Promise<SchoolTeacher> {
    const [t] = await listTeachers(this.db, admin.schoolId, [id]);
    if (!t) throw notFound();
    return t;
  }

  /**
   * The teacher can no longer sign in, and a token they hold stops working at once in every server
   * process; their students and everything of them stay. Deactivating a deactivated teacher changes nothing.
   */
  async deactivate(admin: AuthUser, id: number): Promise<SchoolTeacher> {
    const changed = await this.db.transaction(async (tx) => {
      const t = await findTeacher(tx, admin.schoolId, id, { forUpdate: true });
      if (!t) throw notFound();
      if (t.deactivated) return false;
      await deactivateTeacher(tx, admin.schoolId, id);
      await audit(tx, admin, 'teacher.deactivate', { type: 'user', id, name: t.name });
      return true;
    });
    if (changed) await forgetUser(this.db, id);
    return this.teacher(admin, id);
  }

  async reactivate(admin: AuthUser, id: number): Promise<SchoolTeacher> {
    await this.db.transaction(async (tx) => {
      const t = await findTeacher(tx, admin.schoolId, id, { forUpdate: true });
      if (!t) throw notFound();
      if (!t.deactivated) return;
      await reactivateTeacher(tx, admin.schoolId, id);
      await audit(tx, admin, 'teacher.reactivate', { type: 'user', id, name: t.name });
    });
    return this.teacher(admin, id);
  }

  students(admin: AuthUser, q: Pick<SchoolStudentListQuery, 'q' | 'teacher_id'>): Promise<SchoolStudent[]> {
    return listSchoolStudents(this.db, admin.schoolId, { ...(q.q ? { q: q.q } : {}), ...(q.teacher_id !== undefined ? { teacherId: q.teacher_id } : {}) });
  }

  /**
   * The student with every task, practice session and recording goes to another active teacher of
   * the school (422 errors.teacher_id otherwise); the enrolments in the old teacher's courses end.
   * One transaction; both teachers' kept lists are dropped in every process.
   */
  async move(admin: AuthUser, id: number, teacherId: number): Promise<SchoolStudent> {
    const from = await this.db.transaction(async (tx) => {
      const s = await findStudent(tx, admin.schoolId, id, { forUpdate: true });
      if (!s) throw notFound();
      const to = await findTeacher(tx, admin.schoolId, teacherId, { forUpdate: true });
      if (!to || to.deactivated) throw invalid({ teacher_id: schoolMessages.teacherNotActive });
      if (to.id === s.teacherId) throw invalid({ teacher_id: schoolMessages.sameTeacher });
      const moved = await moveStudent(tx, admin.schoolId, id, s.teacherId, to.id);
      await audit(tx, admin, 'student.move', { type: 'user', id, name: s.name }, {
        from: { id: s.teacherId, name: s.teacherName },
        to: { id: to.id, name: to.name },
        tasks: moved.tasks,
        recordings: moved.recordings,
        enrolments_removed: moved.enrolments,
      });
      return s.teacherId;
    });
    const cluster = clusterOf(this.db);
    await cluster.publish({ kind: 'tenant', id: from });
    await cluster.publish({ kind: 'tenant', id: teacherId });
    // The student's signed-in sessions now belong to the new teacher's tenant.
    await forgetUser(this.db, id);
    const [student] = await listSchoolStudents(this.db, admin.schoolId, { ids: [id] });
    if (!student) throw notFound();
    return student;
  }

  async auditLog(admin: AuthUser, before?: number): Promise<AuditLogResponse> {
    return auditLogPage(this.db, admin.schoolId, before);
  }

  /**
   * Everything stored about a student (student.json) and their recordings' files, for the export
   * zip. Audited as 'student.export' with what it holds. A file the media store no longer holds is
   * named in student.json with `file: null`.
   */
  async exportStudent(admin: AuthUser, id: number, now = new Date()): Promise<{ json: Buffer; files: ExportFile[]; student: { id: number; name: string } }> {
    const data = await this.db.transaction(async (tx) => {
      const d = await studentExportData(tx, admin.schoolId, id);
      if (!d) throw notFound();
      await audit(tx, admin, 'student.export', { type: 'user', id, name: d.student.name }, {
        tasks: d.tasks.length,
        practice_sessions: d.practice_sessions.length,
        recordings: d.recordings.length,
        messages: d.messages.length,
      });
      return d;
    });
    const school = await this.school(admin);
    const files: ExportFile[] = [];
    const recordings = [];
    for (const r of data.recordings) {
      const { path, ...rest } = r;
      let stat: { size: number; mtime: Date } | null = null;
      try {
        stat = await this.storage.stat(path);
      } catch (err) {
        this.log.warn({ err, recordingId: r.id }, 'export: could not look up a recording file');
      }
      const name = exportFileName(r.id, r.filename);
      if (stat) files.push({ path, name, mtime: new Date(r.created_at) });
      // a spoken comment's clip beside its take: recordings/<take id>-kommentar-<comment id>.<ext>
      const comments = [];
      for (const { audio_path, ...c } of r.comments) {
        if (!audio_path) {
          comments.push({ ...c, audio_file: null });
          continue;
        }
        const clip = await this.storage.stat(audio_path).catch((err: unknown) => {
          this.log.warn({ err, commentId: c.id }, 'export: could not look up a spoken comment');
          return null;
        });
        const clipName = exportFileName(r.id, `kommentar-${c.id}.${audio_path.split('.').pop() ?? 'webm'}`);
        if (clip) files.push({ path: audio_path, name: clipName, mtime: new Date(c.created_at) });
        comments.push({ ...c, audio_file: clip ? clipName : null });
      }
      recordings.push({ ...rest, comments, file: stat ? name : null });
    }
    const doc: Record<string, unknown> & Omit<StudentExportData, 'recordings'> = {
      format: 'uebungskontrolle-student-export',
      version: 1,
      exported_at: now.toISOString(),
      exported_by: { id: admin.id, name: admin.name },
      school,
      ...data,
      recordings,
    };
    return { json: Buffer.from(`${JSON.stringify(doc, null, 2)}\n`, 'utf8'), files, student: { id: data.student.id, name: data.student.name } };
  }

  /**
   * Erases a student completely: the recordings' files from the media store, then in one
   * transaction the account with everything hanging on it and the guardian accounts left without a
   * child, audited as 'student.erase' with the counts. A file that cannot be deleted is logged and
   * not counted (the rows go anyway); `files` says how many were deleted.
   */
  async erase(admin: AuthUser, id: number, confirmName: string, lang: Lang): Promise<StudentErased> {
    const s = await findStudent(this.db, admin.schoolId, id);
    if (!s) throw notFound();
    if (!sameName(confirmName, s.name)) throw invalid({ confirm_name: schoolMessages.confirmName });
    const removeFile = async (path: string): Promise<boolean> => {
      try {
        if (!(await this.storage.stat(path))) return false;
        await this.storage.remove(path);
        return true;
      } catch (err) {
        this.log.warn({ err, studentId: id }, 'erase: could not delete a recording file');
        return false;
      }
    };
    const first = await recordingFilesOf(this.db, admin.schoolId, id);
    let files = 0;
    for (const f of first) if (await removeFile(f.path)) files++;
    const done = new Set(first.map((f) => f.path));
    const result = await this.db.transaction(async (tx) => {
      const again = await findStudent(tx, admin.schoolId, id, { forUpdate: true });
      if (!again) throw notFound();
      const counts = await eraseCounts(tx, admin.schoolId, id);
      // A recording sent between the first look and the lock: its file too (rare, usually none).
      for (const f of await recordingFilesOf(tx, admin.schoolId, id)) if (!done.has(f.path) && (await removeFile(f.path))) files++;
      // Names and addresses copied elsewhere (invitations, audit entries) go first (forget.ts).
      await forgetStudent(tx, admin.schoolId, id);
      const guardians = await eraseStudent(tx, admin.schoolId, id);
      const erased = { tasks: counts.tasks, practice_sessions: counts.practice_sessions, recordings: counts.recordings, files, guardian_accounts: guardians.length };
      // Who erased which accounts, when: ids only, no name of the erased.
      await audit(tx, admin, 'student.erase', { type: 'user', id, name: null }, { teacher_id: again.teacherId, ...erased, guardian_account_ids: guardians });
      return { erased, guardians, taskIds: counts.task_ids, teacherId: again.teacherId };
    });
    // Whatever else a task's folder held (a half-stored upload): gone with the task.
    for (const taskId of result.taskIds) {
      await this.storage.removeFolder(recordingFolder(taskId)).catch((err: unknown) => this.log.warn({ err, taskId }, 'erase: could not delete a task folder'));
    }
    for (const userId of [id, ...result.guardians]) await forgetUser(this.db, userId);
    await clusterOf(this.db).publish({ kind: 'tenant', id: result.teacherId });
    return { erased: result.erased, backups_note: schoolMessages.backupsNote[lang] };
  }
}
