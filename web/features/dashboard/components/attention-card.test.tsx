import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TeacherAttention } from '@contract/dashboard';
import i18n from '@web/lib/i18n';
import { renderWithApp } from '@web/test/render';
import { AttentionCard } from './attention-card';
import { FirstSteps } from './first-steps';

const filled: TeacherAttention = {
  quiet_days: 5,
  overdue_min: 3,
  quiet: {
    total: 4,
    students: [
      { id: 7, name: 'Cem Aydın', last_practice: null, days: 60 },
      { id: 8, name: 'Ben Wolf', last_practice: '2026-11-20', days: 6 },
    ],
  },
  overdue: { total: 1, students: [{ id: 9, name: 'Eda Şahin', overdue: 3, oldest_due: '2026-11-10' }] },
  waiting: { total: 0, takes: [] },
  first_steps: { course: true, student: true, exercise: true, assignment: true },
};
const clear: TeacherAttention = { ...filled, quiet: { total: 0, students: [] }, overdue: { total: 0, students: [] }, waiting: { total: 0, takes: [] } };
const noop = () => {};

afterEach(async () => {
  await i18n.changeLanguage('de');
});

describe('AttentionCard', () => {
  it('links each quiet or piling student to their page, says the threshold and the empty section, and offers all when more wait', () => {
    renderWithApp(<AttentionCard data={filled} loading={false} failed={false} retrying={false} onRetry={noop} />);
    const quiet = screen.getByRole('region', { name: /Seit 5 Tagen nicht geübt/ });
    const rows = within(quiet).getAllByRole('link');
    expect(rows.map((r) => r.getAttribute('href'))).toEqual(['/students', '/students/7', '/students/8']);
    expect(within(quiet).getByRole('link', { name: /Cem Aydın/ })).toHaveTextContent('Noch nie geübt, seit 60 Tagen dabei');
    expect(within(quiet).getByRole('link', { name: /Ben Wolf/ })).toHaveTextContent('Zuletzt geübt am 20.11.2026 (vor 6 Tagen)');
    const overdue = screen.getByRole('region', { name: /Ab 3 überfälligen Aufgaben/ });
    expect(within(overdue).getByRole('link', { name: /Eda Şahin/ })).toHaveAttribute('href', '/students/9');
    expect(within(overdue).queryByRole('link', { name: 'Alle Schüler' })).toBeNull();
    expect(screen.getByRole('region', { name: /Aufnahmen warten/ })).toHaveTextContent('Alle Aufnahmen sind beantwortet.');
    expect(screen.queryByTestId('attention-clear')).toBeNull();
  });

  it('links a waiting take into the review inbox and says all clear in Turkish', async () => {
    await i18n.changeLanguage('tr');
    const take = { id: 31, submission_id: 4, student: { id: 7, name: 'Cem Aydın' }, exercise_title: 'Uzun hava', created_at: '2026-11-23T09:00:00.000Z', days: 3 };
    const { unmount } = renderWithApp(<AttentionCard data={{ ...clear, waiting: { total: 1, takes: [take] } }} loading={false} failed={false} retrying={false} onRetry={noop} />);
    expect(screen.getByRole('link', { name: /Cem Aydın: Uzun hava/ })).toHaveAttribute('href', '/review?take=31');
    expect(screen.getByRole('link', { name: /Cem Aydın: Uzun hava/ })).toHaveTextContent('3 gündür bekliyor');
    unmount();
    renderWithApp(<AttentionCard data={clear} loading={false} failed={false} retrying={false} onRetry={noop} />);
    expect(screen.getByTestId('attention-clear')).toHaveTextContent('Her şey yolunda');
  });

  it('shows a skeleton while loading and an error with retry', async () => {
    const { unmount } = renderWithApp(<AttentionCard data={undefined} loading failed={false} retrying={false} onRetry={noop} />);
    expect(screen.getByTestId('attention-card')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    unmount();
    const retry = vi.fn();
    renderWithApp(<AttentionCard data={undefined} loading={false} failed retrying={false} onRetry={retry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Die Hinweise konnten nicht geladen werden.');
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});

describe('FirstSteps', () => {
  it('lists the four steps in order, ticks off what is done and leads to each action', async () => {
    const onAssign = vi.fn();
    renderWithApp(<FirstSteps steps={{ course: true, student: false, exercise: false, assignment: false }} onAssign={onAssign} />);
    const steps = within(screen.getByTestId('first-steps')).getAllByRole('listitem');
    expect(steps.map((s) => s.getAttribute('data-testid'))).toEqual(['first-step-course', 'first-step-student', 'first-step-exercise', 'first-step-assignment']);
    expect(screen.getByText('1 von 4 erledigt', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Kurs anlegen – erledigt/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Kurs anlegen' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Schüler hinzufügen' })).toHaveAttribute('href', '/students?new=1');
    expect(screen.getByRole('link', { name: 'Übung erstellen' })).toHaveAttribute('href', '/exercises?new=1');
    await userEvent.click(screen.getByRole('button', { name: 'Aufgabe zuweisen' }));
    expect(onAssign).toHaveBeenCalledOnce();
  });
});
