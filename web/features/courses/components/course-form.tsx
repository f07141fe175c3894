import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { COURSE_DESCRIPTION_MAX, COURSE_NAME_MAX } from '@contract/courses-limits';
import type { Course, CourseBody } from '@contract/courses';
import { FormFooter } from '@web/components/ui/form-footer';
import { TextArea, TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';

type Errors = Partial<Record<'name' | 'description', string>>;

export type CourseFormProps = {
  open: boolean;
  /** The course to edit; null or undefined to create one. */
  course?: Course | null;
  onClose: () => void;
  /** Saves; a thrown 422 ApiError shows its field errors under the fields. */
  onSubmit: (body: CourseBody) => Promise<void>;
};

/** Add / edit a course in the modal: name required, description optional. */
export function CourseForm({ open, course, onClose, onSubmit }: CourseFormProps) {
  const { t } = useTranslation(['courses', 'common']);
  const formId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  // Each opening starts from the course's values, without the last opening's errors.
  const opening = useOpening(open, course);
  if (opening) {
    setName(course?.name ?? '');
    setDescription(course?.description ?? '');
    setErrors({});
    setBusy(false);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const next: Errors = {};
    if (!name.trim()) next.name = t('courses:form.nameRequired');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await onSubmit({ name: name.trim(), description: description.trim() === '' ? null : description.trim() });
    } catch (err) {
      if (isApiError(err, 422) && err.errors) {
        setErrors({ name: err.fieldError('name'), description: err.fieldError('description') });
      }
    } finally {
      setBusy(false);
    }
  }

  const editing = Boolean(course);
  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      title={editing ? t('courses:form.editTitle') : t('courses:form.createTitle')}
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel={busy ? t('courses:form.saving') : editing ? t('common:actions.save') : t('courses:form.create')} />}
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label={t('courses:form.name')}
          name="name"
          required
          autoFocus
          maxLength={COURSE_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          placeholder={t('courses:form.namePlaceholder')}
        />
        <TextArea
          label={t('courses:form.description')}
          name="description"
          rows={4}
          maxLength={COURSE_DESCRIPTION_MAX}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
          hint={t('courses:form.descriptionHint')}
        />
      </form>
    </Modal>
  );
}
