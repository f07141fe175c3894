import '@web/features/school/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowRightLeft } from 'lucide-react';
import type { SchoolStudent, SchoolTeacher } from '@contract/school';
import { Button } from '@web/components/ui/button';
import { Select } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';
import { errorText } from '../lib/school';

export type MoveStudentDialogProps = {
  /** The student to move; null closes the dialog. */
  student: SchoolStudent | null;
  /** The school's teachers; only active ones other than the current teacher are offered. */
  teachers: readonly SchoolTeacher[];
  onClose: () => void;
  /** Moves the student (POST /api/school/students/{id}/move). */
  onMove: (teacherId: number) => Promise<void>;
};

/** 'Lehrkraft wechseln': a select of the other active teachers; the whole history moves with the student. */
export function MoveStudentDialog({ student, teachers, onClose, onMove }: MoveStudentDialogProps) {
  const { t } = useTranslation(['school', 'common']);
  const formId = useId();
  const [teacherId, setTeacherId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const open = student !== null;
  const choices = teachers.filter((x) => x.active && x.id !== student?.teacher.id);

  // Each opening (or another student) starts with no teacher chosen.
  const opening = useOpening(open, student?.id);
  if (opening) {
    setTeacherId('');
    setError(undefined);
    setBusy(false);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy || !student) return;
    if (!teacherId) {
      setError(t('school:move.errors.required'));
      document.getElementById(`${formId}-teacher`)?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onMove(Number(teacherId));
    } catch (err) {
      setError(isApiError(err, 422) ? (err.fieldError('teacher_id') ?? errorText(err, t('school:move.errors.failed'))) : errorText(err, t('school:move.errors.failed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      size="lg"
      title={student ? t('school:move.title', { name: student.name }) : ''}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={busy} disabled={choices.length === 0} icon={<ArrowRightLeft aria-hidden="true" className="size-4" />}>
            {t('school:move.submit')}
          </Button>
        </>
      }
    >
      {student && (
        <form id={formId} noValidate onSubmit={submit} className="space-y-4">
          <p className="text-sm text-slate-700">{t('school:move.current', { name: student.name, teacher: student.teacher.name })}</p>
          <p className="rounded-lg bg-brand-50 px-3 py-2.5 text-sm text-brand-900 ring-1 ring-brand-200" data-testid="move-history">
            {t('school:move.history')}
          </p>
          {choices.length === 0 ? (
            <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
              {t('school:move.noTeachers')}
            </p>
          ) : (
            <Select
              id={`${formId}-teacher`}
              label={t('school:move.teacher')}
              required
              value={teacherId}
              onChange={(e) => {
                setTeacherId(e.target.value);
                setError(undefined);
              }}
              error={error}
            >
              <option value="">{t('school:move.choose')}</option>
              {choices.map((x) => (
                <option key={x.id} value={x.id}>
                  {t('school:move.option', { name: x.name, count: x.student_count })}
                </option>
              ))}
            </Select>
          )}
        </form>
      )}
    </Modal>
  );
}
