import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QuickReply } from '@contract/recordings';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { CommentForm } from './comment-form';
import { PlayFromHere, useLandOnMoment } from './landing';
import type { PlayerHandle } from './recording-player';

const reply = (id: number, text: string): QuickReply => ({ id, text, created_at: '2026-03-01T10:00:00.000Z' });

/** A fake server: the saved replies, and what the form posts. */
function server(replies: QuickReply[]) {
  const posted: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (url.startsWith('/api/quick-replies') && method === 'GET') return jsonResponse(200, { data: replies });
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
      posted.push({ url, body });
      if (url.startsWith('/api/quick-replies') && method === 'POST') {
        const r = reply(100 + replies.length, (body as { text: string }).text);
        replies.push(r);
        return jsonResponse(201, r);
      }
      return jsonResponse(201, { id: 1, recording_id: 5, teacher: { id: 9, name: 'L' }, at_ms: 1000, text: 'x', audio: null, created_at: '', updated_at: '' });
    }),
  );
  return posted;
}

function form() {
  const draftRef = createRef<HTMLTextAreaElement>();
  renderWithApp(<CommentForm recordingId={5} draftAt={1000} onDraftAt={() => undefined} currentMs={() => 0} draftRef={draftRef} onSaved={() => undefined} />);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// a loaded machine: typing and the fake server's answers take their time
describe('CommentForm: saved quick replies', { timeout: 30_000 }, () => {
  it('inserts a saved reply with a click and with Alt+2, and sends it as the comment', async () => {
    await i18n.changeLanguage('de');
    const posted = server([reply(1, 'Schöner Ton!'), reply(2, 'Achte auf den Bogen.')]);
    form();
    const toggle = await screen.findByRole('button', { name: 'Schnellantworten (2)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Schöner Ton!' }));
    const text = screen.getByRole('textbox', { name: 'Kommentar' });
    await waitFor(() => expect(text).toHaveValue('Schöner Ton!'));
    await waitFor(() => expect(text).toHaveFocus());
    await userEvent.type(text, ' ');
    await userEvent.keyboard('{Alt>}2{/Alt}');
    await waitFor(() => expect(text).toHaveValue('Schöner Ton! Achte auf den Bogen.'));
    await userEvent.click(screen.getByRole('button', { name: 'Kommentar speichern' }));
    await waitFor(() => expect(posted).toContainEqual({ url: expect.stringContaining('/api/recordings/5/comments'), body: { at_ms: 1000, text: 'Schöner Ton! Achte auf den Bogen.' } }));
  });

  it('saves the text as a new quick reply (in Turkish too)', async () => {
    await i18n.changeLanguage('tr');
    const posted = server([]);
    form();
    expect(await screen.findByRole('button', { name: 'Hızlı yanıtlar (0)' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Yorum' }), 'Ritmi say');
    await userEvent.click(screen.getByRole('button', { name: 'Hızlı yanıt olarak kaydet' }));
    await waitFor(() => expect(posted).toContainEqual({ url: expect.stringContaining('/api/quick-replies'), body: { text: 'Ritmi say' } }));
    expect(await screen.findByRole('button', { name: 'Hızlı yanıtlar (1)' })).toBeInTheDocument();
    await i18n.changeLanguage('de');
  });
});

function Landing({ player, ok }: { player: PlayerHandle; ok: boolean }) {
  const ref = { current: player };
  const target = { current: null };
  const land = useLandOnMoment({ atMs: 42_000, commentId: 7 }, ref, target);
  return <div>{land.refusedAt !== null ? <PlayFromHere atMs={land.refusedAt} onPlay={() => void player.playFrom(land.refusedAt ?? 0)} /> : <span>{ok ? 'spielt' : 'wartet'}</span>}</div>;
}

describe('landing on a moment', () => {
  it('plays from the moment; when the browser refuses, "Ab hier abspielen (0:42)" appears focused and plays with the click', async () => {
    await i18n.changeLanguage('de');
    const refused = { playFrom: vi.fn(async () => false), currentMs: () => 0, focus: () => undefined, toggle: () => undefined, seekBy: () => undefined, commentNow: () => undefined };
    renderWithApp(<Landing player={refused} ok={false} />);
    const button = await screen.findByRole('button', { name: 'Ab hier abspielen (0:42)' });
    expect(refused.playFrom).toHaveBeenCalledWith(42_000);
    await waitFor(() => expect(button).toHaveFocus());
    const before = refused.playFrom.mock.calls.length;
    await act(async () => userEvent.click(button));
    expect(refused.playFrom).toHaveBeenCalledTimes(before + 1);
    expect(refused.playFrom).toHaveBeenLastCalledWith(42_000);
  });

  it('shows no button when it plays', async () => {
    const playing = { playFrom: vi.fn(async () => true), currentMs: () => 0, focus: () => undefined, toggle: () => undefined, seekBy: () => undefined, commentNow: () => undefined };
    renderWithApp(<Landing player={playing} ok />);
    await waitFor(() => expect(playing.playFrom).toHaveBeenCalledWith(42_000));
    expect(screen.queryByRole('button', { name: /Ab hier abspielen/ })).toBeNull();
  });
});
