import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import type { Exercise } from '@contract/exercises';
import { NO_SETTINGS } from '@contract/exercise-settings';
import { ExerciseForm } from './exercise-form';

const categories = {
  atem_kontrolle: 'Atem & Kontrolle', tonbildung: 'Tonbildung', noten_finger: 'Noten & Finger', haltung_technik: 'Haltung & Technik',
  rhythmus_tempo: 'Rhythmus & Tempo', makam: 'Makam', hoer_nachspiel: 'Hören & Nachspielen', theorie_reflexion: 'Theorie & Reflexion',
  kombinationen: 'Kombinationen & Wochenpläne',
};
const exercise: Exercise = {
  id: 4, title: 'Makam Rast', description: 'Langsam', category: 'makam', category_label: 'Makam', difficulty: 'mittel', target: 'Rast',
  estimated_minutes: 20, tags: ['rast', 'makam'], priority: 3, language: 'de', courses: [{ id: 1, name: 'Ney' }], created_at: '2026-11-01T10:00:00.000Z',
  media_files: [
    { id: 11, type: 'image', path: 'exercises/4/media/a.png', filename: 'Noten.png', size: 1536, mime_type: 'image/png' },
    { id: 12, type: 'pdf', path: 'exercises/4/media/b.pdf', filename: 'Blatt.pdf', size: 2 * 1024 * 1024, mime_type: 'application/pdf' },
  ],
  ...NO_SETTINGS,
};

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(cleanup);

type Submit = (form: FormData, onProgress?: (f: number) => void) => Promise<void>;
function setup(props: Partial<Parameters<typeof ExerciseForm>[0]> = {}, onSubmit = vi.fn<Submit>(async () => {})) {
  render(
    <ExerciseForm
      open
      categories={categories}
      courses={[{ id: 1, name: 'Ney' }, { id: 2, name: 'Oud' }]}
      defaultCourseIds={[2]}
      defaultLanguage="de"
      onClose={() => {}}
      onSubmit={onSubmit}
      {...props}
    />,
  );
  return { onSubmit, user: userEvent.setup({ applyAccept: false, delay: null }) };
}

const file = (name: string, size: number, type: string) => {
  const f = new File([new Uint8Array(Math.min(size, 16))], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('ExerciseForm', { timeout: 20_000 }, () => {
  it('checks files on the client with the messages of SPEC.md and ignores a duplicate', async () => {
    const { user } = setup();
    const input = screen.getByTestId('exercise-file-input');
    await user.upload(input, [file('a.png', 3000, 'image/png'), file('x.txt', 10, 'text/plain'), file('big.mp4', 20971521, 'video/mp4')]);
    expect(screen.getByText('Dateityp text/plain wird nicht unterstützt')).toBeInTheDocument();
    expect(screen.getByText('Datei big.mp4 ist zu groß (max. 20MB)')).toBeInTheDocument();
    await user.upload(input, [file('a.png', 3000, 'image/png')]);
    const chosen = within(screen.getByTestId('chosen-files')).getAllByRole('listitem');
    expect(chosen).toHaveLength(1);
    expect(chosen[0]).toHaveTextContent('2,93 KB');
  });

  it('requires a title and at least 1 minute, then sends the multipart form with progress', async () => {
    let report: ((f: number) => void) | undefined;
    let finish: () => void = () => {};
    const onSubmit = vi.fn<Submit>(
      (_form, onProgress) =>
        new Promise<void>((resolve) => {
          report = onProgress;
          finish = resolve;
        }),
    );
    const { user } = setup({}, onSubmit);
    await user.type(screen.getByLabelText('Geschätzte Dauer (Minuten)'), '0');
    await user.click(screen.getByRole('button', { name: 'Übung erstellen' }));
    expect(screen.getByText('Bitte geben Sie einen Titel ein.')).toBeInTheDocument();
    expect(screen.getByText('Bitte mindestens 1 Minute angeben.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Titel'), 'Lange Töne');
    await user.clear(screen.getByLabelText('Geschätzte Dauer (Minuten)'));
    await user.type(screen.getByLabelText('Geschätzte Dauer (Minuten)'), '15');
    await user.selectOptions(screen.getByLabelText('Kategorie'), 'Makam');
    await user.selectOptions(screen.getByLabelText('Priorität'), '5 – Kritisch');
    await user.type(screen.getByLabelText('Tags'), 'atem, ney ,');
    await user.upload(screen.getByTestId('exercise-file-input'), [file('n.png', 100, 'image/png')]);
    await user.click(screen.getByRole('button', { name: 'Übung erstellen' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const fd = onSubmit.mock.calls[0]![0];
    expect(fd.get('title')).toBe('Lange Töne');
    expect(fd.get('estimated_minutes')).toBe('15');
    expect(fd.get('category')).toBe('makam');
    expect(fd.get('priority')).toBe('5');
    expect([fd.get('tags[0]'), fd.get('tags[1]'), fd.get('tags[2]')]).toEqual(['atem', 'ney', null]);
    expect(fd.get('course_ids[0]')).toBe('2');
    expect((fd.get('media_files[0]') as File).name).toBe('n.png');
    act(() => report?.(0.42));
    expect(screen.getByRole('progressbar', { name: 'Upload-Fortschritt' })).toHaveAttribute('aria-valuenow', '42');
    expect(screen.getByText('Wird hochgeladen... 42 %')).toBeInTheDocument();
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
  });

  it('edits: shows existing files with sizes, sends remove_media for a removed one, shows server errors', async () => {
    const onSubmit = vi.fn<Submit>(async () => {
      throw new ApiError(422, 'Bitte überprüfen Sie Ihre Eingaben', { title: ['Zu lang.'], 'media_files.0': ['Dateityp von x.png wird nicht unterstützt'] });
    });
    const { user } = setup({ exercise }, onSubmit);
    expect(screen.getByRole('dialog', { name: 'Übung bearbeiten' })).toBeInTheDocument();
    expect(screen.getByLabelText('Titel')).toHaveValue('Makam Rast');
    expect(screen.getByLabelText('Tags')).toHaveValue('rast, makam');
    const existing = within(screen.getByTestId('existing-files')).getAllByRole('listitem');
    expect(existing[0]).toHaveTextContent('1,5 KB');
    expect(existing[1]).toHaveTextContent('2 MB');
    await user.click(screen.getByRole('button', { name: 'Blatt.pdf entfernen' }));
    expect(existing[1]).toHaveTextContent('wird entfernt');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const fd = onSubmit.mock.calls[0]![0];
    expect(fd.get('remove_media[0]')).toBe('12');
    expect(fd.get('remove_media[1]')).toBeNull();
    expect(onSubmit.mock.calls[0]![1]).toBeUndefined(); // no files: no progress reporting
    expect(await screen.findByText('Zu lang.')).toBeInTheDocument();
    expect(screen.getByText('Dateityp von x.png wird nicht unterstützt')).toBeInTheDocument();
  });
});
