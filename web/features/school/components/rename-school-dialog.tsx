import '@web/features/school/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SCHOOL_NAME_MAX } from '@contract/school-limits';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';
import { useRenameSchool } from '../api/school';
import { errorText } from '../lib/school';

/** The administrator renames the school (the name shows on invitations and the dashboard). */
export function RenameSchoolDialog({ open, name, onClose }: { open: boolean; name: string; onClose: () => void }) {
  const { t } = useTranslation(['school', 'common']);
  const toast = useToast();
  const rename = useRenameSchool();
  const formId = useId();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | undefined>();

  // Each opening starts from the school's current name.
  const opening = useOpening(open, name);
  if (opening) {
    setValue(name);
    setError(undefined);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (rename.isPending) return;
    const next = value.trim();
    if (!next) {
      setError(t('school:rename.errors.required'));
      document.getElementById(`${formId}-name`)?.focus();
      return;
    }
    if (next === name) {
      onClose();
      return;
    }
    try {
      await rename.mutateAsync({ name: next });
      toast.success(t('school:rename.done', { name: next }));
      onClose();
    } catch (err) {
      if (isApiError(err, 422)) setError(err.fieldError('name') ?? errorText(err, t('school:rename.errors.failed')));
      else toast.error(errorText(err, t('school:rename.errors.failed')));
    }
  }

  return (
    <Modal
      open={open}
      onClose={rename.isPending ? () => undefined : onClose}
      size="md"
      title={t('school:rename.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={rename.isPending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={rename.isPending}>
            {t('common:actions.save')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit}>
        <TextField
          id={`${formId}-name`}
          label={t('school:rename.label')}
          hint={t('school:rename.hint')}
          required
          autoComplete="organization"
          maxLength={SCHOOL_NAME_MAX}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={error}
        />
      </form>
    </Modal>
  );
}
