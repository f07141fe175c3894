import '@web/features/assignments/i18n';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogTitle, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { AlertCircle, Check, ChevronDown, Dumbbell, RefreshCw, Repeat, Search, Users } from 'lucide-react';
import { EXPIRY_DAYS, RECURRENCE_TYPES, type RecurrenceType } from '@contract/constants';
import type { CreateAssignmentBody } from '@contract/assignments';
import { isDateInRange, maxRecurrenceEnd, recurrenceEndProblem } from '@contract/recurrence';
import { Button } from '@web/components/ui/button';
import { Checkbox, Select, TextArea, TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { cn } from '@web/components/ui/cn';
import { isApiError } from '@web/lib/api';
import { formatLongDate } from '@web/lib/format';
import { useAssignmentOptions, useCreateAssignment, type ExerciseOption } from '../api/assignments';
import { errorMessage, recurrenceSummary, successMessage } from '../lib/assignment-messages';
import { filterStudents } from '@web/lib/filter-students';

export type AssignmentCreated = { total: number; students: number; repeating: boolean };

export type AssignmentDialogProps = {
  /** The clicked day (YYYY-MM-DD); null = closed. */
  date: string | null;
  /** The selected course (null = all courses): filters students and exercises, stored on the tasks. */
  courseId: number | null;
  onClose: () => void;
  /** After a successful creation (the dialog has closed and shown the toast). */
  onCreated?: (result: AssignmentCreated) => void;
  /** Preselected exercise (opened from an exercise card). */
  exerciseId?: number | null;
  /** Preselected student (opened from a student's page). */
  studentId?: number | null;
  /**
   * Opened without a calendar day (an exercise card, a student's page, the first steps): `date` is
   * only the suggested due date, and the form asks for it (docs/decisions/teacher-day-actions.md).
   */
  pickDate?: boolean;
};

/** The teacher's dialog 'Neue Aufgabe erstellen' (SPEC.md: Assignment dialog, sections 4, 5 and 8). */
export function AssignmentDialog({ date, courseId, onClose, onCreated, exerciseId = null, studentId = null, pickDate = false }: AssignmentDialogProps) {
  const { t, i18n } = useTranslation(['assignments', 'common']);
  // Keep the last date while the dialog animates out (set while rendering: docs/decisions/compiler-ready-components.md).
  const [shownDate, setShownDate] = useState(date);
  if (date && date !== shownDate) setShownDate(date);
  const open = date !== null;
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const current = date ?? shownDate;

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="2xl"
      header={
        <div>
          <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{t('assignments:dialogName')}</p>
          <DialogTitle className="mt-0.5 text-lg font-semibold text-slate-900">
            {pickDate ? t('assignments:headerAny') : t('assignments:header', { date: current ? formatLongDate(current, language) : '' })}
          </DialogTitle>
        </div>
      }
    >
      {current && (
        <AssignmentForm
          key={`${current}:${exerciseId ?? ''}:${studentId ?? ''}`}
          date={current}
          courseId={courseId}
          open={open}
          onClose={onClose}
          onCreated={onCreated}
          exerciseId={exerciseId}
          studentId={studentId}
          pickDate={pickDate}
        />
      )}
    </Modal>
  );
}

type FormProps = {
  date: string;
  courseId: number | null;
  open: boolean;
  onClose: () => void;
  onCreated?: (r: AssignmentCreated) => void;
  exerciseId: number | null;
  studentId: number | null;
  pickDate: boolean;
};

function AssignmentForm({ date: suggested, courseId, open, onClose, onCreated, exerciseId: presetExercise, studentId: presetStudent, pickDate }: FormProps) {
  const { t, i18n } = useTranslation(['assignments', 'common']);
  const toast = useToast();
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const { students, exercises } = useAssignmentOptions(courseId, language, open);
  const create = useCreateAssignment();

  const [date, setDate] = useState(suggested);
  const [exerciseId, setExerciseId] = useState<number | null>(presetExercise);
  const [recurrence, setRecurrence] = useState<RecurrenceType>('none');
  const [endDate, setEndDate] = useState('');
  const [expiry, setExpiry] = useState(String(EXPIRY_DAYS.default));
  const [note, setNote] = useState('');
  const [selected, setSelected] = useState<number[]>(presetStudent !== null ? [presetStudent] : []);
  const [alert, setAlert] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [search, setSearch] = useState('');
  const ids = { exercise: useId(), students: useId(), all: useId(), search: useId() };

  const studentList = useMemo(() => students.data ?? [], [students.data]);
  const exerciseList = exercises.data?.exercises ?? [];
  const busy = create.isPending;
  const repeating = recurrence !== 'none';
  // A due date being typed is not a date yet: nothing is derived from it until it is one.
  const dateOk = isDateInRange(date);
  const summary = dateOk ? recurrenceSummary(t, date, recurrence, endDate) : null;
  const chosen = exerciseList.find((e) => e.id === exerciseId) ?? null;

  // A student who left the list (course changed, deleted) is no longer selected.
  const [listSeen, setListSeen] = useState(studentList);
  if (listSeen !== studentList) {
    setListSeen(studentList);
    const present = new Set(studentList.map((s) => s.id));
    setSelected((sel) => (sel.every((id) => present.has(id)) ? sel : sel.filter((id) => present.has(id))));
  }

  // The search narrows the list; 'select all' then acts on the students shown.
  const shownStudents = useMemo(() => filterStudents(studentList, search), [studentList, search]);
  const shownSelected = shownStudents.filter((s) => selected.includes(s.id)).length;
  const allSelected = shownStudents.length > 0 && shownSelected === shownStudents.length;
  const someSelected = shownSelected > 0 && !allSelected;
  const allRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = someSelected;
  }, [someSelected]);

  const toggle = (id: number) => setSelected((sel) => (sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id]));
  const toggleAll = () => {
    const shownIds = new Set(shownStudents.map((s) => s.id));
    setSelected((sel) => (allSelected ? sel.filter((id) => !shownIds.has(id)) : [...new Set([...sel, ...shownIds])]));
  };

  const difficultyLabel = (e: ExerciseOption) => (e.difficulty ? t(`assignments:difficulty.${e.difficulty}`) : null);
  const optionLabel = (e: ExerciseOption) => {
    const d = difficultyLabel(e);
    return d ? `${e.title} (${d})` : e.title;
  };

  function validate(): Record<string, string> {
    const errors: Record<string, string> = {};
    if (pickDate && !isDateInRange(date)) errors.due_date = t('assignments:due.invalid');
    if (expiry.trim() !== '') {
      const n = Number(expiry);
      if (!Number.isInteger(n) || n < EXPIRY_DAYS.min || n > EXPIRY_DAYS.max) errors.expiration_days = t('assignments:expiry.invalid');
    }
    if (repeating && endDate) {
      const problem = recurrenceEndProblem(date, endDate);
      if (problem === 'before_due') errors.recurrence_end_date = t('assignments:end.beforeDue');
      if (problem === 'too_far') errors.recurrence_end_date = t('assignments:end.tooFar');
    }
    return errors;
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    setAlert(null);
    if (exerciseId === null || selected.length === 0) {
      setAlert(t('assignments:alerts.chooseBoth'));
      return;
    }
    if (!chosen) {
      setAlert(t('assignments:alerts.exerciseNotFound'));
      return;
    }
    const errors = validate();
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;

    const days = expiry.trim() === '' ? 0 : Number(expiry);
    const body: CreateAssignmentBody = {
      exercise_id: chosen.id,
      due_date: date,
      course_id: courseId,
      teacher_note: note.trim() || null,
      assignees: { users: selected },
      ...(repeating ? { recurrence_type: recurrence, ...(endDate ? { recurrence_end_date: endDate } : {}) } : {}),
      ...(days > 0 ? { expiration_days: days } : {}),
    };
    try {
      const res = await create.mutateAsync(body);
      const total = res.submissions.length;
      toast.success(successMessage(t, total, selected.length, repeating));
      onClose();
      onCreated?.({ total, students: selected.length, repeating });
    } catch (err) {
      if (isApiError(err, 422) && err.errors) {
        const fe: Record<string, string> = {};
        for (const [k, v] of Object.entries(err.errors)) if (v[0]) fe[k] = v[0];
        setFieldErrors(fe);
      }
      setAlert(errorMessage(t, err));
    }
  }

  const exerciseEmpty = exercises.isSuccess && exerciseList.length === 0;
  const canSubmit = !busy && exerciseId !== null && selected.length > 0;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="-mx-5 -my-4 flex flex-col sm:-mx-6">
      <div className="space-y-5 px-5 py-4 sm:px-6">
        {pickDate && (
          <TextField
            type="date"
            required
            label={t('assignments:due.label')}
            value={date}
            disabled={busy}
            onChange={(e) => setDate(e.target.value)}
            error={fieldErrors.due_date}
            wrapperClassName="sm:max-w-xs"
            data-testid="assignment-due"
          />
        )}
        {/* Exercise */}
        <section aria-labelledby={`${ids.exercise}-label`}>
          <div className="mb-1.5 flex items-baseline justify-between gap-3">
            <span id={`${ids.exercise}-label`} className="block text-sm font-medium text-slate-700">
              {t('assignments:exercise.label')}
              <span aria-hidden="true" className="ml-0.5 text-red-600">
                *
              </span>
            </span>
            {exercises.isSuccess && exerciseList.length > 0 && (
              <span className="text-xs text-slate-500" data-testid="exercise-count">
                {t('assignments:exercise.available', { count: exercises.data.total })}
              </span>
            )}
          </div>
          {exercises.isPending ? (
            <Skeleton className="h-10 w-full rounded-lg" />
          ) : exerciseEmpty ? (
            <div className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-4 text-center">
              <Dumbbell aria-hidden="true" className="mx-auto size-5 text-slate-500" />
              <p className="mt-2 text-sm font-semibold text-slate-900">{t('assignments:exercise.emptyTitle')}</p>
              <p className="mt-1 text-sm text-slate-600">{t(courseId ? 'assignments:exercise.emptyCourse' : 'assignments:exercise.emptyAll')}</p>
              <Button
                size="sm"
                variant="secondary"
                className="mt-3"
                icon={<RefreshCw aria-hidden="true" className="size-4" />}
                loading={exercises.isFetching}
                onClick={() => void exercises.refetch()}
              >
                {t('assignments:exercise.reload')}
              </Button>
            </div>
          ) : (
            <Listbox value={exerciseId} onChange={(v: number | null) => setExerciseId(v)} disabled={busy}>
              <ListboxButton
                aria-labelledby={`${ids.exercise}-label ${ids.exercise}-value`}
                aria-invalid={fieldErrors.exercise_id ? true : undefined}
                className={cn(
                  'relative flex h-10 w-full items-center rounded-lg bg-white pr-9 pl-3 text-left text-sm shadow-xs ring-1 ring-slate-300 ring-inset',
                  'focus:ring-2 focus:ring-brand-600 focus:outline-none data-disabled:bg-slate-50',
                )}
                data-testid="exercise-select"
              >
                <span id={`${ids.exercise}-value`} className={cn('truncate', chosen ? 'text-slate-900' : 'text-slate-500')}>
                  {chosen ? optionLabel(chosen) : t('assignments:exercise.placeholder')}
                </span>
                <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500" />
              </ListboxButton>
              <ListboxOptions
                anchor="bottom start"
                className="z-[70] mt-1 max-h-48 w-[var(--button-width)] overflow-y-auto rounded-lg bg-white p-1 text-sm shadow-lg ring-1 ring-slate-900/10 focus:outline-none"
              >
                {exerciseList.map((e) => (
                  <ListboxOption
                    key={e.id}
                    value={e.id}
                    className="group flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-2 text-slate-800 select-none data-focus:bg-brand-50 data-focus:text-brand-900"
                  >
                    <Check aria-hidden="true" className="invisible size-4 shrink-0 text-brand-600 group-data-selected:visible" />
                    <span className="min-w-0 flex-1 truncate" title={e.title}>
                      {e.title}
                    </span>
                    {difficultyLabel(e) && <span className="shrink-0 text-xs text-slate-500">({difficultyLabel(e)})</span>}
                  </ListboxOption>
                ))}
              </ListboxOptions>
            </Listbox>
          )}
          {fieldErrors.exercise_id && <p className="mt-1.5 text-xs font-medium text-red-700">{fieldErrors.exercise_id}</p>}
        </section>

        {/* Repetition, end, expiry */}
        <div className="grid gap-4 sm:grid-cols-3">
          <Select
            label={t('assignments:recurrence.label')}
            value={recurrence}
            disabled={busy}
            onChange={(e) => setRecurrence(e.target.value as RecurrenceType)}
            error={fieldErrors.recurrence_type}
          >
            {RECURRENCE_TYPES.map((r) => (
              <option key={r} value={r}>
                {t(`assignments:recurrence.${r}`)}
              </option>
            ))}
          </Select>
          <TextField
            type="date"
            label={t('assignments:end.label')}
            value={endDate}
            min={dateOk ? date : undefined}
            max={dateOk ? maxRecurrenceEnd(date) : undefined}
            disabled={!repeating || busy}
            onChange={(e) => setEndDate(e.target.value)}
            hint={repeating ? t('assignments:end.hint') : undefined}
            error={fieldErrors.recurrence_end_date}
          />
          <TextField
            type="number"
            inputMode="numeric"
            label={t('assignments:expiry.label')}
            min={EXPIRY_DAYS.min}
            max={EXPIRY_DAYS.max}
            step={1}
            value={expiry}
            disabled={busy}
            onChange={(e) => setExpiry(e.target.value)}
            hint={t('assignments:expiry.hint')}
            error={fieldErrors.expiration_days}
          />
        </div>
        {summary && (
          <p className="-mt-2 flex items-center gap-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900" data-testid="recurrence-summary">
            <Repeat aria-hidden="true" className="size-4 shrink-0" />
            {summary}
          </p>
        )}

        <TextArea
          label={t('assignments:note.label')}
          rows={3}
          maxLength={2000}
          value={note}
          disabled={busy}
          onChange={(e) => setNote(e.target.value)}
          placeholder={t('assignments:note.placeholder')}
          error={fieldErrors.teacher_note}
        />

        {/* Students */}
        <fieldset aria-describedby={`${ids.students}-count`} className="min-w-0">
          <legend className="mb-1.5 text-sm font-medium text-slate-700">
            {t('assignments:students.label')}
            <span aria-hidden="true" className="ml-0.5 text-red-600">
              *
            </span>
          </legend>
          {students.isPending ? (
            <div className="space-y-2 rounded-lg border border-slate-200 p-3">
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-4 w-1/3" />
            </div>
          ) : studentList.length === 0 ? (
            <div className="flex items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-600">
              <Users aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
              {t(courseId ? 'assignments:students.emptyCourse' : 'assignments:students.emptyAll')}
            </div>
          ) : (
            <div className="rounded-lg border border-slate-200">
              <div className="relative border-b border-slate-100">
                <label htmlFor={ids.search} className="sr-only">
                  {t('assignments:students.search')}
                </label>
                <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
                <input
                  id={ids.search}
                  type="search"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder={t('assignments:students.searchPlaceholder')}
                  className="block h-11 w-full rounded-t-lg border-0 bg-white pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-500 focus:ring-2 focus:ring-brand-600 focus:outline-none focus:ring-inset"
                  data-testid="student-search"
                />
              </div>
              <div className="border-b border-slate-100 bg-slate-50 px-3 py-2">
                <Checkbox
                  ref={allRef}
                  id={ids.all}
                  label={<span className="font-medium">{t('assignments:students.selectAll')}</span>}
                  checked={allSelected}
                  disabled={busy}
                  onChange={toggleAll}
                />
              </div>
              <ul className="max-h-32 divide-y divide-slate-100 overflow-y-auto" data-testid="student-list">
                {shownStudents.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">{t('assignments:students.noMatch', { search: search.trim() })}</li>}
                {shownStudents.map((s) => (
                  <li key={s.id} className="px-3 py-2">
                    <Checkbox
                      label={
                        <span className="flex min-w-0 flex-col sm:flex-row sm:gap-2">
                          <span className="font-medium break-words text-slate-900">{s.name}</span>
                          <span className="truncate text-slate-500" title={s.email}>
                            {s.email}
                          </span>
                        </span>
                      }
                      checked={selected.includes(s.id)}
                      disabled={busy}
                      onChange={() => toggle(s.id)}
                    />
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p id={`${ids.students}-count`} className="mt-1.5 text-xs text-slate-500" data-testid="selected-count">
            {t('assignments:students.selected', { count: selected.length })}
          </p>
          {fieldErrors['assignees.users'] && <p className="mt-1 text-xs font-medium text-red-700">{fieldErrors['assignees.users']}</p>}
        </fieldset>

        {alert && (
          <div role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800">
            <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{alert}</span>
          </div>
        )}
      </div>

      {/* Sticks to the dialog's bottom edge: -bottom-4 undoes the scroll container's padding, which
          sticky positioning keeps free (content showed through below the bar on phones). At the end
          of the form the bar is in the flow, so nothing hides under it. */}
      <div
        className="sticky -bottom-4 z-10 flex flex-col-reverse gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3 shadow-[0_-4px_8px_-6px_rgb(15_23_42/0.15)] sm:flex-row sm:justify-end sm:px-6"
        data-testid="assignment-footer"
      >
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {t('common:actions.cancel')}
        </Button>
        <Button type="submit" loading={busy} disabled={!canSubmit}>
          {busy ? t('assignments:submitBusy') : t('assignments:submit')}
        </Button>
      </div>
    </form>
  );
}
