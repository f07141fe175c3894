import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import type { Lang } from '../../errors';
import { notFound } from '../../errors';
import { COURSE_PROGRESS_COLUMNS, type CourseProgressColumn } from '@contract/reports';
import { csvCell, csvFile, csvNumber } from './csv';
import { courseProgress, findCourse } from './reports.repo';

export const COURSE_PROGRESS_HEADERS: Record<Lang, Record<CourseProgressColumn, string>> = {
  de: {
    name: 'Name',
    email: 'E-Mail',
    minutes_week: 'Übungszeit diese Woche (min)',
    minutes_month: 'Übungszeit diesen Monat (min)',
    tasks_completed: 'Erledigte Aufgaben',
    completion_rate: 'Abschlussquote (%)',
    average_accuracy: 'Durchschnittliche Genauigkeit (%)',
    last_practice: 'Zuletzt geübt',
  },
  tr: {
    name: 'Ad',
    email: 'E-posta',
    minutes_week: 'Bu haftaki çalışma süresi (dk)',
    minutes_month: 'Bu ayki çalışma süresi (dk)',
    tasks_completed: 'Tamamlanan ödevler',
    completion_rate: 'Tamamlanma oranı (%)',
    average_accuracy: 'Ortalama doğruluk (%)',
    last_practice: 'Son çalışma',
  },
};

export class ReportsService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  /** The course's progress as a CSV file (text with BOM) and its file name; another teacher's course → 404. */
  async courseProgressCsv(
    teacher: Pick<AuthUser, 'id' | 'schoolId'>,
    courseId: number,
    today: string,
    lang: Lang,
  ): Promise<{ csv: string; filename: string }> {
    const course = await findCourse(this.db, teacher.schoolId, teacher.id, courseId);
    if (!course) throw notFound();
    const students = await courseProgress(this.db, teacher.schoolId, teacher.id, courseId, today, this.timeZone);
    const header = COURSE_PROGRESS_COLUMNS.map((c) => csvCell(COURSE_PROGRESS_HEADERS[lang][c]));
    const body = students.map((s) => [
      csvCell(s.name),
      csvCell(s.email),
      csvNumber(s.minutes_week),
      csvNumber(s.minutes_month),
      String(s.tasks_completed),
      csvNumber(s.completion_rate, 1),
      csvNumber(s.average_accuracy),
      csvCell(s.last_practice),
    ]);
    const prefix = lang === 'tr' ? 'kurs-ilerlemesi' : 'kursfortschritt';
    return { csv: csvFile([header, ...body]), filename: `${prefix}-${course.id}-${today}.csv` };
  }
}
