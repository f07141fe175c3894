import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { Exercise } from '@contract/exercises';
import { ExercisesPage } from './exercises-page';
import { NO_SETTINGS } from '@contract/exercise-settings';

const categoriesDe = {
  atem_kontrolle: 'Atem & Kontrolle', tonbildung: 'Tonbildung', noten_finger: 'Noten & Finger', haltung_technik: 'Haltung & Technik',
  rhythmus_tempo: 'Rhythmus & Tempo', makam: 'Makam', hoer_nachspiel: 'Hören & Nachspielen', theorie_reflexion: 'Theorie & Reflexion',
  kombinationen: 'Kombinationen & Wochenpläne',
};
const ex = (o: Partial<Exercise>): Exercise => ({
  id: 1, title: 'x', description: null, category: null, category_label: null, difficulty: null, target: null, estimated_minutes: 10,
  tags: [], priority: 2, language: 'de', courses: [], created_at: '2026-11-01T10:00:00.000Z', media_files: [], ...NO_SETTINGS, ...o,
});
const list = [
  ex({ id: 1, title: 'Makam Hicaz', category: 'makam', difficulty: 'fortgeschritten', target: 'Seyir' }),
  ex({ id: 2, title: 'Lange Töne', category: 'atem_kontrolle', difficulty: 'leicht' }),
];

type Route = (url: URL, init?: RequestInit) => Response | Promise<Response>;
function serve(route: Route) {
  const calls: Array<{ method: string; url: URL }> = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({ method: init?.method ?? 'GET', url });
    if (url.pathname === '/api/exercise-categories') return jsonResponse(200, categoriesDe);
    return route(url, init);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ExercisesPage', { timeout: 20_000 }, () => {
  it('lists with server labels, counts, searches and filters; asks for the course and language', async () => {
    const calls = serve(() => jsonResponse(200, { exercises: list, pagination: { total: 2, current_page: 1, per_page: 2, last_page: 1 } }));
    renderWithApp(<ExercisesPage courseId={5} courses={[]} />);
    expect(await screen.findByText('2 von 2 Übungen')).toBeInTheDocument();
    const cards = screen.getAllByTestId('exercise-card');
    expect(within(cards[0]!).getByText('Makam')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Fortgeschritten')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Atem & Kontrolle')).toBeInTheDocument();
    const listCall = calls.find((c) => c.url.pathname === '/api/exercises');
    expect(listCall?.url.searchParams.get('course_id')).toBe('5');
    expect(listCall?.url.searchParams.get('language')).toBe('de');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Suchen'), 'seyir');
    expect(screen.getByText('1 von 2 Übungen')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Suchen'));
    await user.selectOptions(screen.getByLabelText('Schwierigkeit'), 'Leicht');
    expect(screen.getAllByTestId('exercise-card')).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('Kategorie'), 'Makam');
    expect(screen.getByText('Keine passenden Übungen')).toBeInTheDocument();
  });

  it('a load failure shows the toast of SPEC.md and an error panel; a 403 an empty list', async () => {
    serve(() => jsonResponse(500, { message: 'kaputt' }));
    renderWithApp(<ExercisesPage courseId={null} courses={[]} />);
    expect(await screen.findByText('Fehler beim Laden der Übungen')).toBeInTheDocument();
    expect(screen.getByText('Übungen konnten nicht geladen werden')).toBeInTheDocument();
    cleanup();
    vi.unstubAllGlobals();
    serve(() => jsonResponse(403, { message: 'nein' }));
    renderWithApp(<ExercisesPage courseId={null} courses={[]} />);
    expect(await screen.findByText('Noch keine Übungen')).toBeInTheDocument();
  });

  it('deletes after confirmation with the success toast, and shows the error toast when it fails', async () => {
    let fail = false;
    const calls = serve((url, init) => {
      if (init?.method === 'DELETE') return fail ? jsonResponse(500, { message: 'x' }) : new Response(null, { status: 204 });
      return jsonResponse(200, { exercises: list, pagination: { total: 2, current_page: 1, per_page: 2, last_page: 1 } });
    });
    renderWithApp(<ExercisesPage courseId={null} courses={[]} />);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Übung Lange Töne löschen' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Sind Sie sicher, dass Sie diese Übung löschen möchten?');
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    expect(await screen.findByText('Übung erfolgreich gelöscht')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/exercises/2')).toBe(true);
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Übung Makam Hicaz löschen' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(screen.getByText('Fehler beim Löschen der Übung')).toBeInTheDocument());
  });

  it('saving: 422 shows the validation toast and field errors, another failure the save error, success the created toast', async () => {
    let answer: () => Response = () => jsonResponse(422, { message: 'Bitte überprüfen Sie Ihre Eingaben', errors: { title: ['Der Titel ist zu lang.'] } });
    const calls = serve((url, init) => {
      if (init?.method === 'POST') return answer();
      return jsonResponse(200, { exercises: list, pagination: { total: 2, current_page: 1, per_page: 2, last_page: 1 } });
    });
    renderWithApp(<ExercisesPage courseId={null} courses={[{ id: 3, name: 'Ney' }]} />);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Neue Übung' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neue Übung erstellen' });
    await user.type(within(dialog).getByLabelText('Titel'), 'Neu');
    await user.click(within(dialog).getByRole('button', { name: 'Übung erstellen' }));
    expect(await screen.findByText('Bitte überprüfen Sie Ihre Eingaben')).toBeInTheDocument();
    expect(within(dialog).getByText('Der Titel ist zu lang.')).toBeInTheDocument();
    answer = () => jsonResponse(500, { message: 'x' });
    await user.click(within(dialog).getByRole('button', { name: 'Übung erstellen' }));
    expect(await screen.findByText('Fehler beim Speichern der Übung')).toBeInTheDocument();
    answer = () => jsonResponse(201, list[0]);
    await user.click(within(dialog).getByRole('button', { name: 'Übung erstellen' }));
    expect(await screen.findByText('Übung erfolgreich erstellt')).toBeInTheDocument();
    const post = calls.filter((c) => c.method === 'POST');
    expect(post.map((c) => c.url.pathname)).toEqual(['/api/exercises', '/api/exercises', '/api/exercises']);
  });
});
