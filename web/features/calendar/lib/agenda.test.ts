import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '@contract/calendar';
import { addDays, exerciseOf, firstName, groupAgenda } from './agenda';

const ev = (id: number, start: string, exercise: string, student: string, status: CalendarEvent['status'] = 'open'): CalendarEvent => ({
  id,
  title: `${exercise} – ${student}`,
  start,
  completed: status === 'completed',
  status,
  backgroundColor: '#F59E0B',
  borderColor: '#F59E0B',
  submission_id: id,
  student_id: id * 10,
  student_name: student,
});

describe('agenda helpers', () => {
  it('splits the exercise off a teacher title, keeps a student title', () => {
    expect(exerciseOf({ title: 'Tonleiter – Ayşe Demir', student_name: 'Ayşe Demir' })).toBe('Tonleiter');
    expect(exerciseOf({ title: 'Lied – Kurz – Ayşe Demir', student_name: 'Ayşe Demir' })).toBe('Lied – Kurz');
    expect(exerciseOf({ title: 'Tonleiter', student_name: 'Ayşe Demir' })).toBe('Tonleiter');
    expect(firstName('  Ayşe   Demir ')).toBe('Ayşe');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('groups per day and exercise, students by name, counts done; keeps empty days', () => {
    const days = groupAgenda(
      [
        ev(1, '2026-05-04', 'Tonleiter', 'Lukas Becker'),
        ev(2, '2026-05-04', 'Tonleiter', 'Ayşe Demir', 'completed'),
        ev(3, '2026-05-04', 'Atem', 'Mia Wagner', 'overdue'),
        ev(4, '2026-05-06', 'Tonleiter', 'Elif Kaya'),
      ],
      '2026-05-04',
      3,
    );
    expect(days.map((d) => [d.date, d.total])).toEqual([
      ['2026-05-04', 3],
      ['2026-05-05', 0],
      ['2026-05-06', 1],
    ]);
    expect(days[0]!.groups.map((g) => [g.exercise, g.entries.map((e) => e.studentName), g.done])).toEqual([
      ['Atem', ['Mia Wagner'], 0],
      ['Tonleiter', ['Ayşe Demir', 'Lukas Becker'], 1],
    ]);
    expect(days[0]!.groups[0]!.entries[0]!.status).toBe('open');
  });
});
