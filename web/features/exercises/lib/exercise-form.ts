import { UPLOAD_MAX_BYTES, UPLOAD_MIME_TYPES, type Category, type Difficulty } from '@contract/constants';
import type { Exercise } from '@contract/exercises';
import { parseGrouping, parseMeter, strokeList } from '@contract/exercise-settings-limits';
import { STROKES, TEMPO_RANGE, type MakamKey, type TempoUnit, type UsulKey } from '@contract/music-keys';

/** What the picker needs of a File (a real File in the browser, a plain object in tests). */
export type PickedFile = { name: string; size: number; type: string };

export type FileProblem = { kind: 'type'; type: string; name: string } | { kind: 'size'; name: string };

/** Types by extension, for files the browser reports without a type (often .mkv or .avi). */
const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  pdf: 'application/pdf',
};

export function fileType(f: PickedFile): string {
  if (f.type) return f.type;
  const ext = /\.([A-Za-z0-9]+)$/.exec(f.name)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) ?? '';
}

export const ACCEPT_ATTRIBUTE = [...UPLOAD_MIME_TYPES, '.mkv', '.avi', '.mov', '.m4v'].join(',');

/**
 * SPEC.md section 5 upload checks: allowed types, at most 20 MB each, and a file with the same
 * name and size as one already chosen is ignored. Returns the new list and the problems found.
 */
export function addFiles<F extends PickedFile>(chosen: readonly F[], incoming: readonly F[]): { files: F[]; problems: FileProblem[] } {
  const files = [...chosen];
  const problems: FileProblem[] = [];
  for (const f of incoming) {
    const type = fileType(f);
    if (!(UPLOAD_MIME_TYPES as readonly string[]).includes(type)) {
      problems.push({ kind: 'type', type: f.type || type || f.name.split('.').pop() || f.name, name: f.name });
      continue;
    }
    if (f.size > UPLOAD_MAX_BYTES) {
      problems.push({ kind: 'size', name: f.name });
      continue;
    }
    if (files.some((c) => c.name === f.name && c.size === f.size)) continue;
    files.push(f);
  }
  return { files, problems };
}

/** 'atem, ney ,, rast ' → ['atem', 'ney', 'rast'] (SPEC.md: comma-separated, split and trimmed). */
export function parseTags(input: string): string[] {
  return [...new Set(input.split(',').map((t) => t.trim()).filter((t) => t !== ''))];
}

export type ExerciseFormValues = {
  title: string;
  description: string;
  category: Category | '';
  difficulty: Difficulty | '';
  target: string;
  estimated_minutes: string;
  priority: number;
  language: 'de' | 'tr';
  tags: string;
  course_ids: number[];
  /** Practice-tool settings ("Übungseinstellungen"), all optional; text as typed. */
  tempo_bpm: string;
  /** The note value the tempo counts; '' = the usul's or meter's written unit. */
  tempo_unit: TempoUnit | '';
  meter: string;
  meter_grouping: string;
  usul: UsulKey | '';
  /** Strokes separated by spaces: 'dum tek - tek' ('-' or rest for a rest). */
  usul_pattern: string;
  makam: MakamKey | '';
  durak: string;
};

/** The settings' fields of the form. */
export const SETTINGS_KEYS = ['tempo_bpm', 'tempo_unit', 'meter', 'meter_grouping', 'usul', 'usul_pattern', 'makam', 'durak'] as const;
export type SettingsKey = (typeof SETTINGS_KEYS)[number];

/** True when any setting is filled in (the section then starts open). */
export function hasSettings(v: Pick<ExerciseFormValues, SettingsKey>): boolean {
  return SETTINGS_KEYS.some((k) => v[k].trim() !== '');
}

export function initialValues(e: Exercise | null | undefined, defaults: { language: 'de' | 'tr'; courseIds: number[] }): ExerciseFormValues {
  return {
    title: e?.title ?? '',
    description: e?.description ?? '',
    category: e?.category ?? '',
    difficulty: e?.difficulty ?? '',
    target: e?.target ?? '',
    estimated_minutes: e?.estimated_minutes ? String(e.estimated_minutes) : '',
    priority: e?.priority ?? 2,
    language: e?.language ?? defaults.language,
    tags: e?.tags.join(', ') ?? '',
    course_ids: e ? e.courses.map((c) => c.id) : defaults.courseIds,
    tempo_bpm: e?.tempo_bpm ? String(e.tempo_bpm) : '',
    tempo_unit: e?.tempo_unit ?? '',
    meter: e?.meter ?? '',
    meter_grouping: e?.meter_grouping ?? '',
    usul: e?.usul ?? '',
    usul_pattern: e?.usul_pattern?.join(' ') ?? '',
    makam: e?.makam ?? '',
    durak: e?.durak ?? '',
  };
}

export type FormErrorKey = 'title' | 'estimated_minutes' | 'tempo_bpm' | 'meter' | 'meter_grouping' | 'usul_pattern';
export type FormProblem = 'required' | 'min' | 'tempo' | 'meter' | 'grouping' | 'groupingSum' | 'groupingWithoutMeter' | 'stroke';

/**
 * The form's own checks: title required, estimated minutes at least 1 (when given), and the
 * settings as the server checks them (contract/exercise-settings.ts).
 */
export function validateExercise(v: ExerciseFormValues): Partial<Record<FormErrorKey, FormProblem>> {
  const e: Partial<Record<FormErrorKey, FormProblem>> = {};
  if (!v.title.trim()) e.title = 'required';
  if (v.estimated_minutes.trim() !== '') {
    const n = Number(v.estimated_minutes);
    if (!Number.isInteger(n) || n < 1) e.estimated_minutes = 'min';
  }
  if (v.tempo_bpm.trim() !== '') {
    const n = Number(v.tempo_bpm);
    if (!Number.isInteger(n) || n < TEMPO_RANGE.min || n > TEMPO_RANGE.max) e.tempo_bpm = 'tempo';
  }
  const meter = v.meter.trim() === '' ? null : parseMeter(v.meter);
  if (v.meter.trim() !== '' && !meter) e.meter = 'meter';
  if (v.meter_grouping.trim() !== '') {
    const groups = parseGrouping(v.meter_grouping);
    if (!groups) e.meter_grouping = 'grouping';
    else if (v.meter.trim() === '') e.meter_grouping = 'groupingWithoutMeter';
    else if (meter && groups.reduce((a, b) => a + b, 0) !== meter.beats) e.meter_grouping = 'groupingSum';
  }
  const strokes = strokeList(v.usul_pattern);
  if (Array.isArray(strokes) && (strokes.length > 64 || strokes.some((x) => !(STROKES as readonly unknown[]).includes(x)))) e.usul_pattern = 'stroke';
  return e;
}

/** The multipart form of POST /api/exercises and POST /api/exercises/{id} (SPEC.md section 7). */
export function toFormData(v: ExerciseFormValues, files: ReadonlyArray<Blob & PickedFile>, removeMedia: readonly number[] = []): FormData {
  const fd = new FormData();
  fd.append('title', v.title.trim());
  fd.append('description', v.description.trim());
  fd.append('category', v.category);
  fd.append('difficulty', v.difficulty);
  fd.append('target', v.target.trim());
  fd.append('estimated_minutes', v.estimated_minutes.trim());
  fd.append('priority', String(v.priority));
  fd.append('language', v.language);
  parseTags(v.tags).forEach((t, i) => fd.append(`tags[${i}]`, t));
  v.course_ids.forEach((id, i) => fd.append(`course_ids[${i}]`, String(id)));
  removeMedia.forEach((id, i) => fd.append(`remove_media[${i}]`, String(id)));
  // settings: always sent (blank = not set), since an update replaces them like the other fields
  for (const k of SETTINGS_KEYS) fd.append(k, v[k].trim());
  files.forEach((f, i) => fd.append(`media_files[${i}]`, f, f.name));
  return fd;
}

export type ExerciseFilter = { search: string; category: string; difficulty: string };

/** Search in title, description, target and tags (case-insensitive), then category and difficulty. */
export function filterExercises(list: readonly Exercise[], f: ExerciseFilter): Exercise[] {
  const q = f.search.trim().toLocaleLowerCase('de');
  return list.filter((e) => {
    if (f.category && e.category !== f.category) return false;
    if (f.difficulty && e.difficulty !== f.difficulty) return false;
    if (!q) return true;
    const hay = [e.title, e.description ?? '', e.target ?? '', ...e.tags].join('\n').toLocaleLowerCase('de');
    return hay.includes(q);
  });
}
