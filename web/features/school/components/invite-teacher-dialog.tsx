import '@web/features/school/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteCreated } from '@contract/school';
import { Button } from '@web/components/ui/button';
import { FormFooter } from '@web/components/ui/form-footer';
import { PersonEmailField, PersonNameField } from '@web/components/person-fields';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';
import { errorText, isEmail } from '../lib/school';
import { InviteLink } from '@web/components/invite-link';

type Errors = { name?: string; email?: string; form?: string };

export type InviteTeacherDialogProps = {
  open: boolean;
  onClose: () => void;
  /** Creates the invitation (POST /api/school/invites); a thrown 422/409 shows under the fields. */
  onInvite: (body: { name: string; email: string }) => Promise<InviteCreated>;
};

/** 'Lehrkraft einladen': name and e-mail, then the one-time link to hand over. */
export function InviteTeacherDialog({ open, onClose, onInvite }: InviteTeacherDialogProps) {
  const { t } = useTranslation(['school', 'common']);
  const formId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<InviteCreated | null>(null);

  // Each opening starts with empty fields and no link.
  const opening = useOpening(open);
  if (opening) {
    setName('');
    setEmail('');
    setErrors({});
    setBusy(false);
    setCreated(null);
  }

  function validate(): Errors {
    const e: Errors = {};
    if (!name.trim()) e.name = t('school:invite.errors.nameRequired');
    if (!email.trim()) e.email = t('school:invite.errors.emailRequired');
    else if (!isEmail(email)) e.email = t('school:invite.errors.emailInvalid');
    return e;
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    const first = (['name', 'email'] as const).find((f) => found[f]);
    if (first) {
      document.getElementById(`${formId}-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      setCreated(await onInvite({ name: name.trim(), email: email.trim() }));
    } catch (err) {
      if (isApiError(err, 422) && err.errors) {
        setErrors({ name: err.fieldError('name'), email: err.fieldError('email'), form: err.errors.name || err.errors.email ? undefined : errorText(err, t('school:invite.errors.failed')) });
      } else if (isApiError(err, 409)) {
        setErrors({ email: errorText(err, t('school:invite.errors.taken')) });
      } else {
        setErrors({ form: errorText(err, t('school:invite.errors.failed')) });
      }
    } finally {
      setBusy(false);
    }
  }

  if (created) {
    return (
      <Modal
        open={open}
        onClose={onClose}
        size="xl"
        title={t('school:invite.createdTitle')}
        description={t('school:invite.createdText', { name: created.name })}
        footer={<Button onClick={onClose}>{t('school:invite.done')}</Button>}
      >
        <InviteLink invite={created} />
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      size="lg"
      title={t('school:invite.title')}
      description={t('school:invite.text')}
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel={t('school:invite.submit')} />}
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        <PersonNameField id={`${formId}-name`} label={t('school:invite.name')} value={name} onValue={setName} error={errors.name} />
        <PersonEmailField id={`${formId}-email`} label={t('school:invite.email')} inputMode="email" value={email} onValue={setEmail} hint={t('school:invite.emailHint')} error={errors.email} />
        {errors.form && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {errors.form}
          </p>
        )}
      </form>
    </Modal>
  );
}
