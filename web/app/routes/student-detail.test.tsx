import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { StudentMetrics, StudentOverview } from '@contract/metrics';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import StudentDetailScreen from './student-detail';

const counts = { total_submissions: 0, completed_submissions: 0, open_submissions: 0, overdue_submissions: 0, expired_submissions: 0, completion_rate: 0 };
const overview: StudentOverview = { student: { id: 4, name: 'Elif Kaya', email: 'elif@example.com' }, kpis: { ...counts, current_streak: 0 }, recent_submissions: [] };
const metrics: StudentMetrics = {
  current_streak: 0,
  average_accuracy: null,
  total_practice_time_minutes: 0,
  weekly_practice_time_minutes: 0,
  average_session_time_minutes: 0,
  top_competency_level: null,
  total_practice_sessions: 0,
  overall_metrics: counts,
  progress_data: Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, practice_time_minutes: 0 })),
};
const guardians = { guardians: [{ id: 40, name: 'Deniz Kaya', email: 'deniz@example.com', created_at: '2026-10-01T08:00:00.000Z' }], invites: [] };

function serve(found: boolean) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      paths.push(path);
      if (!found) return jsonResponse(404, { message: 'Nicht gefunden.' });
      if (path === '/api/students/4/overview') return jsonResponse(200, overview);
      if (path === '/api/students/4/metrics') return jsonResponse(200, metrics);
      if (path === '/api/students/4/guardians') return jsonResponse(200, guardians);
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    }),
  );
  return paths;
}

const show = (id: string) =>
  renderWithApp(
    <Routes>
      <Route path="/students/:id" element={<StudentDetailScreen />} />
    </Routes>,
    { path: `/students/${id}` },
  );

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe("the teacher's student page", { timeout: 20_000 }, () => {
  it("has the student's parents as the section 'Eltern' below the tasks", async () => {
    serve(true);
    show('4');
    expect(await screen.findByRole('heading', { level: 1, name: 'Elif Kaya' })).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Eltern' });
    expect(await within(section).findByText('Deniz Kaya')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Elternteil hinzufügen' })).toBeInTheDocument();
    const tasks = screen.getByRole('heading', { name: 'Letzte Aufgaben' });
    expect(tasks.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows no parents section for a student that is not there', async () => {
    serve(false);
    show('4');
    expect(await screen.findByTestId('student-not-found')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Eltern' })).not.toBeInTheDocument();
  });
});
