import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import { courses, exerciseCourses, exercises, mediaFiles } from '../../db/schema/index';
import type { Exercise } from '@contract/exercises';
import type { MediaFile } from '@contract/submissions';
import type { Category, Difficulty } from '@contract/constants';
import type { ExerciseSettings } from '@contract/exercise-settings';
import type { TempoUnit } from '@contract/music-keys';

type Row = {
  id: number;
  title: string;
  description: string | null;
  category: Category | null;
  difficulty: Difficulty | null;
  target: string | null;
  estimated_minutes: number | null;
  tags: string[] | string;
  priority: number;
  language: 'de' | 'tr';
  created_at: Date | string;
  courses: Array<{ id: number; name: string }> | string;
  media_files: MediaFile[] | string;
} & SettingsRow;

/** The settings' columns as read by a raw query (jsonb may come back as text). */
export type SettingsRow = Omit<ExerciseSettings, 'usul_pattern'> & { usul_pattern: ExerciseSettings['usul_pattern'] | string };

/** The settings' columns of `exercises e`, for a raw select (aliased with `prefix`). */
export const settingsColumns = (prefix = '') =>
  sql.raw(
    ['tempo_bpm', 'tempo_unit', 'meter', 'meter_grouping', 'usul', 'usul_pattern', 'makam', 'durak'].map((c) => `e.${c} as ${prefix}${c}`).join(', '),
  );

/** The settings of a row read with settingsColumns(prefix). */
export function settingsOf(r: Record<string, unknown>, prefix = ''): ExerciseSettings {
  const v = (c: string) => r[prefix + c] ?? null;
  const pattern = v('usul_pattern');
  const tempo = v('tempo_bpm');
  return {
    tempo_bpm: tempo === null ? null : Number(tempo),
    tempo_unit: v('tempo_unit') as ExerciseSettings['tempo_unit'],
    meter: v('meter') as string | null,
    meter_grouping: v('meter_grouping') as string | null,
    usul: v('usul') as ExerciseSettings['usul'],
    usul_pattern: (typeof pattern === 'string' ? JSON.parse(pattern) : pattern) as ExerciseSettings['usul_pattern'],
    makam: v('makam') as ExerciseSettings['makam'],
    durak: v('durak') as string | null,
  };
}

export type ExerciseRow = Omit<Exercise, 'category_label'>;

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** Every statement of this file stays inside one school (`school_id`, docs/decisions/schools-and-roles.md). */
export type ListFilter = { schoolId: number; teacherId: number; courseId?: number; ids?: number[]; limit?: number; offset?: number };

function whereOf(f: ListFilter): SQL {
  const where: SQL[] = [sql`e.school_id = ${f.schoolId}`, sql`e.teacher_id = ${f.teacherId}`, sql`e.deleted_at is null`];
  if (f.courseId !== undefined)
    where.push(sql`exists (select 1 from exercise_courses ec where ec.exercise_id = e.id and ec.school_id = e.school_id and ec.course_id = ${f.courseId})`);
  if (f.ids) where.push(f.ids.length ? sql`e.id in (${sql.join(f.ids.map((i) => sql`${i}`), sql`, `)})` : sql`false`);
  return sql.join(where, sql` and `);
}

/** The teacher's live exercises, newest first, with courses and media aggregated in SQL. */
export async function findExercises(db: DbOrTx, f: ListFilter): Promise<ExerciseRow[]> {
  const result = await rows<Row>(
    db,
    sql`select e.id, e.title, e.description, e.category, e.difficulty, e.target, e.estimated_minutes, e.tags,
        e.priority, e.language, e.created_at, ${settingsColumns()},
        coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.name, c.id)
          from exercise_courses ec join courses c on c.id = ec.course_id and c.school_id = ec.school_id
          where ec.exercise_id = e.id and ec.school_id = e.school_id), '[]'::json) as courses,
        coalesce((select json_agg(json_build_object('id', m.id, 'type', m.type, 'path', m.path, 'filename', m.filename,
          'size', m.size, 'mime_type', m.mime_type) order by m.id) from media_files m where m.exercise_id = e.id and m.school_id = e.school_id), '[]'::json) as media_files
      from exercises e
      where ${whereOf(f)}
      order by e.created_at desc, e.id desc
      ${f.limit !== undefined ? sql`limit ${f.limit} offset ${f.offset ?? 0}` : sql``}`,
  );
  return result.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    category: r.category,
    difficulty: r.difficulty,
    target: r.target,
    estimated_minutes: r.estimated_minutes,
    tags: json(r.tags),
    priority: Number(r.priority),
    language: r.language,
    created_at: new Date(r.created_at).toISOString(),
    courses: json(r.courses),
    media_files: json(r.media_files).map((m) => ({ ...m, size: Number(m.size) })),
    ...settingsOf(r),
  }));
}

export async function countExercises(db: DbOrTx, f: ListFilter): Promise<number> {
  const r = await rows<{ n: number }>(db, sql`select count(*)::int as n from exercises e where ${whereOf(f)}`);
  return Number(r[0]?.n ?? 0);
}

/** The id of a live exercise of this teacher, locked for the rest of the transaction. */
export async function lockOwnExercise(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<boolean> {
  const r = await rows<{ id: number }>(
    db,
    sql`select id from exercises where id = ${id} and school_id = ${schoolId} and teacher_id = ${teacherId} and deleted_at is null for update`,
  );
  return r.length === 1;
}

/** Which of these course ids belong to the teacher. */
export async function ownCourseIds(db: DbOrTx, schoolId: number, teacherId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const found = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.schoolId, schoolId), eq(courses.teacherId, teacherId), inArray(courses.id, ids)));
  return new Set(found.map((c) => c.id));
}

export type ExerciseValues = {
  title: string;
  description: string | null;
  category: Category | null;
  difficulty: Difficulty | null;
  target: string | null;
  estimatedMinutes: number | null;
  tags: string[];
  priority: number;
  language: 'de' | 'tr';
  tempoBpm: number | null;
  tempoUnit: TempoUnit | null;
  meter: string | null;
  meterGrouping: string | null;
  usul: string | null;
  usulPattern: Array<'dum' | 'tek' | 'rest'> | null;
  makam: string | null;
  durak: string | null;
};

export async function insertExercise(db: DbOrTx, schoolId: number, teacherId: number, v: ExerciseValues): Promise<number> {
  const [row] = await db.insert(exercises).values({ schoolId, teacherId, ...v }).returning({ id: exercises.id });
  if (!row) throw new Error('insert exercise');
  return row.id;
}

export async function updateExercise(db: DbOrTx, schoolId: number, id: number, v: ExerciseValues): Promise<void> {
  await db
    .update(exercises)
    .set({ ...v, updatedAt: sql`now()` })
    .where(and(eq(exercises.id, id), eq(exercises.schoolId, schoolId)));
}

export async function replaceCourses(db: DbOrTx, schoolId: number, exerciseId: number, courseIds: number[]): Promise<void> {
  await db.delete(exerciseCourses).where(and(eq(exerciseCourses.exerciseId, exerciseId), eq(exerciseCourses.schoolId, schoolId)));
  if (courseIds.length) await db.insert(exerciseCourses).values(courseIds.map((courseId) => ({ schoolId, exerciseId, courseId })));
}

/** Media rows of an exercise among these ids. */
export async function mediaOfExercise(db: DbOrTx, schoolId: number, exerciseId: number, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: mediaFiles.id, path: mediaFiles.path })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.exerciseId, exerciseId), eq(mediaFiles.schoolId, schoolId), inArray(mediaFiles.id, ids)));
}

export async function deleteMedia(db: DbOrTx, schoolId: number, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(mediaFiles).where(and(inArray(mediaFiles.id, ids), eq(mediaFiles.schoolId, schoolId)));
}

export async function insertMedia(
  db: DbOrTx,
  rowsIn: Array<{ schoolId: number; exerciseId: number; type: 'image' | 'pdf' | 'video'; path: string; filename: string; size: number; mimeType: string }>,
): Promise<number[]> {
  if (!rowsIn.length) return [];
  const r = await db.insert(mediaFiles).values(rowsIn).returning({ id: mediaFiles.id });
  return r.map((x) => x.id);
}

export async function countMedia(db: DbOrTx, schoolId: number, exerciseId: number): Promise<number> {
  const r = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.exerciseId, exerciseId), eq(mediaFiles.schoolId, schoolId)));
  return Number(r[0]?.n ?? 0);
}

/** Soft delete: the row stays for the submissions that use it. */
export async function softDeleteExercise(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<boolean> {
  const r = await db
    .update(exercises)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(exercises.id, id), eq(exercises.schoolId, schoolId), eq(exercises.teacherId, teacherId), isNull(exercises.deletedAt)))
    .returning({ id: exercises.id });
  return r.length === 1;
}

/**
 * Which of these media paths a media_files row names, in any school: the start's sweep of the
 * media store (paths are unique across schools; the files are not stored by school).
 */
export async function knownMediaPaths(db: DbOrTx, paths: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < paths.length; i += 500) {
    const chunk = paths.slice(i, i + 500);
    const found = await db.select({ path: mediaFiles.path }).from(mediaFiles).where(inArray(mediaFiles.path, chunk));
    for (const f of found) known.add(f.path);
  }
  return known;
}
