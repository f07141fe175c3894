import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { invalid, notFound, type Msg } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import { ASSIGNMENT_ROWS_MAX } from '@contract/assignments';
import type { Submission } from '@contract/submissions';
import { recurrenceDates, recurrenceEndProblem } from '@contract/recurrence';
import type { RecurrenceType } from '@contract/constants';
import { deleteSeriesFrom, deleteTask, findLiveExercise, findOwnTask, insertTasks, ownStudentIds, ownsCourse } from './assignments.repo';

export const assignmentMessages = {
  exerciseNotFound: { de: 'Übung nicht gefunden.', tr: 'Alıştırma bulunamadı.' },
  studentNotFound: {
    de: 'Mindestens einer der gewählten Schüler wurde nicht gefunden.',
    tr: 'Seçilen öğrencilerden en az biri bulunamadı.',
  },
  courseNotFound: { de: 'Kurs nicht gefunden.', tr: 'Kurs bulunamadı.' },
  endBeforeDue: {
    de: 'Das Enddatum darf nicht vor dem Fälligkeitsdatum liegen.',
    tr: 'Bitiş tarihi teslim tarihinden önce olamaz.',
  },
  endTooFar: {
    de: 'Das Enddatum darf höchstens ein Jahr nach dem Fälligkeitsdatum liegen.',
    tr: 'Bitiş tarihi teslim tarihinden en fazla bir yıl sonra olabilir.',
  },
  tooMany: {
    de: `Zu viele Aufgaben auf einmal (höchstens ${ASSIGNMENT_ROWS_MAX.toLocaleString('de-DE')}). Bitte wählen Sie weniger Schüler oder ein früheres Enddatum.`,
    tr: `Tek seferde çok fazla ödev (en fazla ${ASSIGNMENT_ROWS_MAX.toLocaleString('tr-TR')}). Lütfen daha az öğrenci veya daha erken bir bitiş tarihi seçin.`,
  },
  taskNotFound: { de: 'Aufgabe nicht gefunden.', tr: 'Ödev bulunamadı.' },
} satisfies Record<string, Msg>;

export type AssignmentInput = {
  exercise_id: number;
  due_date: string;
  course_id?: number | null | undefined;
  teacher_note?: string | null | undefined;
  assignees: { users: number[] };
  recurrence_type?: RecurrenceType | undefined;
  recurrence_end_date?: string | null | undefined;
  expiration_days?: number | null | undefined;
};

export class AssignmentsService {
  constructor(private readonly db: Db) {}

  /**
   * Creates one task per student per date of the repetition, all in one transaction and one
   * INSERT, sharing a new series id; answers the new rows as findSubmissions would (without media). Checks (in this order): the exercise is the teacher's and not
   * deleted (404), the end date (422), the students are the teacher's (422), the course (422).
   */
  async create(teacher: Pick<AuthUser, 'id' | 'schoolId'>, input: AssignmentInput, today: string): Promise<Submission[]> {
    const { id: teacherId, schoolId } = teacher;
    const type = input.recurrence_type ?? 'none';
    const repeating = type !== 'none';
    const endDate = repeating ? (input.recurrence_end_date ?? null) : null;
    const studentIds = [...new Set(input.assignees.users)];
    const seriesId = randomUUID();

    return this.db.transaction(async (tx) => {
      const exercise = await findLiveExercise(tx, schoolId, teacherId, input.exercise_id);
      if (!exercise) throw notFound(assignmentMessages.exerciseNotFound);

      if (endDate !== null) {
        const problem = recurrenceEndProblem(input.due_date, endDate);
        if (problem) throw invalid({ recurrence_end_date: problem === 'before_due' ? assignmentMessages.endBeforeDue : assignmentMessages.endTooFar });
      }
      const dates = recurrenceDates(input.due_date, type, endDate);
      if (dates.length * studentIds.length > ASSIGNMENT_ROWS_MAX) {
        throw invalid({ [repeating ? 'recurrence_end_date' : 'assignees.users']: assignmentMessages.tooMany });
      }

      const own = await ownStudentIds(tx, schoolId, teacherId, studentIds);
      if (studentIds.some((id) => !own.has(id))) throw invalid({ 'assignees.users': assignmentMessages.studentNotFound });

      const courseId = input.course_id ?? null;
      if (courseId !== null && !(await ownsCourse(tx, schoolId, teacherId, courseId))) throw invalid({ course_id: assignmentMessages.courseNotFound });

      const task = {
        schoolId,
        teacherId,
        exerciseId: exercise.id,
        exerciseTitle: exercise.title,
        courseId,
        seriesId,
        teacherNote: input.teacher_note ?? null,
        expirationDays: input.expiration_days ?? null,
        studentIds,
        dates,
      };
      return insertTasks(tx, task, today);
    });
  }

  /** Deletes one task of the teacher's students, or with scope 'series' also the open rest of its series; answers the deleted ids. */
  async remove(teacher: Pick<AuthUser, 'id' | 'schoolId'>, id: number, scope: 'one' | 'series'): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      const task = await findOwnTask(tx, teacher.schoolId, teacher.id, id);
      if (!task) throw notFound(assignmentMessages.taskNotFound);
      if (scope === 'series') return deleteSeriesFrom(tx, teacher.schoolId, teacher.id, task);
      await deleteTask(tx, teacher.schoolId, task.id);
      return [task.id];
    });
  }
}
