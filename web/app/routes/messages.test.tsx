import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import type { User } from '@contract/auth';
import type { Conversation, MessagePage } from '@contract/messages';
import type { Recording } from '@contract/recordings';
import i18n from '@web/lib/i18n';
import { authStore } from '@web/lib/auth/auth-store';
import { jsonResponse, renderWithApp, stubFetch, type FetchCall } from '@web/test/render';
import MessagesScreen from './messages';
import { MessageAboutTake, MessageTeacherLink } from '../compositions/message-links';

vi.setConfig({ testTimeout: 20_000 });

const users: Record<'teacher' | 'student' | 'guardian', User> = {
  teacher: { id: 2, name: 'Mehmet Yılmaz', email: 'lehrer@example.com', role: { name: 'teacher' } } as User,
  student: { id: 7, name: 'Ayşe Demir', email: 'ayse@example.com', role: { name: 'student' } } as User,
  guardian: { id: 9, name: 'Fatma Demir', email: 'fatma@example.com', role: { name: 'guardian' } } as User,
};

const conversation = (student_id: number, student_name: string, over: Partial<Conversation> = {}): Conversation => ({
  student_id,
  student_name,
  unread: 0,
  waiting_since: null,
  last_message: null,
  ...over,
});

const page = (student_id: number, student_name: string, over: Partial<MessagePage> = {}): MessagePage => ({
  student_id,
  student_name,
  data: [],
  pinned: [],
  next_before: null,
  read_up_to: 0,
  can_write_notes: false,
  ...over,
});

const path = (c: FetchCall) => c.url.split('?')[0]!;

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname + l.search}</output>;
}

function open(role: keyof typeof users, at: string) {
  authStore.setSession('token', users[role]);
  return renderWithApp(
    <>
      <Routes>
        <Route path="/nachrichten/:studentId?" element={<MessagesScreen />} />
      </Routes>
      <Where />
    </>,
    { path: at },
  );
}

/** The server: the conversations, a page per student, a task's title, and 201/204 for writes. */
function serve(conversations: Conversation[], names: Record<number, string>) {
  return stubFetch((c) => {
    const p = path(c);
    if (p === '/api/conversations') return jsonResponse(200, { data: conversations });
    const m = /^\/api\/conversations\/(\d+)\/messages$/.exec(p);
    if (m && c.method === 'GET') return jsonResponse(200, page(Number(m[1]), names[Number(m[1])] ?? '?', { can_write_notes: true }));
    if (m && c.method === 'POST')
      return jsonResponse(201, {
        id: 500,
        student_id: Number(m[1]),
        kind: 'message',
        body: (c.body as { body: string }).body,
        author: { id: 2, name: 'Mehmet Yılmaz', role: 'teacher' },
        link: { kind: 'take', task_id: 12, recording_id: 31, at_ms: 42_000, title: 'Tonleiter C-Dur' },
        pinned_at: null,
        created_at: '2026-03-05T10:00:00Z',
        can_delete: true,
      });
    if (p === '/api/submissions/12') return jsonResponse(200, { id: 12, exercise_title: 'Tonleiter C-Dur' });
    return jsonResponse(204, undefined);
  });
}

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => {
  authStore.clear();
  vi.unstubAllGlobals();
});

describe('/nachrichten', () => {
  it('a teacher sees the conversations and, on choosing one, it beside them (a way back on a phone)', async () => {
    serve([conversation(3, 'Can Kaya', { unread: 2, waiting_since: '2026-03-03T11:00:00Z' }), conversation(7, 'Ayşe Demir')], { 3: 'Can Kaya', 7: 'Ayşe Demir' });
    const u = userEvent.setup();
    open('teacher', '/nachrichten');
    expect(screen.getByRole('heading', { level: 1, name: 'Nachrichten' })).toBeInTheDocument();
    expect(screen.getByTestId('conversations-loading')).toBeInTheDocument();
    const list = await screen.findByRole('navigation', { name: 'Gespräche' });
    expect(within(list).getAllByRole('link').map((a) => a.textContent)).toEqual([expect.stringContaining('Can Kaya'), expect.stringContaining('Ayşe Demir')]);
    expect(screen.getByRole('heading', { name: 'Gespräch auswählen' })).toBeInTheDocument();

    await u.click(within(list).getByRole('link', { name: /Ayşe Demir/ }));
    expect(await screen.findByTestId('conversation-name')).toHaveTextContent('Ayşe Demir');
    expect(screen.getByTestId('where')).toHaveTextContent('/nachrichten/7');
    expect(within(list).getByRole('link', { name: /Ayşe Demir/ })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Alle Gespräche' })).toHaveAttribute('href', '/nachrichten');
    // the teacher may write lesson notes
    expect(screen.getByRole('radio', { name: 'Unterrichtsnotiz' })).toBeInTheDocument();
  });

  it('a student goes straight to their own conversation, without a list', async () => {
    const calls = serve([conversation(7, 'Ayşe Demir')], { 7: 'Ayşe Demir' });
    open('student', '/nachrichten');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/nachrichten/7'));
    expect(await screen.findByTestId('conversation')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Gespräche' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('conversation-name')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Alle Gespräche' })).not.toBeInTheDocument();
    expect(calls.map((c) => path(c))).toContain('/api/conversations/7/messages');
  });

  it('a student without a teacher is told so; a failed list offers a retry', async () => {
    let fail = true;
    stubFetch(() => (fail ? jsonResponse(500, { message: 'kaputt' }) : jsonResponse(200, { data: [] })));
    const u = userEvent.setup();
    open('student', '/nachrichten');
    expect(await screen.findByText('Die Gespräche konnten nicht geladen werden.')).toBeInTheDocument();
    fail = false;
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Du hast noch keine Lehrkraft, der du schreiben kannst.')).toBeInTheDocument();
  });

  it('a parent of one child goes straight to it; of two chooses', async () => {
    serve([conversation(7, 'Ayşe Demir')], { 7: 'Ayşe Demir' });
    const one = open('guardian', '/nachrichten');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/nachrichten/7'));
    expect(await screen.findByTestId('conversation-name')).toHaveTextContent('Ayşe Demir');
    expect(screen.queryByRole('link', { name: 'Alle Gespräche' })).not.toBeInTheDocument();
    one.unmount();
    authStore.clear();
    vi.unstubAllGlobals();

    serve([conversation(7, 'Ayşe Demir'), conversation(8, 'Can Demir')], { 7: 'Ayşe Demir', 8: 'Can Demir' });
    open('guardian', '/nachrichten');
    const list = await screen.findByRole('navigation', { name: 'Gespräche' });
    expect(within(list).getAllByRole('link')).toHaveLength(2);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/nachrichten$/);
  });

  it('?task=…&take=…&t=… attaches the take at its moment to the message, with the task’s title; sent, it is gone from the address', async () => {
    const calls = serve([conversation(7, 'Ayşe Demir')], { 7: 'Ayşe Demir' });
    const u = userEvent.setup();
    open('teacher', '/nachrichten/7?task=12&take=31&t=42000');
    expect(await screen.findByTestId('composer-link')).toHaveTextContent('Tonleiter C-Dur · 0:42');
    await u.type(screen.getByRole('textbox', { name: 'Nachricht schreiben' }), 'Hier bitte langsamer.');
    await u.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/nachrichten\/7$/));
    expect(screen.queryByTestId('composer-link')).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && path(c) === '/api/conversations/7/messages')!.body).toEqual({
      body: 'Hier bitte langsamer.',
      kind: 'message',
      link: { task_id: 12, recording_id: 31, at_ms: 42_000 },
    });
    expect(await screen.findByTestId('message-link')).toHaveAttribute('href', '/submissions/12?take=31&t=42000');
  });

  it('a student asked to write about a task keeps the link through the redirect', async () => {
    serve([conversation(7, 'Ayşe Demir')], { 7: 'Ayşe Demir' });
    open('student', '/nachrichten?task=12');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/nachrichten/7?task=12'));
    expect(await screen.findByTestId('composer-link')).toHaveTextContent('Tonleiter C-Dur');
  });
});

describe('the ways into a conversation', () => {
  const recording = { id: 31, submission_id: 12, student: { id: 7, name: 'Ayşe Demir' } } as Recording;

  it('"Nachricht zu dieser Stelle" opens the student’s conversation with the take at the player’s moment', async () => {
    let now = 42_000;
    const u = userEvent.setup();
    renderWithApp(
      <>
        <MessageAboutTake recording={recording} currentMs={() => now} />
        <Where />
      </>,
      { path: '/submissions/12' },
    );
    const link = screen.getByRole('link', { name: 'Nachricht zu dieser Stelle' });
    expect(link).toHaveAttribute('href', '/nachrichten/7?task=12&take=31&t=0');
    now = 61_500;
    await u.click(link);
    expect(screen.getByTestId('where')).toHaveTextContent('/nachrichten/7?task=12&take=31&t=61500');
  });

  it('"Nachricht an die Lehrkraft" opens the student’s own conversation with the task', () => {
    renderWithApp(<MessageTeacherLink studentId={7} taskId={12} />);
    expect(screen.getByRole('link', { name: 'Nachricht an die Lehrkraft' })).toHaveAttribute('href', '/nachrichten/7?task=12');
  });
});
