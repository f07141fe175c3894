import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import type { Exercise } from '@contract/exercises';
import { NO_SETTINGS } from '@contract/exercise-settings';
import { ExerciseForm } from './exercise-form';

const exercise: Exercise = {
  id: 7, title: 'Hicaz Peşrev', description: null, category: 'makam', category_label: 'Makam', difficulty: null, target: null,
  estimated_minutes: null, tags: [], priority: 2, language: 'de', courses: [], created_at: '2026-11-01T10:00:00.000Z', media_files: [],
  ...NO_SETTINGS, tempo_bpm: 80, usul: 'duyek', makam: 'hicaz', durak: 'Dügâh', usul_pattern: ['dum', 'tek', 'rest', 'tek'],
};

type Submit = (form: FormData, onProgress?: (f: number) => void) => Promise<void>;
function setup(props: Partial<Parameters<typeof ExerciseForm>[0]> = {}, onSubmit = vi.fn<Submit>(async () => {})) {
  render(
    <ExerciseForm open categories={undefined} courses={[]} defaultCourseIds={[]} defaultLanguage="de" onClose={() => {}} onSubmit={onSubmit} {...props} />,
  );
  return { onSubmit, user: userEvent.setup({ delay: null }) };
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(cleanup);

describe('ExerciseForm: Übungseinstellungen', { timeout: 20_000 }, () => {
  it('starts closed for a new exercise; opens; every input has a label; sends the settings', async () => {
    const { user, onSubmit } = setup();
    const toggle = screen.getByRole('button', { name: /Übungseinstellungen/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Tempo (BPM)')).not.toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.type(screen.getByLabelText('Titel'), 'Aksak');
    await user.type(screen.getByLabelText('Tempo (BPM)'), '120');
    await user.type(screen.getByLabelText('Taktart'), '7/8');
    await user.type(screen.getByLabelText('Gruppierung'), '2+2+3');
    await user.selectOptions(screen.getByLabelText('Usul'), 'Düyek');
    await user.selectOptions(screen.getByLabelText('Makam'), 'Hicaz');
    await user.type(screen.getByLabelText('Durak (Grundton)'), 'Dügâh');
    await user.type(screen.getByLabelText('Schlagmuster'), 'düm tek - tek');
    expect(screen.getByTestId('exercise-settings-summary')).toHaveTextContent('Hicaz · Düyek · 7/8 (2+2+3) · ♪ = 120');
    // Düyek 8/8 counts eighths, the tempo's hint says so; there is nothing to choose
    expect(screen.getByLabelText('Tempo (BPM)')).toHaveAccessibleDescription('Ganze Zahl von 20 bis 300: Achtel pro Minute');
    expect(screen.queryByLabelText('Zählzeit des Tempos')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Übung erstellen' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const fd = onSubmit.mock.calls[0]![0];
    expect(Object.fromEntries(['tempo_bpm', 'tempo_unit', 'meter', 'meter_grouping', 'usul', 'makam', 'durak', 'usul_pattern'].map((k) => [k, fd.get(k)]))).toEqual({
      tempo_bpm: '120',
      tempo_unit: '',
      meter: '7/8',
      meter_grouping: '2+2+3',
      usul: 'duyek',
      makam: 'hicaz',
      durak: 'Dügâh',
      usul_pattern: 'düm tek - tek',
    });
  });

  it("starts open with the exercise's settings when editing and keeps them (blank ones sent as blank)", async () => {
    const { user, onSubmit } = setup({ exercise });
    expect(screen.getByRole('button', { name: /Übungseinstellungen/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Tempo (BPM)')).toHaveValue(80);
    expect(screen.getByLabelText('Usul')).toHaveValue('duyek');
    expect(screen.getByLabelText('Makam')).toHaveValue('hicaz');
    expect(screen.getByLabelText('Schlagmuster')).toHaveValue('dum tek rest tek');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const fd = onSubmit.mock.calls[0]![0];
    expect(fd.get('tempo_bpm')).toBe('80');
    expect(fd.get('usul_pattern')).toBe('dum tek rest tek');
    expect(fd.get('meter')).toBe('');
  });

  it('a 6/8 exercise lets the teacher count dotted quarters ("♩. = 60"); the written unit is sent as blank', async () => {
    const { user, onSubmit } = setup();
    await user.click(screen.getByRole('button', { name: /Übungseinstellungen/ }));
    await user.type(screen.getByLabelText('Titel'), 'Yürük');
    await user.type(screen.getByLabelText('Tempo (BPM)'), '60');
    expect(screen.queryByLabelText('Zählzeit des Tempos')).toBeNull(); // no meter yet: quarters
    expect(screen.getByTestId('exercise-settings-summary')).toHaveTextContent('♩ = 60');
    await user.type(screen.getByLabelText('Taktart'), '6/8');
    const unit = screen.getByLabelText('Zählzeit des Tempos');
    expect(unit).toHaveValue('');
    expect(screen.getByTestId('exercise-settings-summary')).toHaveTextContent('6/8 · ♪ = 60');
    expect(screen.getByRole('img', { name: 'Achtel = 60' })).toBeInTheDocument();
    await user.selectOptions(unit, 'punktierte Viertel');
    expect(screen.getByTestId('exercise-settings-summary')).toHaveTextContent('6/8 · ♩. = 60');
    expect(screen.getByRole('img', { name: 'punktierte Viertel = 60' })).toBeInTheDocument();
    expect(screen.getByLabelText('Tempo (BPM)')).toHaveAccessibleDescription('Ganze Zahl von 20 bis 300: punktierte Viertel pro Minute');
    await user.click(screen.getByRole('button', { name: 'Übung erstellen' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].get('tempo_unit')).toBe('dotted-quarter');
    // the written unit again: blank (null = the meter's own unit)
    await user.selectOptions(unit, 'Achtel');
    await user.click(screen.getByRole('button', { name: 'Übung erstellen' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    expect(onSubmit.mock.calls[1]![0].get('tempo_unit')).toBe('');
  });

  it('checks tempo, meter and grouping on the client and opens the section on an error', async () => {
    const { user, onSubmit } = setup();
    await user.click(screen.getByRole('button', { name: /Übungseinstellungen/ }));
    await user.type(screen.getByLabelText('Titel'), 'x');
    await user.type(screen.getByLabelText('Tempo (BPM)'), '400');
    await user.type(screen.getByLabelText('Taktart'), '7/8');
    await user.type(screen.getByLabelText('Gruppierung'), '2+2');
    await user.click(screen.getByRole('button', { name: /Übungseinstellungen/ })); // closed again
    await user.click(screen.getByRole('button', { name: 'Übung erstellen' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /Übungseinstellungen/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Bitte ein Tempo von 20 bis 300 BPM angeben (ganze Zahl).')).toBeInTheDocument();
    expect(screen.getByText('Die Gruppen müssen zusammen 7 Schläge ergeben.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Tempo (BPM)')).toHaveFocus());
  });

  it("shows the server's 422 errors under the settings' fields (Turkish interface)", async () => {
    await i18n.changeLanguage('tr');
    const onSubmit = vi.fn<Submit>(async () => {
      throw new ApiError(422, 'Lütfen girdilerinizi kontrol edin', { durak: ['Değer çok uzun.'], usul_pattern: ['Yalnızca düm, tek ve es (rest) kullanılabilir.'] });
    });
    const { user } = setup({ exercise: { ...exercise, tempo_bpm: null, usul: null, makam: null, durak: null, usul_pattern: null } }, onSubmit);
    const toggle = screen.getByRole('button', { name: /Alıştırma ayarları/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(screen.getByRole('button', { name: 'Kaydet' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('Değer çok uzun.')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Durak')).toHaveAccessibleDescription('Değer çok uzun.');
    expect(screen.getByText('Yalnızca düm, tek ve es (rest) kullanılabilir.')).toBeInTheDocument();
  });
});
