import '@web/features/exercises/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, DIFFICULTIES } from '@contract/constants';
import { EXERCISE_LIMITS, PRIORITIES } from '@contract/exercises-limits';
import type { Exercise, ExerciseCategories } from '@contract/exercises';
import { FormFooter } from '@web/components/ui/form-footer';
import { CourseChoice } from '@web/components/course-choice';
import { Select, TextArea, TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';
import { LANGUAGE_NAMES, LANGUAGES, useLanguage } from '@web/lib/i18n';
import {
  addFiles,
  hasSettings,
  initialValues,
  SETTINGS_KEYS,
  toFormData,
  validateExercise,
  type ExerciseFormValues,
  type FormProblem,
  type SettingsKey,
} from '../lib/exercise-form';
import { parseMeter } from '@contract/exercise-settings-limits';
import { ExerciseSettingsSection } from './exercise-settings-section';
import { FilePicker } from './file-picker';
import { formatPercent } from '@web/lib/format';

export type ExerciseFormProps = {
  open: boolean;
  exercise?: Exercise | null;
  categories: ExerciseCategories | undefined;
  courses: ReadonlyArray<{ id: number; name: string }>;
  defaultCourseIds: number[];
  defaultLanguage: 'de' | 'tr';
  onClose: () => void;
  /** Saves the multipart form; onProgress is given when files are uploaded. Throws ApiError on failure. */
  onSubmit: (form: FormData, onProgress?: (fraction: number) => void) => Promise<void>;
};

type Errors = Partial<
  Record<'title' | 'estimated_minutes' | 'description' | 'target' | 'tags' | 'course_ids' | 'category' | 'difficulty' | SettingsKey, string>
>;

/** Add / edit an exercise with its files (SPEC.md section 5, exercise form and upload). */
export function ExerciseForm({ open, exercise, categories, courses, defaultCourseIds, defaultLanguage, onClose, onSubmit }: ExerciseFormProps) {
  const { t } = useTranslation(['exercises', 'common']);
  const language = useLanguage();
  const formId = useId();
  const [v, setV] = useState<ExerciseFormValues>(() => initialValues(exercise, { language: defaultLanguage, courseIds: defaultCourseIds }));
  const [files, setFiles] = useState<File[]>([]);
  const [removed, setRemoved] = useState<number[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(() => hasSettings(v));
  const editing = Boolean(exercise);

  // Each opening starts from the exercise's values (the defaults as they are when it opens, not
  // followed afterwards), without the last opening's files, errors and progress.
  const opening = useOpening(open, exercise);
  if (opening) {
    const start = initialValues(exercise, { language: defaultLanguage, courseIds: defaultCourseIds });
    setV(start);
    setSettingsOpen(hasSettings(start));
    setFiles([]);
    setRemoved([]);
    setProblems([]);
    setErrors({});
    setBusy(false);
    setProgress(null);
  }

  const set = <K extends keyof ExerciseFormValues>(k: K, value: ExerciseFormValues[K]) => {
    setV((old) => ({ ...old, [k]: value }));
    // a field's error goes once the field is changed
    setErrors((old) => (k in old ? { ...old, [k]: undefined } : old));
  };

  function pick(incoming: File[]) {
    const r = addFiles(files, incoming);
    setFiles(r.files);
    setProblems(
      r.problems.map((p) =>
        p.kind === 'type' ? t('exercises:form.fileTypeUnsupported', { type: p.type }) : t('exercises:form.fileTooLarge', { name: p.name }),
      ),
    );
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found = validateExercise(v);
    const errs: Errors = {};
    if (found.title) errs.title = t('exercises:form.titleRequired');
    if (found.estimated_minutes) errs.estimated_minutes = t('exercises:form.minutesMin');
    const settingsText = (p: FormProblem) => t(`exercises:settings.errors.${p}`, { beats: parseMeter(v.meter)?.beats ?? 0 });
    for (const k of ['tempo_bpm', 'meter', 'meter_grouping', 'usul_pattern'] as const) {
      const p = found[k];
      if (p) errs[k] = settingsText(p);
    }
    setErrors(errs);
    if (Object.keys(errs).length) {
      const firstSetting = SETTINGS_KEYS.find((k) => errs[k]);
      if (!errs.title && !errs.estimated_minutes && firstSetting) {
        setSettingsOpen(true);
        // the section renders open first, then the field can take the focus
        setTimeout(() => document.getElementById(`${formId}-${firstSetting}`)?.focus(), 0);
      } else document.getElementById(`${formId}-${errs.title ? 'title' : 'minutes'}`)?.focus();
      return;
    }
    setBusy(true);
    setProgress(files.length ? 0 : null);
    try {
      await onSubmit(toFormData(v, files, removed), files.length ? (f) => setProgress(f) : undefined);
    } catch (err) {
      if (isApiError(err, 422) && err.errors) {
        const fe = err.errors;
        setErrors({
          title: fe.title?.[0],
          estimated_minutes: fe.estimated_minutes?.[0],
          description: fe.description?.[0],
          target: fe.target?.[0],
          category: fe.category?.[0],
          difficulty: fe.difficulty?.[0],
          tags: Object.entries(fe).find(([k]) => k === 'tags' || k.startsWith('tags.'))?.[1]?.[0],
          course_ids: Object.entries(fe).find(([k]) => k === 'course_ids' || k.startsWith('course_ids.'))?.[1]?.[0],
          ...Object.fromEntries(SETTINGS_KEYS.map((k) => [k, Object.entries(fe).find(([f]) => f === k || f.startsWith(`${k}.`))?.[1]?.[0]])),
        });
        if (SETTINGS_KEYS.some((k) => Object.keys(fe).some((f) => f === k || f.startsWith(`${k}.`)))) setSettingsOpen(true);
        const fileMsgs = Object.entries(fe)
          .filter(([k]) => k === 'media_files' || k.startsWith('media_files.') || k.startsWith('remove_media'))
          .flatMap(([, msgs]) => msgs);
        setProblems(fileMsgs);
      }
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  const percent = progress === null ? null : Math.round(progress * 100);
  const categoryOptions = CATEGORIES.map((k) => ({ key: k, label: categories?.[k] ?? k }));

  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      size="3xl"
      title={editing ? t('exercises:form.editTitle') : t('exercises:form.createTitle')}
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel={busy ? t('exercises:form.saving') : editing ? t('common:actions.save') : t('exercises:form.create')}>
          {percent !== null && (
            <div className="flex min-w-0 flex-1 items-center gap-3 sm:mr-auto" data-testid="upload-progress">
              <div
                role="progressbar"
                aria-label={t('exercises:form.uploadProgress')}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                className="h-2 min-w-24 flex-1 overflow-hidden rounded-full bg-slate-200"
              >
                <div className="h-full rounded-full bg-brand-600 transition-[width] duration-200" style={{ width: `${percent}%` }} />
              </div>
              <span className="shrink-0 text-xs text-slate-600 tabular-nums">{t('exercises:form.uploading', { percent: formatPercent(percent, language) })}</span>
            </div>
          )}
        </FormFooter>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={`${formId}-title`}
          wrapperClassName="sm:col-span-2"
          label={t('exercises:form.title')}
          name="title"
          required
          autoComplete="off"
          maxLength={EXERCISE_LIMITS.title}
          placeholder={t('exercises:form.titlePlaceholder')}
          value={v.title}
          onChange={(e) => set('title', e.target.value)}
          error={errors.title}
        />
        <TextArea
          wrapperClassName="sm:col-span-2"
          label={t('exercises:form.description')}
          name="description"
          rows={3}
          maxLength={EXERCISE_LIMITS.description}
          value={v.description}
          onChange={(e) => set('description', e.target.value)}
          error={errors.description}
        />
        <Select
          label={t('exercises:form.category')}
          name="category"
          value={v.category}
          onChange={(e) => set('category', e.target.value as ExerciseFormValues['category'])}
          error={errors.category}
        >
          <option value="">{t('exercises:form.chooseCategory')}</option>
          {categoryOptions.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </Select>
        <Select
          label={t('exercises:form.difficulty')}
          name="difficulty"
          value={v.difficulty}
          onChange={(e) => set('difficulty', e.target.value as ExerciseFormValues['difficulty'])}
          error={errors.difficulty}
        >
          <option value="">{t('exercises:form.chooseDifficulty')}</option>
          {DIFFICULTIES.map((d) => (
            <option key={d} value={d}>
              {t(`exercises:difficulty.${d}`)}
            </option>
          ))}
        </Select>
        <TextField
          wrapperClassName="sm:col-span-2"
          label={t('exercises:form.target')}
          name="target"
          autoComplete="off"
          maxLength={EXERCISE_LIMITS.target}
          placeholder={t('exercises:form.targetPlaceholder')}
          value={v.target}
          onChange={(e) => set('target', e.target.value)}
          error={errors.target}
        />
        <TextField
          id={`${formId}-minutes`}
          label={t('exercises:form.estimatedMinutes')}
          name="estimated_minutes"
          type="number"
          inputMode="numeric"
          min={1}
          max={EXERCISE_LIMITS.minutesMax}
          step={1}
          value={v.estimated_minutes}
          onChange={(e) => set('estimated_minutes', e.target.value)}
          error={errors.estimated_minutes}
        />
        <Select label={t('exercises:form.priority')} name="priority" value={String(v.priority)} onChange={(e) => set('priority', Number(e.target.value))}>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p} – {t(`exercises:priority.${p}`)}
            </option>
          ))}
        </Select>
        <Select label={t('exercises:form.language')} name="language" value={v.language} onChange={(e) => set('language', e.target.value as 'de' | 'tr')}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l].name}
            </option>
          ))}
        </Select>
        <TextField
          label={t('exercises:form.tags')}
          name="tags"
          autoComplete="off"
          hint={t('exercises:form.tagsHint')}
          value={v.tags}
          onChange={(e) => set('tags', e.target.value)}
          error={errors.tags}
        />
        <ExerciseSettingsSection
          values={v}
          errors={errors}
          open={settingsOpen}
          onToggle={() => setSettingsOpen((o) => !o)}
          onChange={set}
          idPrefix={formId}
          disabled={busy}
        />
        <CourseChoice
          className="sm:col-span-2"
          listClassName="grid gap-2 sm:grid-cols-2"
          idPrefix={formId}
          legend={t('exercises:form.courses')}
          empty={t('exercises:form.noCourses')}
          courses={courses}
          selected={v.course_ids}
          onChange={(ids) => set('course_ids', ids)}
          error={errors.course_ids}
        />
        <div className="sm:col-span-2">
          <FilePicker
            chosen={files}
            existing={exercise?.media_files ?? []}
            removed={removed}
            problems={problems}
            disabled={busy}
            onPick={pick}
            onRemoveChosen={(i) => setFiles((fs) => fs.filter((_, k) => k !== i))}
            onToggleExisting={(id) => setRemoved((r) => (r.includes(id) ? r.filter((x) => x !== id) : [...r, id]))}
          />
        </div>
      </form>
    </Modal>
  );
}
