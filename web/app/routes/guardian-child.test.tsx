import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { GuardianChildDetail } from '@contract/guardians';
import type { Submission } from '@contract/submissions';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { aRecording } from '@web/test/fixtures';
import GuardianChildScreen from './guardian-child';

// The waveform library needs Web Audio: a stand-in that reports 'ready' and records the take it was given.
const wave = vi.hoisted(() => ({ loaded: [] as Blob[] }));
vi.mock('wavesurfer.js', () => ({
  default: {
    create: () => {
      const handlers = new Map<string, (arg?: unknown) => void>();
      const ws = {
        on: (event: string, cb: (arg?: unknown) => void) => {
          handlers.set(event, cb);
          if (event === 'ready') queueMicrotask(() => cb(95));
        },
        destroy: () => undefined,
        setTime: () => undefined,
        play: async () => undefined,
        pause: () => undefined,
        playPause: async () => undefined,
        getCurrentTime: () => 0,
        loadBlob: async (blob: Blob) => void wave.loaded.push(blob),
      };
      return ws;
    },
  },
}));
// Chart.js draws on a canvas jsdom does not have: the bar chart as a labelled element with its numbers.
vi.mock('react-chartjs-2', () => ({
  Bar: (props: { data: { datasets: Array<{ data: number[] }> }; 'aria-label'?: string }) => (
    <div role="img" aria-label={props['aria-label']} data-testid="practice-chart" data-minutes={props.data.datasets[0]!.data.join(',')} />
  ),
}));

vi.setConfig({ testTimeout: 20_000 });

const today = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const addDays = (days: number) => {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const german = (date: string) => date.split('-').reverse().join('.');

function submission(over: Partial<Submission>): Submission {
  return {
    id: 1,
    student: { id: 7, name: 'Ayşe Demir' },
    exercise: null,
    exercise_title: 'Aufgabe',
    course_id: 1,
    series_id: 's',
    due_date: today,
    expiration_date: null,
    completed_at: null,
    teacher_note: null,
    teacher_feedback: null,
    created_at: '2026-01-01T08:00:00.000Z',
    accuracy_score: null,
    time_spent_minutes: 0,
    competency_level: null,
    status: 'open',
    new_feedback: false,
    ...over,
  };
}

const recording = aRecording({
  duration_ms: 95_000,
  message: 'Takt 12 klappt noch nicht',
  answered_at: '2026-03-03T09:00:00.000Z',
  new_feedback: true,
  comments: [
    { id: 90, recording_id: 31, teacher: { id: 3, name: 'Mehmet Yılmaz' }, at_ms: 42_000, text: 'Hier ruhiger werden', audio: null, created_at: '2026-03-03T09:00:00.000Z', updated_at: '2026-03-03T09:00:00.000Z' },
  ],
});

const progress = Array.from({ length: 30 }, (_, i) => ({ date: addDays(i - 29), practice_time_minutes: i === 29 ? 25 : i === 28 ? 10 : 0 }));

const detail: GuardianChildDetail = {
  child: {
    id: 7,
    name: 'Ayşe Demir',
    teacher: { name: 'Mehmet Yılmaz' },
    current_streak: 4,
    weekly_practice_time_minutes: 35,
    open_submissions: 1,
    overdue_submissions: 0,
    new_feedback: 1,
    new_feedback_latest: { recording_id: 31, submission_id: 12, comment_id: 90, at_ms: 42_000 },
  },
  metrics: {
    current_streak: 4,
    average_accuracy: 85,
    total_practice_time_minutes: 400,
    weekly_practice_time_minutes: 35,
    average_session_time_minutes: 20,
    top_competency_level: 'intermediate',
    progress_data: progress,
    total_practice_sessions: 18,
    overall_metrics: { total_submissions: 5, completed_submissions: 3, open_submissions: 1, overdue_submissions: 0, expired_submissions: 1, completion_rate: 75 },
  },
  submissions: [
    submission({
      id: 2,
      exercise_title: 'Tonleiter in D-Dur',
      due_date: addDays(-3),
      status: 'completed',
      completed_at: `${addDays(-4)}T18:00:00.000Z`,
      teacher_feedback: 'Schön gleichmäßig, weiter so!',
      accuracy_score: 85,
      competency_level: 'intermediate',
      time_spent_minutes: 20,
    }),
    submission({ id: 3, exercise_title: 'Etüde Nr. 3', due_date: addDays(4), teacher_note: 'Langsam beginnen' }),
    submission({ id: 4, exercise_title: 'Rhythmusübung', due_date: addDays(-10), status: 'expired' }),
  ],
  series: [
    {
      series_id: 'etuede',
      student_id: 7,
      title: 'Etüde Nr. 3',
      course_id: 1,
      occurrences: 1,
      completed: 0,
      next_due: addDays(4),
      streak: 0,
      today: null,
      current: submission({ id: 3, series_id: 'etuede', exercise_title: 'Etüde Nr. 3', due_date: addDays(4), teacher_note: 'Langsam beginnen' }),
    },
    {
      // a daily task: once, with today's minutes, the dates done and the streak
      series_id: 'lange-toene',
      student_id: 7,
      title: 'Lange Töne',
      course_id: 1,
      occurrences: 8,
      completed: 3,
      next_due: today,
      streak: 3,
      today: { submission_id: 30, time_spent_minutes: 12, done: false },
      current: submission({ id: 30, series_id: 'lange-toene', exercise_title: 'Lange Töne', due_date: today, time_spent_minutes: 12 }),
    },
  ],
  recordings: [recording],
};

type Call = { url: string; method: string };

function stubServer(answer: (url: string) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, method: init.method ?? 'GET' });
      if (url.startsWith('/api/media/')) return jsonResponse(200, { url: '/api/media-file/recordings/7/31.webm?exp=1&sig=x' });
      if (url.startsWith('/api/media-file/')) return new Response('take', { status: 200, headers: { 'Content-Type': 'audio/webm' } });
      // no take has been analysed yet (an answer meant for the page must not reach the take's line:
      // it did when the analysis query settled before the test ended, under load)
      if (/^\/api\/recordings\/\d+\/analysis/.test(url)) return jsonResponse(404, { message: 'Nicht gefunden', code: 'analysis_missing' });
      return answer(url);
    }),
  );
  return calls;
}

const show = (id = '7') =>
  renderWithApp(
    <Routes>
      <Route path="/children/:id" element={<GuardianChildScreen />} />
    </Routes>,
    { path: `/children/${id}` },
  );

beforeEach(async () => {
  localStorage.clear();
  wave.loaded.length = 0;
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('the child page (guardian, read-only)', () => {
  it("shows name, teacher, figures, the chart, the tasks with the teacher's feedback and the recording with its comment", async () => {
    const calls = stubServer((url) => (url === '/api/guardian/children/7' ? jsonResponse(200, detail) : jsonResponse(404, { message: 'Nicht gefunden' })));
    show();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ayşe Demir' })).toBeInTheDocument();
    expect(screen.getByTestId('child-teacher')).toHaveTextContent('Lehrer: Mehmet Yılmaz');
    expect(screen.getByTestId('kpi-streak-value')).toHaveTextContent('4 Tage');
    expect(screen.getByTestId('kpi-week-value')).toHaveTextContent('35 min');
    expect(screen.getByTestId('kpi-sessions-value')).toHaveTextContent('18');
    expect(screen.getByTestId('kpi-rate-value')).toHaveTextContent('75');

    const chart = await screen.findByTestId('practice-chart');
    expect(chart.dataset.minutes?.split(',')).toHaveLength(30);
    expect(chart.dataset.minutes?.endsWith('10,25')).toBe(true);

    // Still to come: one item per series, the next first (a daily task once, with today's minutes,
    // the dates done and the streak); then the past dates, latest first; each with its status.
    const coming = within(screen.getByRole('region', { name: 'Anstehend' })).getAllByTestId('child-series');
    expect(coming.map((t) => within(t).getByRole('heading', { level: 4 }).textContent)).toEqual(['Lange Töne', 'Etüde Nr. 3']);
    expect(coming[0]).toHaveTextContent(`Nächster Termin ${german(today)}`);
    expect(within(coming[0]!).getByTestId('child-series-progress')).toHaveTextContent('Heute 12 min geübt');
    expect(within(coming[0]!).getByTestId('child-series-progress')).toHaveTextContent('3 von 8 Terminen erledigt');
    expect(within(coming[0]!).getByTestId('child-series-streak')).toHaveTextContent('3-mal in Folge erledigt');
    expect(coming[1]).toHaveTextContent(`Fällig ${german(addDays(4))}`);
    expect(coming[1]).toHaveTextContent('Hinweis des Lehrers: Langsam beginnen');
    expect(within(coming[1]!).getByText('Offen')).toBeInTheDocument();
    expect(within(coming[1]!).queryByTestId('child-series-progress')).not.toBeInTheDocument();
    const tasks = screen.getAllByTestId('child-task');
    expect(tasks.map((t) => within(t).getByRole('heading', { level: 4 }).textContent)).toEqual(['Tonleiter in D-Dur', 'Rhythmusübung']);
    expect(within(screen.getByRole('region', { name: 'Zurückliegend' })).getByText('Rhythmusübung')).toBeInTheDocument();
    expect(within(tasks[0]!).getByText('Erledigt')).toBeInTheDocument();
    expect(within(tasks[1]!).getByText('Verfallen')).toBeInTheDocument();
    const feedback = within(tasks[0]!).getByTestId('child-task-feedback');
    expect(feedback).toHaveTextContent('Rückmeldung des Lehrers: Schön gleichmäßig, weiter so!');
    expect(within(feedback).getByTestId('child-task-accuracy')).toHaveTextContent('85');
    expect(feedback).toHaveTextContent('Niveau:Fortgeschritten');
    expect(within(tasks[1]!).queryByTestId('child-task-feedback')).not.toBeInTheDocument();

    // The recording: the child's message, the player with the signed link, the teacher's comment at its moment.
    const rec = screen.getByTestId('guardian-recording');
    expect(within(rec).getByRole('heading', { level: 3, name: 'Tonleiter in D-Dur' })).toBeInTheDocument();
    expect(rec).toHaveTextContent('Beantwortet');
    expect(rec).toHaveTextContent('Takt 12 klappt noch nicht');
    expect(within(rec).getByText('Hier ruhiger werden')).toBeInTheDocument();
    expect(within(rec).getByRole('button', { name: 'Kommentar bei 0:42' })).toBeInTheDocument();
    await waitFor(() => expect(within(rec).getByTestId('waveform')).toHaveAttribute('data-ready', 'true'));
    // The player fetched the take's signed file itself and handed it to the waveform
    expect(calls.some((c) => c.url === '/api/media-file/recordings/7/31.webm?exp=1&sig=x')).toBe(true);
    expect(await wave.loaded[0]?.text()).toBe('take');
    expect(calls.some((c) => c.url === `/api/media/${encodeURIComponent(recording.path)}`)).toBe(true);
    expect(within(rec).getAllByTestId('comment-marker')).toHaveLength(1);
    await userEvent.setup().click(within(rec).getByRole('button', { name: 'Kommentar bei 0:42' }));

    // Read-only: nothing that writes, and no call but reads.
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    for (const name of [/Start/i, /Stopp/i, /erledigt/i, /Aufnahme/i, /hochladen/i, /Kommentar hinzufügen/i, /Löschen/i, /Bearbeiten/i, /Beantwortet markieren/i, /Bewerten/i]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByTestId('comment-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('answer-recording')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Bearbeiten: / })).not.toBeInTheDocument();
    // The only buttons: the player's play/pause and the comment's 'play from here'.
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Abspielen', 'Kommentar bei 0:42']);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('says so when there are no tasks and no recordings yet, and the chart when nothing was practised', async () => {
    stubServer(() =>
      jsonResponse(200, {
        ...detail,
        metrics: { ...detail.metrics, progress_data: progress.map((p) => ({ ...p, practice_time_minutes: 0 })) },
        submissions: [],
        series: [],
        recordings: [],
      }),
    );
    show();
    expect(await screen.findByText('Keine Aufgaben in diesem Zeitraum')).toBeInTheDocument();
    expect(screen.getByText('Noch keine Aufnahmen')).toBeInTheDocument();
    expect(await screen.findByText('In den letzten 30 Tagen wurde noch keine Übungszeit erfasst.')).toBeInTheDocument();
  });

  it('shows the latest five past tasks, and all of them on request', async () => {
    const past = Array.from({ length: 8 }, (_, i) => submission({ id: 100 + i, exercise_title: `Übung ${i + 1}`, due_date: addDays(-1 - i), status: 'completed' }));
    stubServer(() => jsonResponse(200, { ...detail, submissions: past }));
    show();
    const region = await screen.findByRole('region', { name: 'Zurückliegend' });
    expect(within(region).getAllByTestId('child-task').map((t) => within(t).getByRole('heading').textContent)).toEqual(['Übung 1', 'Übung 2', 'Übung 3', 'Übung 4', 'Übung 5']);
    const toggle = within(region).getByRole('button', { name: 'Alle 8 zurückliegenden Aufgaben anzeigen' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const user = userEvent.setup();
    await user.click(toggle);
    expect(within(region).getAllByTestId('child-task')).toHaveLength(8);
    expect(within(region).getByRole('button', { name: 'Weniger anzeigen' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(region).getByRole('button', { name: 'Weniger anzeigen' }));
    expect(within(region).getAllByTestId('child-task')).toHaveLength(5);
  });

  it('a 404 (not linked, or removed meanwhile) shows the not-found state with the way back', async () => {
    stubServer(() => jsonResponse(404, { message: 'Nicht gefunden' }));
    show('8');
    const panel = await screen.findByTestId('guardian-child-not-found');
    expect(within(panel).getByRole('heading', { level: 1, name: 'Kind nicht gefunden' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Zurück zur Übersicht' })).toHaveAttribute('href', '/');
  });

  it('an address that cannot be an id shows the not-found state without a call', async () => {
    const calls = stubServer(() => jsonResponse(200, detail));
    show('abc');
    expect(await screen.findByText('Kind nicht gefunden')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows a skeleton while loading, an error with a retry, then the page', async () => {
    let fail = true;
    stubServer(() => (fail ? jsonResponse(500, { message: 'kaputt' }) : jsonResponse(200, detail)));
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Wird geladen…' })).toBeInTheDocument();
    expect(await screen.findByTestId('guardian-child-error')).toHaveTextContent('Die Daten konnten nicht geladen werden.');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ayşe Demir' })).toBeInTheDocument();
  });

  it('speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    stubServer(() => jsonResponse(200, detail));
    show();
    expect(await screen.findByText('Öğretmen: Mehmet Yılmaz')).toBeInTheDocument();
    expect(screen.getByText('Öğretmenin geri bildirimi:')).toBeInTheDocument();
    expect(screen.getByText('Yalnızca okuma')).toBeInTheDocument();
  });
});
