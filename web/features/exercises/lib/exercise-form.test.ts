import { describe, expect, it } from 'vitest';
import de from '../../../locales/de/exercises.json';
import tr from '../../../locales/tr/exercises.json';
import type { Exercise } from '@contract/exercises';
import { addFiles, filterExercises, fileType, initialValues, parseTags, toFormData, validateExercise } from './exercise-form';
import { NO_SETTINGS } from '@contract/exercise-settings';

const MB = 1024 * 1024;
const f = (name: string, size: number, type: string) => ({ name, size, type });

describe('addFiles (SPEC.md section 5)', () => {
  it('accepts every allowed type up to exactly 20 MB', () => {
    const types = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/avi', 'video/quicktime', 'video/x-msvideo', 'video/webm', 'video/x-matroska', 'application/pdf'];
    const { files, problems } = addFiles([], types.map((t, i) => f(`f${i}`, 20971520, t)));
    expect(problems).toEqual([]);
    expect(files).toHaveLength(11);
  });
  it('rejects other types and files over 20 MB, naming them', () => {
    const { files, problems } = addFiles([], [f('a.txt', 10, 'text/plain'), f('b.png', 20971521, 'image/png'), f('c.svg', 10, 'image/svg+xml')]);
    expect(files).toEqual([]);
    expect(problems).toEqual([
      { kind: 'type', type: 'text/plain', name: 'a.txt' },
      { kind: 'size', name: 'b.png' },
      { kind: 'type', type: 'image/svg+xml', name: 'c.svg' },
    ]);
  });
  it('ignores a file with the same name and size as one already chosen (also within one pick)', () => {
    const first = addFiles([], [f('a.png', 5 * MB, 'image/png')]);
    const again = addFiles(first.files, [f('a.png', 5 * MB, 'image/png'), f('a.png', 6 * MB, 'image/png'), f('b.png', 5 * MB, 'image/png'), f('b.png', 5 * MB, 'image/png')]);
    expect(again.files.map((x) => `${x.name}:${x.size}`)).toEqual(['a.png:5242880', 'a.png:6291456', 'b.png:5242880']);
    expect(again.problems).toEqual([]);
  });
  it('derives a missing browser type from the extension', () => {
    expect(fileType(f('Konzert.MKV', 1, ''))).toBe('video/x-matroska');
    expect(addFiles([], [f('x.mkv', 1, '')]).files).toHaveLength(1);
    expect(addFiles([], [f('x.exe', 1, '')]).problems).toEqual([{ kind: 'type', type: 'exe', name: 'x.exe' }]);
  });
  it('has the messages of SPEC.md verbatim in German, and Turkish ones', () => {
    expect(de.form.fileTypeUnsupported.replace('{{type}}', 'text/plain')).toBe('Dateityp text/plain wird nicht unterstützt');
    expect(de.form.fileTooLarge.replace('{{name}}', 'b.png')).toBe('Datei b.png ist zu groß (max. 20MB)');
    expect(tr.form.fileTooLarge).toContain('{{name}}');
    expect(de.priority).toEqual({ 1: 'Niedrig', 2: 'Normal', 3: 'Hoch', 4: 'Sehr hoch', 5: 'Kritisch' });
    expect(de.difficulty).toEqual({ leicht: 'Leicht', mittel: 'Mittel', fortgeschritten: 'Fortgeschritten' });
    expect(de.toast).toMatchObject({
      created: 'Übung erfolgreich erstellt',
      updated: 'Übung erfolgreich aktualisiert',
      deleted: 'Übung erfolgreich gelöscht',
      loadError: 'Fehler beim Laden der Übungen',
      validation: 'Bitte überprüfen Sie Ihre Eingaben',
      saveError: 'Fehler beim Speichern der Übung',
      deleteError: 'Fehler beim Löschen der Übung',
    });
  });
});

describe('form values', () => {
  it('splits and trims tags', () => {
    expect(parseTags(' atem, ney ,, rast , ney')).toEqual(['atem', 'ney', 'rast']);
    expect(parseTags('')).toEqual([]);
  });
  it('requires a title and at least 1 minute', () => {
    const v = initialValues(null, { language: 'de', courseIds: [] });
    expect(validateExercise(v)).toEqual({ title: 'required' });
    expect(validateExercise({ ...v, title: 'x', estimated_minutes: '0' })).toEqual({ estimated_minutes: 'min' });
    expect(validateExercise({ ...v, title: 'x', estimated_minutes: '1.5' })).toEqual({ estimated_minutes: 'min' });
    expect(validateExercise({ ...v, title: 'x', estimated_minutes: '1' })).toEqual({});
    expect(validateExercise({ ...v, title: 'x', estimated_minutes: '' })).toEqual({});
  });
  it('builds the multipart form with indexed fields', () => {
    const v = { ...initialValues(null, { language: 'tr', courseIds: [3] }), title: ' Rast ', tags: 'a, b', course_ids: [3, 5] };
    const file = new File([new Uint8Array([1, 2, 3])], 'n.png', { type: 'image/png' });
    const fd = toFormData(v, [file], [9]);
    expect(fd.get('title')).toBe('Rast');
    expect(fd.get('language')).toBe('tr');
    expect(fd.get('priority')).toBe('2');
    expect([fd.get('tags[0]'), fd.get('tags[1]')]).toEqual(['a', 'b']);
    expect([fd.get('course_ids[0]'), fd.get('course_ids[1]')]).toEqual(['3', '5']);
    expect(fd.get('remove_media[0]')).toBe('9');
    expect((fd.get('media_files[0]') as File).name).toBe('n.png');
  });
});

describe('filterExercises', () => {
  const ex = (o: Partial<Exercise>): Exercise => ({
    id: 1, title: '', description: null, category: null, category_label: null, difficulty: null, target: null,
    estimated_minutes: null, tags: [], priority: 2, language: 'de', courses: [], created_at: '2026-01-01T00:00:00.000Z', media_files: [], ...NO_SETTINGS, ...o,
  });
  const list = [
    ex({ id: 1, title: 'Lange Töne', category: 'atem_kontrolle', difficulty: 'leicht', tags: ['ney'] }),
    ex({ id: 2, title: 'Makam Hicaz', category: 'makam', difficulty: 'fortgeschritten', target: 'Seyir spielen' }),
    ex({ id: 3, title: 'Usul', category: 'rhythmus_tempo', difficulty: 'mittel', description: 'Düyek mit Metronom' }),
  ];
  it('searches title, description, target and tags, case-insensitively', () => {
    expect(filterExercises(list, { search: 'töne', category: '', difficulty: '' }).map((e) => e.id)).toEqual([1]);
    expect(filterExercises(list, { search: 'NEY', category: '', difficulty: '' }).map((e) => e.id)).toEqual([1]);
    expect(filterExercises(list, { search: 'seyir', category: '', difficulty: '' }).map((e) => e.id)).toEqual([2]);
    expect(filterExercises(list, { search: 'metronom', category: '', difficulty: '' }).map((e) => e.id)).toEqual([3]);
  });
  it('filters by category and difficulty', () => {
    expect(filterExercises(list, { search: '', category: 'makam', difficulty: '' }).map((e) => e.id)).toEqual([2]);
    expect(filterExercises(list, { search: '', category: '', difficulty: 'mittel' }).map((e) => e.id)).toEqual([3]);
    expect(filterExercises(list, { search: '', category: 'makam', difficulty: 'mittel' })).toEqual([]);
  });
});
