import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager } from '@tanstack/react-query';
import i18n from '@web/lib/i18n';
import { formatDate } from '@web/lib/format';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { Submission, SubmissionCounts } from '@contract/submissions';
import { authStore } from '@web/lib/auth/auth-store';
import { writes } from '@web/lib/outbox/writes';
import { TaskList } from './task-list';

/** Asking before "done" with nothing practised, and the undo (docs/decisions/done-means-practised.md). */
const today = new Date().toISOString().slice(0, 10);
const task = (id: number, minutes: number, o: Partial<Submission> = {}): Submission =>
  ({
    id,
    status: 'open',
    due_date: today,
    exercise: null,
    exercise_title: `Aufgabe ${id}`,
    series_id: `series-${id}`,
    course_id: 1,
    completed_at: null,
    expiration_date: null,
    time_spent_minutes: minutes,
    student: { id: 5, name: 'Ayşe' },
    ...o,
  }) as unknown as Submission;

function serve(tasks: Submission[]) {
  const calls: Array<{ method: string; path: string }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      calls.push({ method, path: url.pathname });
      const m = /^\/api\/submissions\/(\d+)\/complete$/.exec(url.pathname);
      if (m) {
        const s = tasks.find((x) => x.id === Number(m[1]))!;
        if (method === 'PATCH') Object.assign(s, { status: 'completed', completed_at: new Date().toISOString() });
        else Object.assign(s, { status: 'open', completed_at: null });
        return jsonResponse(200, s);
      }
      if (url.pathname === '/api/submissions/counts') {
        const n = (st: Submission['status']) => tasks.filter((s) => s.status === st).length;
        return jsonResponse(200, { total: tasks.length, open: n('open'), overdue: 0, completed: n('completed'), expired: 0 } satisfies SubmissionCounts);
      }
      if (url.pathname === '/api/submissions') {
        const status = url.searchParams.get('status');
        return jsonResponse(200, tasks.filter((s) => !status || status.split(',').includes(s.status)).map((s) => ({ ...s })));
      }
      return jsonResponse(404, { message: 'nicht hier' });
    }),
  );
  return { writesOf: (method: string) => calls.filter((c) => c.method === method).map((c) => c.path) };
}

const doneButton = (title: string) => within(screen.getByText(title).closest('article')!).getByRole('button', { name: 'Als erledigt markieren' });

describe('marking a task done', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    await i18n.changeLanguage('de');
    authStore.setSession('t', { id: 5, name: 'Ayşe', email: 'a@example.org', role: { name: 'student' } } as never);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    onlineManager.setOnline(true);
    for (const w of await writes.list(5)) await writes.remove(w.id);
  });

  it('with 0 minutes asks first (du); Erst üben sends nothing; Trotzdem erledigt completes and Rückgängig reopens', async () => {
    const api = serve([task(1, 0)]);
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    await u.click(await waitFor(() => doneButton('Aufgabe 1')));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Du hast für diese Aufgabe noch nicht geübt. Trotzdem als erledigt markieren?');
    await u.click(within(dialog).getByRole('button', { name: 'Erst üben' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.writesOf('PATCH')).toEqual([]);

    await u.click(doneButton('Aufgabe 1'));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Trotzdem erledigt' }));
    const undo = await screen.findByRole('button', { name: 'Rückgängig' });
    expect(api.writesOf('PATCH')).toEqual(['/api/submissions/1/complete']);
    // announced: the toast is a live region holding the message and the button
    expect(undo.closest('[role="status"]')).toHaveTextContent('Aufgabe erfolgreich als erledigt markiert!');
    await waitFor(() => expect(undo).toHaveFocus());
    await u.keyboard('{Enter}');
    await waitFor(() => expect(api.writesOf('DELETE')).toEqual(['/api/submissions/1/complete']));
    expect(await screen.findByText('Die Aufgabe ist wieder offen.')).toBeInTheDocument();
    await waitFor(() => expect(doneButton('Aufgabe 1')).toBeInTheDocument());
  });

  it('does not ask when minutes were practised, in Turkish too the toast offers Geri al', async () => {
    await i18n.changeLanguage('tr');
    const api = serve([task(2, 12)]);
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    const article = await waitFor(() => screen.getByText('Aufgabe 2').closest('article')!);
    await u.click(within(article).getByRole('button', { name: 'Tamamlandı olarak işaretle' }));
    expect(await screen.findByRole('button', { name: 'Geri al' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.writesOf('PATCH')).toEqual(['/api/submissions/2/complete']);
  });

  it('offline: a session waiting in the outbox counts as practised; undo removes the queued completion, nothing is sent', async () => {
    const api = serve([task(3, 0)]);
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    await waitFor(() => doneButton('Aufgabe 3'));
    const start = new Date(Date.now() - 15 * 60_000).toISOString();
    await writes.add({
      userId: 5,
      kind: 'practice-session',
      submissionId: 3,
      title: 'Aufgabe 3',
      method: 'POST',
      path: '/api/submissions/3/practice-sessions/offline',
      body: { started_at: start, ended_at: new Date().toISOString() },
    });
    onlineManager.setOnline(false);
    await u.click(doneButton('Aufgabe 3'));
    const undo = await screen.findByRole('button', { name: 'Rückgängig' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect((await writes.list(5)).map((w) => w.kind)).toEqual(['practice-session', 'complete']);
    await u.click(undo);
    await waitFor(async () => expect((await writes.list(5)).map((w) => w.kind)).toEqual(['practice-session']));
    expect(api.writesOf('PATCH')).toEqual([]);
    expect(api.writesOf('DELETE')).toEqual([]);
    await waitFor(() => expect(doneButton('Aufgabe 3')).toBeInTheDocument());
  });

  it('the tasks of one series sit in one closed group with title, count and next due; it opens by keyboard', async () => {
    const plus = (n: number) => new Date(Date.now() + n * 864e5).toISOString().slice(0, 10);
    const rast = (id: number, n: number, o: Partial<Submission> = {}) => task(id, 0, { series_id: 'rast', exercise_title: 'Wochenplan: Rast-Taksim', due_date: plus(n), ...o });
    serve([rast(11, 0), rast(12, 7), rast(13, 14), rast(10, -7, { status: 'completed', completed_at: new Date().toISOString() }), task(20, 0)]);
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    const toggle = await screen.findByTestId('series-toggle');
    expect(screen.getAllByTestId('series-group')).toHaveLength(1);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveTextContent('Wochenplan: Rast-Taksim');
    expect(toggle).toHaveTextContent('4 Termine');
    expect(toggle).toHaveTextContent('1 von 4 erledigt');
    expect(toggle).toHaveTextContent(`Nächster Termin: ${formatDate(plus(0))}`);
    // only the single task is a card until the group opens
    expect(screen.getAllByTestId('task-card')).toHaveLength(1);
    toggle.focus();
    await u.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByTestId('task-card')).toHaveLength(5);
  });
});
