import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Recording } from '@contract/recordings';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { LatestFeedback } from './latest-feedback';

const take = (id: number, comments: Recording['comments']): Recording => ({
  id,
  submission_id: 7,
  student: { id: 3, name: 'Ayşe Demir' },
  exercise_title: 'Rast Taksim',
  kind: 'audio',
  mime_type: 'audio/webm',
  size: 1000,
  duration_ms: 3000,
  path: `recordings/${id}.webm`,
  message: null,
  practice_session_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  answered_at: null,
  seen_at: null,
  new_feedback: false,
  comments,
});

const comment = (id: number, text: string, updatedAt: string, atMs: number | null = 1000): Recording['comments'][number] => ({
  id,
  recording_id: 5,
  teacher: { id: 9, name: 'Mehmet Yılmaz' },
  at_ms: atMs,
  text,
  audio: null,
  created_at: updatedAt,
  updated_at: updatedAt,
});

function server(takes: Recording[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (url.startsWith('/api/submissions/7/recordings') ? jsonResponse(200, { data: takes }) : jsonResponse(404, { message: 'nope' }))),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LatestFeedback', { timeout: 30_000 }, () => {
  it('with no take comment and no written feedback says there is none yet', async () => {
    await i18n.changeLanguage('de');
    server([take(5, [])]);
    renderWithApp(<LatestFeedback submissionId={7} />);
    expect(await screen.findByText(/Noch kein Feedback\./)).toBeInTheDocument();
    expect(screen.queryByTestId('latest-feedback-jump')).not.toBeInTheDocument();
  });

  it("with no take comment shows the teacher's written feedback and leads to it", async () => {
    await i18n.changeLanguage('de');
    server([]);
    const onShow = vi.fn();
    renderWithApp(<LatestFeedback submissionId={7} written={{ text: 'Schöne Phrasierung, die Segâh-Stelle noch tiefer.', onShow }} />);
    expect(await screen.findByTestId('latest-feedback-text')).toHaveTextContent('Schöne Phrasierung, die Segâh-Stelle noch tiefer.');
    expect(screen.queryByText(/Noch kein Feedback/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Zum Feedback vom Lehrer' }));
    expect(onShow).toHaveBeenCalledTimes(1);
  });

  it('prefers the newest take comment, with its teacher, date and moment (Turkish)', async () => {
    await i18n.changeLanguage('tr');
    server([take(5, [comment(1, 'Eski yorum', '2026-11-20T10:00:00.000Z'), comment(2, 'Yeni yorum', '2026-11-22T10:00:00.000Z', 65_000)])]);
    renderWithApp(<LatestFeedback submissionId={7} written={{ text: 'Yazılı geri bildirim', onShow: () => undefined }} />);
    expect(await screen.findByTestId('latest-feedback-text')).toHaveTextContent('Yeni yorum');
    expect(screen.getByRole('heading', { name: /En yeni geri bildirim · Mehmet Yılmaz · 22\.11\.2026/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1:05 anına git' })).toBeInTheDocument();
    await i18n.changeLanguage('de');
  });
});
