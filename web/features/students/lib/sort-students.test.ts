import { describe, expect, it } from 'vitest';
import type { Student, StudentProgress } from '@contract/students';
import { daysSince, sortStudentRows, type StudentRow } from './sort-students';

const row = (id: number, name: string, p?: Partial<StudentProgress>): StudentRow => ({
  student: { id, name, email: `${id}@x.test`, phone: null, notes: null, created_at: '2026-01-01T00:00:00.000Z', courses: [] } satisfies Student,
  progress: p ? { student_id: id, last_practice_at: null, week_minutes: 0, open_count: 0, overdue_count: 0, ...p } : undefined,
});

const rows = [
  row(1, 'Zeynep', { last_practice_at: '2026-05-01T10:00:00.000Z', week_minutes: 30, open_count: 1, overdue_count: 2 }),
  row(2, 'ayşe', { last_practice_at: null, week_minutes: 0, open_count: 3, overdue_count: 0 }),
  row(3, 'Lukas', { last_practice_at: '2026-05-03T10:00:00.000Z', week_minutes: 12.5, open_count: 1, overdue_count: 2 }),
];
const names = (r: StudentRow[]) => r.map((x) => x.student.name);

describe('sortStudentRows', () => {
  it('by name, either direction, ignoring case', () => {
    expect(names(sortStudentRows(rows, 'name', 'asc'))).toEqual(['ayşe', 'Lukas', 'Zeynep']);
    expect(names(sortStudentRows(rows, 'name', 'desc'))).toEqual(['Zeynep', 'Lukas', 'ayşe']);
  });
  it('by last practice: never first when ascending', () => {
    expect(names(sortStudentRows(rows, 'last', 'asc'))).toEqual(['ayşe', 'Zeynep', 'Lukas']);
    expect(names(sortStudentRows(rows, 'last', 'desc'))).toEqual(['Lukas', 'Zeynep', 'ayşe']);
  });
  it('by minutes and counts, ties by name', () => {
    expect(names(sortStudentRows(rows, 'week', 'asc'))).toEqual(['ayşe', 'Lukas', 'Zeynep']);
    expect(names(sortStudentRows(rows, 'overdue', 'desc'))).toEqual(['Lukas', 'Zeynep', 'ayşe']);
    expect(names(sortStudentRows(rows, 'open', 'desc'))).toEqual(['ayşe', 'Lukas', 'Zeynep']);
  });
  it('daysSince counts local calendar days', () => {
    const now = new Date(2026, 4, 10, 9, 0);
    expect(daysSince(new Date(2026, 4, 10, 0, 5).toISOString(), now)).toBe(0);
    expect(daysSince(new Date(2026, 4, 9, 23, 55).toISOString(), now)).toBe(1);
    expect(daysSince(new Date(2026, 3, 30, 12).toISOString(), now)).toBe(10);
  });
});
