import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Conversation, Message, MessagePage } from '@contract/messages';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp, stubFetch, type FetchCall } from '@web/test/render';
import { ConversationList } from './conversation-list';
import { ConversationView } from './conversation-view';
import type { Viewer } from '../lib/links';

vi.setConfig({ testTimeout: 20_000 });

const TEACHER = { id: 2, name: 'Mehmet Yılmaz', role: 'teacher' as const };
const STUDENT = { id: 7, name: 'Ayşe Demir', role: 'student' as const };
const PARENT = { id: 9, name: 'Fatma Demir', role: 'guardian' as const };

let nextId = 100;
function msg(over: Partial<Message> = {}): Message {
  const id = over.id ?? nextId++;
  return {
    id,
    student_id: 7,
    kind: 'message',
    body: `Nachricht ${id}`,
    author: STUDENT,
    link: null,
    pinned_at: null,
    created_at: '2026-03-02T10:00:00.000Z',
    can_delete: false,
    ...over,
  };
}

function page(over: Partial<MessagePage> = {}): MessagePage {
  return { student_id: 7, student_name: 'Ayşe Demir', data: [], pinned: [], next_before: null, read_up_to: 0, can_write_notes: false, ...over };
}

const conversation = (over: Partial<Conversation>): Conversation => ({
  student_id: 7,
  student_name: 'Ayşe Demir',
  unread: 0,
  waiting_since: null,
  last_message: null,
  ...over,
});

/** The path of a call without its query (`?language=de`). */
const path = (c: FetchCall) => c.url.split('?')[0]!;
const query = (c: FetchCall) => new URLSearchParams(c.url.split('?')[1] ?? '');

/** A server with one page (or `pages` by `before`) for GET, and `answer` for everything else. */
function serve(pages: MessagePage | ((before: string | null) => MessagePage), answer: (c: FetchCall) => Response = () => jsonResponse(204, undefined)) {
  return stubFetch((c) => {
    if (c.method === 'GET' && /^\/api\/conversations\/\d+\/messages$/.test(path(c))) return jsonResponse(200, typeof pages === 'function' ? pages(query(c).get('before')) : pages);
    if (c.method === 'GET') return jsonResponse(200, { data: [], unread: 0 });
    return answer(c);
  });
}

function view(viewer: Viewer, me: number, extra: Partial<Parameters<typeof ConversationView>[0]> = {}) {
  return renderWithApp(<ConversationView studentId={7} viewer={viewer} me={me} {...extra} />);
}

const messageEls = () => within(screen.getByTestId('message-list')).queryAllByTestId('message');

beforeEach(async () => {
  localStorage.clear();
  nextId = 100;
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('ConversationList', () => {
  it('keeps the server’s order and shows the unread count, how long it waits, and the last message', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-05T12:00:00Z'));
    try {
      renderWithApp(
        <ConversationList
          conversations={[
            conversation({ student_id: 3, student_name: 'Can Kaya', unread: 2, waiting_since: '2026-03-03T11:00:00Z', last_message: { id: 5, body: 'Wie übe ich\ndas?', kind: 'message', author_role: 'student', created_at: '2026-03-03T11:00:00Z' } }),
            conversation({ student_id: 4, student_name: 'Lea Roth', unread: 1, waiting_since: '2026-03-05T09:30:00Z', last_message: { id: 8, body: 'Danke!', kind: 'message', author_role: 'guardian', created_at: '2026-03-05T09:30:00Z' } }),
            conversation({ student_id: 7, last_message: { id: 9, body: 'Bogen locker halten', kind: 'lesson_note', author_role: 'teacher', created_at: '2026-03-04T09:00:00Z' } }),
            conversation({ student_id: 8, student_name: 'Zeynep Ak' }),
          ]}
        />,
      );
    } finally {
      vi.useRealTimers();
    }
    const items = screen.getAllByTestId('conversation-item');
    expect(items.map((a) => a.getAttribute('href'))).toEqual(['/nachrichten/3', '/nachrichten/4', '/nachrichten/7', '/nachrichten/8']);
    expect(screen.getByRole('navigation', { name: 'Gespräche' })).toBeInTheDocument();
    const [can, lea, ayse, zeynep] = items as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(screen.getByRole('link', { name: /^Can Kaya ?, 2 ungelesen/ })).toBe(can);
    expect(within(can).getByTestId('conversation-preview')).toHaveTextContent('Wie übe ich das?');
    expect(within(can).getByTestId('conversation-waiting')).toHaveTextContent('wartet seit 2 Tagen');
    expect(within(lea).getByTestId('conversation-waiting')).toHaveTextContent('wartet seit 2 Stunden');
    expect(within(ayse).queryByTestId('conversation-unread')).not.toBeInTheDocument();
    expect(within(ayse).queryByTestId('conversation-waiting')).not.toBeInTheDocument();
    expect(within(ayse).getByTestId('conversation-preview')).toHaveTextContent('Unterrichtsnotiz: Bogen locker halten');
    expect(within(zeynep).getByTestId('conversation-preview')).toHaveTextContent('Noch keine Nachrichten');
  });
});

describe('ConversationView', () => {
  it('shows the messages oldest first with author and role, "Du" for one’s own, the lesson note marked, "Neu" where unread begins, and marks read', async () => {
    const data = [
      msg({ id: 14, author: STUDENT, body: 'Mach ich!', can_delete: true }),
      msg({ id: 13, author: TEACHER, body: 'Bitte langsam üben.\nAb Takt 12.' }),
      msg({ id: 12, author: TEACHER, kind: 'lesson_note', body: 'Heute: Tonleitern.' }),
      msg({ id: 11, author: PARENT, body: 'Sie war krank.' }),
      msg({ id: 10, author: STUDENT, body: 'Hallo', can_delete: true }),
    ];
    const calls = serve(page({ data, read_up_to: 11 }));
    view('student', STUDENT.id);
    await waitFor(() => expect(messageEls()).toHaveLength(5));
    const els = messageEls();
    expect(els.map((e) => e.getAttribute('data-message-id'))).toEqual(['10', '11', '12', '13', '14']);
    expect(within(els[0]!).getByTestId('message-author')).toHaveTextContent('Du');
    expect(within(els[0]!).queryByTestId('message-role')).not.toBeInTheDocument();
    expect(within(els[1]!).getByTestId('message-author')).toHaveTextContent('Fatma Demir');
    expect(within(els[1]!).getByTestId('message-role')).toHaveTextContent('Eltern');
    expect(within(els[2]!).getByTestId('message-role')).toHaveTextContent('Lehrkraft');
    expect(within(els[2]!).getByTestId('lesson-note-mark')).toHaveTextContent('Unterrichtsnotiz');
    expect(within(els[3]!).queryByTestId('lesson-note-mark')).not.toBeInTheDocument();
    // plain text with its line break, not HTML
    expect(within(els[3]!).getByText(/Bitte langsam üben/).closest('p')!.textContent).toBe('Bitte langsam üben.\nAb Takt 12.');
    // "Neu" right before the first unread message of someone else
    const items = [...screen.getByTestId('message-list').querySelectorAll('ol > li')];
    const divider = items.findIndex((li) => li.getAttribute('data-testid') === 'new-divider');
    expect(items[divider + 1]!.querySelector('[data-message-id]')!.getAttribute('data-message-id')).toBe('12');
    expect(screen.getAllByTestId('new-divider')).toHaveLength(1);
    // the newest page was shown: read up to the newest message, once
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toEqual([{ url: '/api/conversations/7/read', method: 'POST', body: { up_to: 14 } }]));
    // a student may not pin: no buttons; may delete their own
    expect(screen.queryByRole('button', { name: 'Anheften' })).not.toBeInTheDocument();
    expect(within(els[0]!).getByRole('button', { name: 'Löschen' })).toBeInTheDocument();
    expect(within(els[1]!).queryByRole('button', { name: 'Löschen' })).not.toBeInTheDocument();
  });

  it('parents are addressed with "Sie" for their own messages; nothing is marked read when all was read', async () => {
    const calls = serve(page({ data: [msg({ id: 20, author: PARENT })], read_up_to: 20 }));
    view('guardian', PARENT.id);
    await waitFor(() => expect(messageEls()).toHaveLength(1));
    expect(within(messageEls()[0]!).getByTestId('message-author')).toHaveTextContent('Sie');
    expect(screen.queryByTestId('new-divider')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('shows the pinned lesson notes on top; the teacher pins and unpins lesson notes (only those)', async () => {
    const pinnedNote = msg({ id: 30, author: TEACHER, kind: 'lesson_note', body: 'Immer mit Metronom.', pinned_at: '2026-03-01T10:00:00Z' });
    const note = msg({ id: 31, author: TEACHER, kind: 'lesson_note', body: 'Daumen locker.' });
    const plain = msg({ id: 32, author: STUDENT, body: 'Ok' });
    const calls = serve(page({ data: [plain, note, pinnedNote], pinned: [pinnedNote], read_up_to: 32, can_write_notes: true }), (c) => {
      const id = Number(path(c).split('/').pop());
      const was = [pinnedNote, note].find((m) => m.id === id)!;
      return jsonResponse(200, { ...was, pinned_at: (c.body as { pinned: boolean }).pinned ? '2026-03-05T10:00:00Z' : null });
    });
    const u = userEvent.setup();
    view('teacher', TEACHER.id);
    const pinned = await screen.findByTestId('pinned');
    expect(within(pinned).getByRole('heading', { name: 'Angeheftet' })).toBeInTheDocument();
    expect(within(pinned).getByText('Immer mit Metronom.')).toBeInTheDocument();
    const [m30, m31, m32] = [30, 31, 32].map((id) => screen.getByTestId('message-list').querySelector(`[data-message-id="${id}"]`) as HTMLElement);
    expect(within(m32!).queryByRole('button', { name: /Anheften|Lösen/ })).not.toBeInTheDocument();
    expect(within(m30!).getByRole('button', { name: 'Lösen' })).toBeInTheDocument();

    await u.click(within(m31!).getByRole('button', { name: 'Anheften' }));
    expect(await screen.findByText('Die Unterrichtsnotiz ist angeheftet.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('pinned')).getByText('Daumen locker.')).toBeInTheDocument());
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({ url: '/api/messages/31?language=de', method: 'PATCH', body: { pinned: true } });

    await u.click(within(screen.getByTestId('pinned')).getAllByRole('button', { name: 'Lösen' })[1]!);
    await waitFor(() => expect(within(screen.getByTestId('pinned')).queryByText('Immer mit Metronom.')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)).toMatchObject({ url: '/api/messages/30?language=de', body: { pinned: false } });
  });

  it('says the server’s reason when a note cannot be pinned (five already)', async () => {
    const note = msg({ id: 40, author: TEACHER, kind: 'lesson_note' });
    serve(page({ data: [note], read_up_to: 40, can_write_notes: true }), () => jsonResponse(409, { message: 'Es können höchstens 5 Unterrichtsnotizen angeheftet sein.' }));
    const u = userEvent.setup();
    view('teacher', TEACHER.id);
    await u.click(await screen.findByRole('button', { name: 'Anheften' }));
    expect(await screen.findByText('Es können höchstens 5 Unterrichtsnotizen angeheftet sein.')).toBeInTheDocument();
    expect(screen.queryByTestId('pinned')).not.toBeInTheDocument();
  });

  it.each([
    ['teacher', TEACHER.id, '/submissions/12', '/submissions/12?take=31&t=42000'],
    ['student', STUDENT.id, '/submissions/12', '/submissions/12?take=31&t=42000'],
    ['guardian', PARENT.id, '/children/7', '/children/7?take=31&t=42000'],
  ] as const)('a %s’s link chips open the task and the take at its moment', async (viewer, me, task, take) => {
    serve(
      page({
        data: [
          msg({ id: 51, author: TEACHER, link: { kind: 'take', task_id: 12, recording_id: 31, at_ms: 42_000, title: 'Tonleiter C-Dur' } }),
          msg({ id: 50, author: TEACHER, link: { kind: 'task', task_id: 12, recording_id: null, at_ms: null, title: 'Tonleiter C-Dur' } }),
        ],
        read_up_to: 51,
      }),
    );
    view(viewer, me);
    await waitFor(() => expect(screen.getAllByTestId('message-link')).toHaveLength(2));
    const [taskLink, takeLink] = screen.getAllByTestId('message-link') as [HTMLElement, HTMLElement];
    expect(taskLink).toHaveAttribute('href', task);
    expect(taskLink).toHaveTextContent('Tonleiter C-Dur');
    expect(takeLink).toHaveAttribute('href', take);
    expect(takeLink).toHaveTextContent('Tonleiter C-Dur · Aufnahme bei 0:42');
  });

  it('renders web addresses as safe links and never reads the text as HTML', async () => {
    serve(page({ data: [msg({ id: 60, author: TEACHER, body: 'Siehe https://example.org/noten.pdf. <b>fett</b>' })], read_up_to: 60 }));
    view('student', STUDENT.id);
    const a = await screen.findByRole('link', { name: 'https://example.org/noten.pdf' });
    expect(a).toHaveAttribute('href', 'https://example.org/noten.pdf');
    expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    expect(a).toHaveAttribute('target', '_blank');
    expect(screen.getByText(/<b>fett<\/b>/)).toBeInTheDocument();
    expect(document.querySelector('[data-message-id="60"] b')).toBeNull();
  });

  it('loads older messages on request, above the newer ones, until there are none', async () => {
    const newer = [msg({ id: 72 }), msg({ id: 71 })];
    const older = [msg({ id: 70 }), msg({ id: 69 })];
    const calls = serve((before) => (before === '71' ? page({ data: older, next_before: null, read_up_to: 72 }) : page({ data: newer, next_before: 71, read_up_to: 72 })));
    const u = userEvent.setup();
    view('student', STUDENT.id);
    await waitFor(() => expect(messageEls()).toHaveLength(2));
    await u.click(screen.getByRole('button', { name: 'Ältere Nachrichten laden' }));
    await waitFor(() => expect(messageEls()).toHaveLength(4));
    expect(messageEls().map((e) => e.getAttribute('data-message-id'))).toEqual(['69', '70', '71', '72']);
    expect(screen.queryByRole('button', { name: 'Ältere Nachrichten laden' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'GET').map((c) => query(c).get('before'))).toEqual([null, '71']);
  });

  it('asks before deleting, and deletes only when confirmed', async () => {
    const mine = msg({ id: 80, author: STUDENT, body: 'Aus Versehen', can_delete: true });
    const calls = serve(page({ data: [mine, msg({ id: 79, author: TEACHER })], read_up_to: 80 }));
    const u = userEvent.setup();
    view('student', STUDENT.id);
    await waitFor(() => expect(messageEls()).toHaveLength(2));
    const el = screen.getByTestId('message-list').querySelector('[data-message-id="80"]') as HTMLElement;
    await u.click(within(el).getByRole('button', { name: 'Löschen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Nachricht löschen?' });
    await u.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(messageEls()).toHaveLength(2);

    await u.click(within(el).getByRole('button', { name: 'Löschen' }));
    dialog = await screen.findByRole('dialog', { name: 'Nachricht löschen?' });
    await u.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    expect(await screen.findByText('Die Nachricht wurde gelöscht.')).toBeInTheDocument();
    await waitFor(() => expect(messageEls()).toHaveLength(1));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => path(c))).toEqual(['/api/messages/80']);
  });

  it('an empty conversation says so; a failed load offers a retry; one not open to the caller says so', async () => {
    serve(page({ data: [] }));
    const first = view('student', STUDENT.id);
    expect(await screen.findByTestId('conversation-empty')).toHaveTextContent('Noch keine Nachrichten. Schreib deiner Lehrkraft, wenn du eine Frage hast.');
    first.unmount();
    vi.unstubAllGlobals();

    let fail = true;
    stubFetch(() => (fail ? jsonResponse(500, { message: 'kaputt' }) : jsonResponse(200, page({ data: [msg({ id: 90 })], read_up_to: 90 }))));
    const u = userEvent.setup();
    const second = renderWithApp(<ConversationView studentId={8} viewer="teacher" me={TEACHER.id} />);
    expect(await screen.findByText('Die Nachrichten konnten nicht geladen werden.')).toBeInTheDocument();
    fail = false;
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Nachricht 90')).toBeInTheDocument();
    second.unmount();
    vi.unstubAllGlobals();

    stubFetch(() => jsonResponse(404, { message: 'Nicht gefunden.' }));
    renderWithApp(<ConversationView studentId={9} viewer="teacher" me={TEACHER.id} />);
    expect(await screen.findByText('Dieses Gespräch gibt es nicht, oder es ist nicht freigegeben.')).toBeInTheDocument();
    expect(screen.queryByTestId('composer')).not.toBeInTheDocument();
  });

  it('shows a skeleton while the first page loads', async () => {
    let release: () => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = () => resolve(jsonResponse(200, page()))))),
    );
    view('student', STUDENT.id);
    expect(screen.getByTestId('conversation-loading')).toBeInTheDocument();
    await act(async () => release());
    expect(await screen.findByTestId('conversation-empty')).toBeInTheDocument();
  });
});

describe('Composer', () => {
  const field = () => screen.getByRole('textbox', { name: /Nachricht schreiben|Unterrichtsnotiz schreiben/ });

  it('sends the text, shows the new message at the bottom and empties the field', async () => {
    const calls = serve(page({ data: [msg({ id: 100, author: TEACHER })], read_up_to: 100 }), (c) =>
      c.method === 'POST' && path(c).endsWith('/messages') ? jsonResponse(201, msg({ id: 101, author: STUDENT, body: (c.body as { body: string }).body, can_delete: true })) : jsonResponse(204, undefined),
    );
    const u = userEvent.setup();
    view('student', STUDENT.id);
    await waitFor(() => expect(messageEls()).toHaveLength(1));
    // a student writes messages only
    expect(screen.queryByRole('radio', { name: 'Unterrichtsnotiz' })).not.toBeInTheDocument();
    await u.type(field(), '  Ich habe eine Frage zu Takt 4.  ');
    expect(screen.getByTestId('composer-count')).toHaveTextContent('30 / 2000 Zeichen');
    await u.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(messageEls()).toHaveLength(2));
    expect(messageEls().at(-1)).toHaveTextContent('Ich habe eine Frage zu Takt 4.');
    expect(field()).toHaveValue('');
    // writing marks read on the server: no read call for one's own message
    expect(calls.filter((c) => path(c).endsWith('/read'))).toEqual([]);
    expect(calls.filter((c) => c.method === 'POST' && path(c).endsWith('/messages'))).toEqual([
      { url: '/api/conversations/7/messages?language=de', method: 'POST', body: { body: 'Ich habe eine Frage zu Takt 4.', kind: 'message', link: null } },
    ]);
  });

  it('shows the server’s message under the field and keeps the text; an empty text is not sent', async () => {
    const calls = serve(page({ read_up_to: 0 }), () => jsonResponse(422, { message: 'Bitte überprüfen Sie Ihre Eingaben', errors: { body: ['Vom Server abgelehnt.'] } }));
    const u = userEvent.setup();
    view('guardian', PARENT.id);
    await screen.findByTestId('conversation-empty');
    await u.click(screen.getByRole('button', { name: 'Senden' }));
    expect(await screen.findByText('Bitte eine Nachricht eingeben.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await u.type(field(), 'Hallo');
    await u.click(screen.getByRole('button', { name: 'Senden' }));
    expect(await screen.findByText('Vom Server abgelehnt.')).toBeInTheDocument();
    expect(field()).toHaveAccessibleDescription(/Vom Server abgelehnt\./);
    expect(field()).toHaveValue('Hallo');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('counts the characters and refuses more than 2000 before sending', async () => {
    const calls = serve(page());
    view('student', STUDENT.id);
    await screen.findByTestId('conversation-empty');
    fireEvent.change(field(), { target: { value: 'a'.repeat(2001) } });
    expect(screen.getByTestId('composer-count')).toHaveTextContent('2001 / 2000 Zeichen');
    fireEvent.click(screen.getByRole('button', { name: 'Senden' }));
    expect(await screen.findByText('Eine Nachricht darf höchstens 2000 Zeichen lang sein.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('the teacher chooses a lesson note, and Ctrl+Enter sends it', async () => {
    const calls = serve(page({ can_write_notes: true }), (c) =>
      path(c).endsWith('/messages') ? jsonResponse(201, msg({ id: 110, author: TEACHER, kind: 'lesson_note', body: 'Heute: Arpeggien.', can_delete: true })) : jsonResponse(204, undefined),
    );
    const u = userEvent.setup();
    view('teacher', TEACHER.id);
    await screen.findByTestId('conversation-empty');
    expect(screen.getByRole('radio', { name: 'Nachricht' })).toBeChecked();
    await u.click(screen.getByRole('radio', { name: 'Unterrichtsnotiz' }));
    await u.type(screen.getByRole('textbox', { name: 'Unterrichtsnotiz schreiben' }), 'Heute: Arpeggien.');
    await u.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(messageEls()).toHaveLength(1));
    expect(within(messageEls()[0]!).getByTestId('lesson-note-mark')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ body: 'Heute: Arpeggien.', kind: 'lesson_note', link: null });
    // back to a plain message for the next one
    expect(screen.getByRole('radio', { name: 'Nachricht' })).toBeChecked();
  });

  it('sends the attached task or take as the link; the chip can be removed', async () => {
    const removed = vi.fn();
    const calls = serve(page(), (c) => (path(c).endsWith('/messages') ? jsonResponse(201, msg({ id: 120, author: TEACHER })) : jsonResponse(204, undefined)));
    const u = userEvent.setup();
    const { unmount } = view('teacher', TEACHER.id, { attachment: { task_id: 12, recording_id: 31, at_ms: 42_000 }, attachmentTitle: 'Tonleiter C-Dur', onAttachmentRemoved: removed });
    expect(await screen.findByTestId('composer-link')).toHaveTextContent('Verknüpft:Tonleiter C-Dur · 0:42');
    await u.type(field(), 'Hier klingt es unsauber.');
    await u.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(removed).toHaveBeenCalledTimes(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ body: 'Hier klingt es unsauber.', kind: 'message', link: { task_id: 12, recording_id: 31, at_ms: 42_000 } });
    unmount();

    view('teacher', TEACHER.id, { attachment: { task_id: 12, recording_id: null, at_ms: null }, onAttachmentRemoved: removed });
    expect(await screen.findByTestId('composer-link')).toHaveTextContent('Verknüpft:Aufgabe');
    await u.click(screen.getByRole('button', { name: 'Verknüpfung entfernen' }));
    expect(removed).toHaveBeenCalledTimes(2);
  });

  it('speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    serve(page({ data: [msg({ id: 130, author: TEACHER, kind: 'lesson_note' })], can_write_notes: false, read_up_to: 130 }));
    view('student', STUDENT.id);
    expect(await screen.findByTestId('lesson-note-mark')).toHaveTextContent('Ders notu');
    expect(screen.getByTestId('message-role')).toHaveTextContent('Öğretmen');
    expect(screen.getByRole('button', { name: 'Gönder' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Mesaj yaz' })).toBeInTheDocument();
  });
});
