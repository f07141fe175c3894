import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CalendarEvent } from '@contract/calendar';
import i18n from '@web/lib/i18n';
import { addDays } from '../lib/agenda';
import { localToday } from '@web/lib/today';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { TeacherAgenda } from './teacher-agenda';

const today = localToday();

/** Two students' tasks on each of five days from today. */
function week(): CalendarEvent[] {
  return [0, 1, 3, 4, 6].flatMap((offset, i) =>
    ['Ayşe Demir', 'Can Yılmaz'].map((student, j) => ({
      id: i * 2 + j + 1,
      title: `Etüde ${offset} – ${student}`,
      start: addDays(today, offset),
      completed: j === 0 && offset === 0,
      status: j === 0 && offset === 0 ? ('completed' as const) : ('open' as const),
      backgroundColor: '#000',
      borderColor: '#000',
      submission_id: i * 2 + j + 1,
      student_id: j + 1,
      student_name: student,
    })),
  );
}

/** A window as wide as a phone (below Tailwind's `sm`) or a desk. */
function screenWidth(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query.includes('max-width'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
  vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(200, week())));
});
afterEach(() => vi.unstubAllGlobals());

const render = () => renderWithApp(<TeacherAgenda courseId={null} day={null} onBack={() => undefined} onOpenTask={() => undefined} />);

describe('TeacherAgenda', () => {
  it('on a phone draws today and the next day with tasks; the rest of the week when asked for', async () => {
    screenWidth(true);
    render();
    const agenda = await screen.findByTestId('teacher-agenda');
    await within(agenda).findAllByTestId('agenda-day');
    expect(within(agenda).getAllByTestId('agenda-day').map((d) => d.dataset.date)).toEqual([today, addDays(today, 1)]);
    expect(within(agenda).getAllByTestId('agenda-entry')).toHaveLength(4);
    expect(within(agenda).getAllByRole('button', { name: 'Ayşe Demir: Etüde 0 öffnen (Erledigt)' })).toHaveLength(1);

    await userEvent.click(within(agenda).getByRole('button', { name: 'Ganze Woche zeigen' }));
    expect(within(agenda).getAllByTestId('agenda-day')).toHaveLength(5);
    expect(within(agenda).getAllByTestId('agenda-entry')).toHaveLength(10);
    await userEvent.click(within(agenda).getByRole('button', { name: 'Weniger zeigen' }));
    expect(within(agenda).getAllByTestId('agenda-day')).toHaveLength(2);
  });

  it('on a desk draws the whole week at once', async () => {
    screenWidth(false);
    render();
    const agenda = await screen.findByTestId('teacher-agenda');
    await within(agenda).findAllByTestId('agenda-day');
    expect(within(agenda).getAllByTestId('agenda-day')).toHaveLength(5);
    expect(within(agenda).getAllByTestId('agenda-entry')).toHaveLength(10);
  });
});
