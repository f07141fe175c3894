import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Modal } from './modal';
import type { ConfirmDialogProps } from './confirm-dialog';

/** Asks before an irreversible action (every delete). */
export default function ConfirmDialogView({ open, onConfirm, onCancel, title, message, confirmLabel, cancelLabel, danger = true, busy }: ConfirmDialogProps) {
  const { t } = useTranslation('common');
  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onCancel}
      size="md"
      title={title ?? t(danger ? 'confirm.deleteTitle' : 'confirm.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel ?? t('actions.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} loading={busy}>
            {confirmLabel ?? t(danger ? 'actions.delete' : 'actions.confirm')}
          </Button>
        </>
      }
    >
      <div className="flex gap-3">
        {danger && (
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-50">
            <AlertTriangle aria-hidden="true" className="size-5 text-red-600" />
          </div>
        )}
        <p className="pt-2 text-sm text-slate-700">{message}</p>
      </div>
    </Modal>
  );
}
