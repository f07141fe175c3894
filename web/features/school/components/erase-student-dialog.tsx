import '@web/features/school/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import type { SchoolStudent, StudentErased } from '@contract/school';
import { STUDENT_NAME_MAX } from '@contract/students-limits';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';
import { errorText, sameName } from '../lib/school';

export type EraseStudentDialogProps = {
  /** The student to erase; null closes the dialog. */
  student: SchoolStudent | null;
  onClose: () => void;
  /** Erases (POST /api/school/students/{id}/erase) with the name typed again; answers what was erased. */
  onErase: (confirmName: string) => Promise<StudentErased>;
};

const GOES = ['account', 'tasks', 'sessions', 'recordings', 'guardians'] as const;
const COUNTS = ['tasks', 'practice_sessions', 'recordings', 'files', 'guardian_accounts'] as const;

/**
 * 'Daten löschen': says that it cannot be undone and what goes, asks for the student's name typed
 * again (a wrong name is refused here and by the server), then shows what was erased and the note
 * about backups.
 */
export function EraseStudentDialog({ student, onClose, onErase }: EraseStudentDialogProps) {
  const { t } = useTranslation(['school', 'common']);
  const formId = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ name: string; erased: StudentErased } | null>(null);
  const open = student !== null;

  // Each opening (or another student) starts with an empty field and no result.
  const opening = useOpening(open, student?.id);
  if (opening) {
    setTyped('');
    setError(undefined);
    setBusy(false);
    setResult(null);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy || !student) return;
    if (!typed.trim()) {
      setError(t('school:erase.errors.required'));
      document.getElementById(`${formId}-confirm`)?.focus();
      return;
    }
    if (!sameName(typed, student.name)) {
      setError(t('school:erase.errors.mismatch', { name: student.name }));
      document.getElementById(`${formId}-confirm`)?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      setResult({ name: student.name, erased: await onErase(typed.trim()) });
    } catch (err) {
      setError(isApiError(err, 422) ? (err.fieldError('confirm_name') ?? errorText(err, t('school:erase.errors.failed'))) : errorText(err, t('school:erase.errors.failed')));
    } finally {
      setBusy(false);
    }
  }

  if (result) {
    return (
      <Modal open={open} onClose={onClose} size="lg" title={t('school:erase.doneTitle')} footer={<Button onClick={onClose}>{t('common:actions.close')}</Button>}>
        <div className="space-y-4" data-testid="erase-result">
          <p className="flex items-start gap-2 text-sm text-slate-800">
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-600" />
            {t('school:erase.doneText', { name: result.name })}
          </p>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {COUNTS.map((k) => (
              <div key={k} className="rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
                <dt className="text-xs text-slate-600">{t(`school:erase.counts.${k}`)}</dt>
                <dd className="text-lg font-semibold text-slate-900 tabular-nums" data-testid={`erased-${k}`}>
                  {result.erased.erased[k].toLocaleString('de-DE')}
                </dd>
              </div>
            ))}
          </dl>
          <p className="flex items-start gap-2 rounded-lg bg-sky-50 px-3 py-2.5 text-sm text-sky-900 ring-1 ring-sky-200" data-testid="erase-backups">
            <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>
              <span className="font-semibold">{t('school:erase.backups')} </span>
              {result.erased.backups_note}
            </span>
          </p>
        </div>
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      size="lg"
      title={student ? t('school:erase.title', { name: student.name }) : ''}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="danger" loading={busy}>
            {t('school:erase.submit')}
          </Button>
        </>
      }
    >
      {student && (
        <form id={formId} noValidate onSubmit={submit} className="space-y-4">
          <div className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-600" />
            <div>
              <p className="font-semibold">{t('school:erase.warning')}</p>
              <p className="mt-1">{t('school:erase.goesIntro', { name: student.name })}</p>
              <ul className="mt-1.5 list-disc space-y-0.5 pl-5">
                {GOES.map((k) => (
                  <li key={k}>{t(`school:erase.goes.${k}`)}</li>
                ))}
              </ul>
            </div>
          </div>
          <p className="text-sm text-slate-700">{t('school:erase.exportFirst')}</p>
          <TextField
            id={`${formId}-confirm`}
            label={t('school:erase.confirmLabel', { name: student.name })}
            autoComplete="off"
            spellCheck={false}
            maxLength={STUDENT_NAME_MAX}
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setError(undefined);
            }}
            error={error}
          />
        </form>
      )}
    </Modal>
  );
}
