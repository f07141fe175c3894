import type { CalendarEvent } from '@contract/calendar';
import { localToday } from '@web/lib/today';
import { calendarStatus, type CalendarStatusKey } from './calendar-settings';
import { nameCollator } from '@web/lib/collator';

/** The exercise of a teacher's entry: the title is 'exercise – student' (CONTRACT.md); a student's title is the exercise. */
export function exerciseOf(e: Pick<CalendarEvent, 'title' | 'student_name'>): string {
  const suffix = ` – ${e.student_name}`;
  return e.student_name && e.title.endsWith(suffix) ? e.title.slice(0, -suffix.length) : e.title;
}

/** The first word of a name ('Ayşe Demir' → 'Ayşe'). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

/** Adds n days to a YYYY-MM-DD date (calendar arithmetic, no time zone). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Days of the teacher's agenda: today and the next six. */
export const AGENDA_WEEK_DAYS = 7;

/** The agenda's week from today (end exclusive): the range the teacher's home loads first. */
export function agendaWeek(today: string = localToday()): { start: string; end: string } {
  return { start: today, end: addDays(today, AGENDA_WEEK_DAYS) };
}

export type AgendaEntry = { submissionId: number; studentId: number; studentName: string; status: CalendarStatusKey; event: CalendarEvent };
export type AgendaGroup = { exercise: string; entries: AgendaEntry[]; done: number };
export type AgendaDay = { date: string; groups: AgendaGroup[]; total: number };

/**
 * The agenda of `days` days from `from`: per day, the tasks grouped by exercise (exercises by name,
 * students by name inside), with how many of each group are done. Days without tasks are kept
 * (with no groups), so "nothing due" can be said per day.
 */
export function groupAgenda(events: readonly CalendarEvent[], from: string, days: number, locale = 'de'): AgendaDay[] {
  const collator = nameCollator(locale);
  const byDay = new Map<string, Map<string, AgendaEntry[]>>();
  for (const e of events) {
    const day = e.start.slice(0, 10);
    let groups = byDay.get(day);
    if (!groups) byDay.set(day, (groups = new Map()));
    const exercise = exerciseOf(e);
    const list = groups.get(exercise) ?? [];
    list.push({ submissionId: e.submission_id, studentId: e.student_id, studentName: e.student_name, status: calendarStatus(e), event: e });
    groups.set(exercise, list);
  }
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(from, i);
    const groups = [...(byDay.get(date) ?? new Map<string, AgendaEntry[]>()).entries()]
      .map(([exercise, entries]) => ({
        exercise,
        entries: entries.sort((a, b) => collator.compare(a.studentName, b.studentName) || a.submissionId - b.submissionId),
        done: entries.filter((x) => x.status === 'completed').length,
      }))
      .sort((a, b) => collator.compare(a.exercise, b.exercise));
    return { date, groups, total: groups.reduce((n, g) => n + g.entries.length, 0) };
  });
}
