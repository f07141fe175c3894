import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatMoment, type RecordingComment } from '@contract/recordings';
import { renderWithApp } from '@web/test/render';
import i18n from '@web/lib/i18n';
import { CommentList, sortComments } from './comment-list';

const c = (id: number, at_ms: number | null, text: string, created_at = '2026-03-01T10:00:00.000Z'): RecordingComment => ({
  id,
  recording_id: 1,
  teacher: { id: 9, name: 'Mehmet Yılmaz' },
  at_ms,
  text,
  audio: null,
  created_at,
  updated_at: created_at,
});

describe('formatMoment (mm:ss)', () => {
  it.each([
    [0, '0:00'],
    [999, '0:00'],
    [1000, '0:01'],
    [42_500, '0:42'],
    [65_000, '1:05'],
    [600_000, '10:00'],
    [3_599_999, '59:59'],
    [3_600_000, '1:00:00'],
    [3_725_000, '1:02:05'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatMoment(ms)).toBe(text);
  });
});

describe('CommentList', () => {
  it('lists general remarks first, then by moment, then by creation', () => {
    const sorted = sortComments([c(1, 65_000, 'late'), c(2, 1000, 'early b', '2026-03-02T00:00:00Z'), c(3, null, 'general'), c(4, 1000, 'early a'), c(5, 0, 'start')]);
    expect(sorted.map((x) => x.text)).toEqual(['general', 'start', 'early a', 'early b', 'late']);
  });

  it("shows 'Kommentar bei m:ss' in time order and plays from the comment's moment", async () => {
    await i18n.changeLanguage('de');
    const onPlay = vi.fn();
    renderWithApp(<CommentList comments={[c(1, 65_000, 'Hier eilst du'), c(2, 1000, 'Schöner Anfang'), c(3, null, 'Insgesamt gut')]} onPlay={onPlay} />);
    const items = await screen.findAllByTestId('comment');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining('Allgemeiner Kommentar'),
      expect.stringContaining('Kommentar bei 0:01'),
      expect.stringContaining('Kommentar bei 1:05'),
    ]);
    await userEvent.click(within(items[2]!).getByRole('button', { name: /Kommentar bei 1:05/ }));
    expect(onPlay).toHaveBeenCalledWith(65_000);
  });

  it('offers edit and delete only on the own comments', async () => {
    await i18n.changeLanguage('de');
    const mine = c(1, 1000, 'Meiner');
    const other = { ...c(2, 2000, 'Fremder'), teacher: { id: 10, name: 'Andere' } };
    renderWithApp(<CommentList comments={[mine, other]} onPlay={() => undefined} canEdit={(x) => x.teacher.id === 9} onEdit={async () => undefined} onDelete={() => undefined} />);
    await screen.findAllByTestId('comment');
    expect(screen.getAllByRole('button', { name: /^Bearbeiten/ })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /^Löschen/ })).toHaveLength(1);
  });

  it('shows the moment in Turkish too', async () => {
    await i18n.changeLanguage('tr');
    renderWithApp(<CommentList comments={[c(1, 1000, 'x')]} onPlay={() => undefined} />);
    expect(await screen.findByRole('button', { name: /0:01 anındaki yorum/ })).toBeInTheDocument();
    await i18n.changeLanguage('de');
  });
});
