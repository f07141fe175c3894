import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GuardianChild } from '@contract/guardians';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import GuardianDashboardScreen from './guardian-dashboard';

const child = (over: Partial<GuardianChild>): GuardianChild => ({
  id: 7,
  name: 'Ayşe Demir',
  teacher: { name: 'Mehmet Yılmaz' },
  current_streak: 1,
  weekly_practice_time_minutes: 45,
  open_submissions: 2,
  overdue_submissions: 1,
  new_feedback: 3,
  new_feedback_latest: { recording_id: 31, submission_id: 12, comment_id: 90, at_ms: 42_000 },
  ...over,
});

function answer(fn: () => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return fn();
    }),
  );
  return calls;
}

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe("the guardian's home", () => {
  it('shows a card per child with teacher, streak, minutes, open and overdue tasks and new feedback, linking to the child', async () => {
    const calls = answer(() => jsonResponse(200, { data: [child({}), child({ id: 9, name: 'Can Demir', current_streak: 0, weekly_practice_time_minutes: 0, open_submissions: 0, overdue_submissions: 0, new_feedback: 0 })] }));
    renderWithApp(<GuardianDashboardScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Ihre Kinder' })).toBeInTheDocument();
    expect(screen.getByTestId('guardian-home-loading')).toBeInTheDocument();
    const cards = await screen.findAllByTestId('guardian-child-card');
    expect(cards).toHaveLength(2);
    const [a, b] = cards as [HTMLElement, HTMLElement];
    expect(within(a).getByRole('link', { name: 'Ayşe Demir' })).toHaveAttribute('href', '/children/7');
    expect(a).toHaveTextContent('Lehrer: Mehmet Yılmaz');
    expect(within(a).getByTestId('child-streak')).toHaveTextContent('1 Tag');
    expect(within(a).getByTestId('child-week')).toHaveTextContent('45 min');
    expect(within(a).getByTestId('child-open')).toHaveTextContent('2');
    expect(within(a).getByTestId('child-overdue')).toHaveTextContent('1');
    expect(within(a).getByTestId('child-new-feedback')).toHaveTextContent('3 neue Rückmeldungen');
    expect(within(b).getByRole('link', { name: 'Can Demir' })).toHaveAttribute('href', '/children/9');
    expect(within(b).getByTestId('child-streak')).toHaveTextContent('0 Tage');
    expect(within(b).queryByTestId('child-new-feedback')).not.toBeInTheDocument();
    expect(calls).toEqual(['/api/guardian/children']);
  });

  it('explains that the teacher links the children when none is linked', async () => {
    answer(() => jsonResponse(200, { data: [] }));
    renderWithApp(<GuardianDashboardScreen />);
    expect(await screen.findByRole('heading', { name: 'Noch kein Kind verknüpft' })).toBeInTheDocument();
    expect(screen.getByText(/Der Lehrer Ihres Kindes \(oder die Schulverwaltung\) verknüpft Ihr Konto/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows an error with a retry', async () => {
    let fail = true;
    answer(() => (fail ? jsonResponse(503, { message: 'weg' }) : jsonResponse(200, { data: [child({})] })));
    renderWithApp(<GuardianDashboardScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Die Übersicht konnte nicht geladen werden.');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('link', { name: 'Ayşe Demir' })).toBeInTheDocument();
  });

  it('speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    answer(() => jsonResponse(200, { data: [child({})] }));
    renderWithApp(<GuardianDashboardScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Çocuklarınız' })).toBeInTheDocument();
    expect(await screen.findByText('Öğretmen: Mehmet Yılmaz')).toBeInTheDocument();
    expect(screen.getByTestId('child-streak')).toHaveTextContent('1 gün');
    expect(screen.getByTestId('child-week')).toHaveTextContent('45 dk');
  });
});
