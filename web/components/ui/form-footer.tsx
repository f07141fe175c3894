import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

export type FormFooterProps = {
  /** The id of the form the submit button sends (it sits in the modal's footer, outside the form). */
  formId: string;
  /** While the form is sent: both buttons wait, the submit button turns. */
  busy: boolean;
  onCancel: () => void;
  /** The submit button's text (e.g. 'Speichern …' while busy). */
  submitLabel: ReactNode;
  /** An icon before the submit button's text. */
  submitIcon?: ReactNode;
  /** What stands before the buttons (an upload's progress). */
  children?: ReactNode;
};

/** The footer of a form in a modal: 'Abbrechen' and the form's submit button. */
export function FormFooter({ formId, busy, onCancel, submitLabel, submitIcon, children }: FormFooterProps) {
  const { t } = useTranslation('common');
  return (
    <>
      {children}
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        {t('actions.cancel')}
      </Button>
      <Button type="submit" form={formId} loading={busy} icon={submitIcon}>
        {submitLabel}
      </Button>
    </>
  );
}
