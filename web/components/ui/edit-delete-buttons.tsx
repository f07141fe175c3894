import { Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

/**
 * The edit and delete actions of a card (courses, students, exercises): one look everywhere.
 * The accessible names say which item they act on.
 */
export function EditDeleteButtons({
  onEdit,
  onDelete,
  editLabel,
  deleteLabel,
  compact = false,
}: {
  onEdit: () => void;
  onDelete: () => void;
  editLabel: string;
  deleteLabel: string;
  compact?: boolean;
}) {
  const { t } = useTranslation('common');
  const pad = compact ? 'px-2.5 ' : '';
  return (
    <>
      <Button variant="ghost" size="sm" className={compact ? 'px-2.5' : undefined} icon={<Pencil aria-hidden="true" className="size-4" />} onClick={onEdit} aria-label={editLabel}>
        {t('actions.edit')}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className={`${pad}text-red-700 hover:bg-red-50`}
        icon={<Trash2 aria-hidden="true" className="size-4" />}
        onClick={onDelete}
        aria-label={deleteLabel}
      >
        {t('actions.delete')}
      </Button>
    </>
  );
}
