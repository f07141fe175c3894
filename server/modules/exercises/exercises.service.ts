import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError, invalid, messages, notFound, type Lang, type Msg } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import type { Storage } from '../../lib/storage';
import { CATEGORIES, type Category } from '@contract/constants';
import { exerciseFields, type Exercise, type ExerciseCategories, type ExerciseListQuery, type ExerciseListResponse } from '@contract/exercises';
import * as repo from './exercises.repo';
import { discardStaged, type ParsedForm } from './exercises.upload';
import type { StorageQuota } from '../storage/storage.service';

/** The nine categories of SPEC.md in both languages. */
export const CATEGORY_LABELS: Record<Category, Msg> = {
  atem_kontrolle: { de: 'Atem & Kontrolle', tr: 'Nefes ve Kontrol' },
  tonbildung: { de: 'Tonbildung', tr: 'Ses Oluşumu' },
  noten_finger: { de: 'Noten & Finger', tr: 'Nota ve Parmak' },
  haltung_technik: { de: 'Haltung & Technik', tr: 'Duruş ve Teknik' },
  rhythmus_tempo: { de: 'Rhythmus & Tempo', tr: 'Ritim ve Tempo' },
  makam: { de: 'Makam', tr: 'Makam' },
  hoer_nachspiel: { de: 'Hören & Nachspielen', tr: 'Dinleme ve Tekrar Çalma' },
  theorie_reflexion: { de: 'Theorie & Reflexion', tr: 'Teori ve Değerlendirme' },
  kombinationen: { de: 'Kombinationen & Wochenpläne', tr: 'Kombinasyonlar ve Haftalık Planlar' },
};

export function categoryLabels(lang: Lang): ExerciseCategories {
  return Object.fromEntries(CATEGORIES.map((k) => [k, CATEGORY_LABELS[k][lang]])) as ExerciseCategories;
}

const text = {
  courseNotFound: { de: 'Kurs nicht gefunden.', tr: 'Kurs bulunamadı.' },
  mediaNotFound: { de: 'Datei nicht gefunden.', tr: 'Dosya bulunamadı.' },
  tooManyMedia: { de: 'Höchstens 30 Dateien pro Übung.', tr: 'Bir alıştırma için en fazla 30 dosya.' },
  notMultipart: {
    de: 'Bitte senden Sie das Formular als multipart/form-data.',
    tr: 'Lütfen formu multipart/form-data olarak gönderin.',
  },
};
const MAX_MEDIA_PER_EXERCISE = 30;

/** The teacher whose exercises a call reads or writes, and their school (every statement stays inside it). */
export type ExerciseOwner = Pick<AuthUser, 'id' | 'schoolId'>;

const localeDe = z.locales.de();
const localeTr = z.locales.tr();
function issueMsg(issue: z.core.$ZodIssue): Msg {
  if (issue.code === 'too_small' && (issue as { origin?: string }).origin === 'string' && issue.minimum === 1) return messages.required;
  // a contract check with its own text (contract/common.ts IssueMsg), e.g. the exercise settings
  const own = (issue as { params?: { msg?: Msg } }).params?.msg;
  if (own) return own;
  const one = (l: typeof localeDe) => {
    const r = l.localeError(issue as never) as string | { message: string } | undefined;
    return (typeof r === 'string' ? r : r?.message) ?? issue.message;
  };
  return { de: one(localeDe), tr: one(localeTr) };
}

export const notMultipart = () => new AppError(415, text.notMultipart);

/**
 * Files under exercises/{id}/media that no media_files row names: left by a crash between moving an
 * upload into place and its commit. Moved aside to DATA_DIR/media-orphans, or media-orphans/ in
 * the bucket (never deleted: a misconfigured DATABASE_URL must not cost a school its files), with
 * a warning. Files younger than `minAgeMs` are left (an upload of another process may be committing).
 */
export async function moveOrphanMediaAside(db: Db, storage: Storage, log: FastifyBaseLogger, minAgeMs = 0): Promise<number> {
  const candidates: string[] = [];
  const now = Date.now();
  for await (const f of storage.list('exercises')) {
    if (/^exercises\/[^/]+\/media\/[^/]+$/.test(f.path) && now - f.mtime.getTime() >= minAgeMs) candidates.push(f.path);
  }
  if (!candidates.length) return 0;
  const known = await repo.knownMediaPaths(db, candidates);
  const orphans = candidates.filter((p) => !known.has(p));
  for (const p of orphans) await storage.moveAside(p);
  if (orphans.length) log.warn({ count: orphans.length }, 'media files without a database row moved to media-orphans');
  return orphans.length;
}

export class ExercisesService {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    /** The school's storage quota (docs/decisions/storage-quota.md): new media count in the school's total. */
    private readonly quota?: StorageQuota,
  ) {}

  async list(teacher: ExerciseOwner, q: ExerciseListQuery, lang: Lang): Promise<ExerciseListResponse> {
    const filter: repo.ListFilter = { schoolId: teacher.schoolId, teacherId: teacher.id, ...(q.course_id !== undefined ? { courseId: q.course_id } : {}) };
    if (q.page === undefined) {
      const list = await repo.findExercises(this.db, filter);
      return {
        exercises: list.map((e) => this.withLabel(e, lang)),
        pagination: { total: list.length, current_page: 1, per_page: Math.max(list.length, 1), last_page: 1 },
      };
    }
    const perPage = q.per_page ?? 15;
    const [total, list] = await Promise.all([
      repo.countExercises(this.db, filter),
      repo.findExercises(this.db, { ...filter, limit: perPage, offset: (q.page - 1) * perPage }),
    ]);
    return {
      exercises: list.map((e) => this.withLabel(e, lang)),
      pagination: { total, current_page: q.page, per_page: perPage, last_page: Math.max(1, Math.ceil(total / perPage)) },
    };
  }

  async get(teacher: ExerciseOwner, id: number, lang: Lang): Promise<Exercise> {
    const [e] = await repo.findExercises(this.db, { schoolId: teacher.schoolId, teacherId: teacher.id, ids: [id] });
    if (!e) throw notFound();
    return this.withLabel(e, lang);
  }

  /** 404 unless the exercise is the teacher's and not deleted (checked before the upload is read). */
  async assertOwn(teacher: ExerciseOwner, id: number): Promise<void> {
    const [e] = await repo.findExercises(this.db, { schoolId: teacher.schoolId, teacherId: teacher.id, ids: [id], limit: 1 });
    if (!e) throw notFound();
  }

  /** Creates (id undefined) or updates an exercise from a read multipart form; consumes the staged files. */
  async save(teacher: ExerciseOwner, id: number | undefined, form: ParsedForm, lang: Lang): Promise<Exercise> {
    const { id: teacherId, schoolId } = teacher;
    const moved: string[] = [];
    let committed = false;
    try {
      const parsed = exerciseFields.safeParse(form.fields);
      const errors: Record<string, Msg[]> = { ...form.fileErrors };
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          // a field left out of the form entirely is reported as required, like a blank one
          const missing = issue.code === 'invalid_type' && issue.path.length === 1 && !(String(issue.path[0]) in form.fields);
          (errors[issue.path.map(String).join('.') || 'body'] ??= []).push(missing ? messages.required : issueMsg(issue));
        }
      }
      if (!parsed.success || Object.keys(errors).length) throw invalid(errors);
      const f = parsed.data;
      if (id === undefined && f.remove_media.length) throw invalid({ 'remove_media.0': text.mediaNotFound });

      const own = await repo.ownCourseIds(this.db, schoolId, teacherId, f.course_ids);
      const courseErrors: Record<string, Msg> = {};
      f.course_ids.forEach((c, i) => {
        if (!own.has(c)) courseErrors[`course_ids.${i}`] = text.courseNotFound;
      });
      if (Object.keys(courseErrors).length) throw invalid(courseErrors);

      const values: repo.ExerciseValues = {
        title: f.title,
        description: f.description ?? null,
        category: f.category ?? null,
        difficulty: f.difficulty ?? null,
        target: f.target ?? null,
        estimatedMinutes: f.estimated_minutes ?? null,
        tags: f.tags,
        priority: f.priority ?? 2,
        language: f.language ?? 'de',
        // Like the other optional fields, a setting left out of an update (or blank) is cleared.
        tempoBpm: f.tempo_bpm ?? null,
        tempoUnit: f.tempo_unit ?? null,
        meter: f.meter ?? null,
        meterGrouping: f.meter_grouping ?? null,
        usul: f.usul ?? null,
        usulPattern: f.usul_pattern ?? null,
        makam: f.makam ?? null,
        durak: f.durak ?? null,
      };

      const planned = form.files.map((file) => ({ file, name: `${randomBytes(16).toString('hex')}.${file.ext}` }));
      let removedPaths: string[] = [];
      const exerciseId = await this.db.transaction(async (tx) => {
        let exId: number;
        if (id === undefined) {
          exId = await repo.insertExercise(tx, schoolId, teacherId, values);
        } else {
          if (!(await repo.lockOwnExercise(tx, schoolId, teacherId, id))) throw notFound();
          exId = id;
          await repo.updateExercise(tx, schoolId, exId, values);
          const removable = await repo.mediaOfExercise(tx, schoolId, exId, f.remove_media);
          const found = new Set(removable.map((m) => m.id));
          const missing: Record<string, Msg> = {};
          f.remove_media.forEach((m, i) => {
            if (!found.has(m)) missing[`remove_media.${i}`] = text.mediaNotFound;
          });
          if (Object.keys(missing).length) throw invalid(missing);
          await repo.deleteMedia(tx, schoolId, [...found]);
          removedPaths = removable.map((m) => m.path);
        }
        await repo.replaceCourses(tx, schoolId, exId, [...new Set(f.course_ids)]);
        // New media against the school's quota, after the removed ones were freed and the school's
        // uploads before this one committed.
        const newBytes = planned.reduce((sum, p) => sum + p.file.size, 0);
        if (newBytes > 0) await this.quota?.assertRoom(tx, { schoolId, studentId: null }, newBytes, { lock: true, field: 'media_files' });
        await repo.insertMedia(
          tx,
          planned.map(({ file, name }) => ({
            schoolId,
            exerciseId: exId,
            type: file.kind,
            path: `exercises/${exId}/media/${name}`,
            filename: file.filename,
            size: file.size,
            mimeType: file.mimeType,
          })),
        );
        if ((await repo.countMedia(tx, schoolId, exId)) > MAX_MEDIA_PER_EXERCISE) throw invalid({ media_files: text.tooManyMedia });
        // Files into place BEFORE the commit (a rename on the same disk, or a streamed upload to the
        // bucket that leaves no object when it fails, lib/storage-s3.ts): a crash in between
        // leaves at worst a file without a row (moved aside at the next start), never a row
        // without its file. If the commit fails, `finally` removes the moved files.
        for (const { file, name } of planned) {
          const path = `exercises/${exId}/media/${name}`;
          await this.storage.putFile(path, file.tempFile);
          moved.push(path);
        }
        return exId;
      });
      committed = true;
      for (const p of removedPaths) {
        await this.storage.remove(p).catch((err: unknown) => this.log.warn({ err, path: p }, 'could not delete a removed media file'));
      }
      return await this.get(teacher, exerciseId, lang);
    } finally {
      await discardStaged(form.files);
      if (!committed && moved.length) await Promise.all(moved.map((p) => this.storage.remove(p).catch(() => {})));
    }
  }

  async remove(teacher: ExerciseOwner, id: number): Promise<void> {
    if (!(await repo.softDeleteExercise(this.db, teacher.schoolId, teacher.id, id))) throw notFound();
  }

  private withLabel(e: repo.ExerciseRow, lang: Lang): Exercise {
    return { ...e, category_label: e.category ? CATEGORY_LABELS[e.category][lang] : null };
  }
}
