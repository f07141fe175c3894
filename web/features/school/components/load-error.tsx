import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';

/** A list or page that could not be loaded: what happened and 'Erneut versuchen'. */
export function LoadError({ title, text, retrying, onRetry, className }: { title: string; text?: string; retrying: boolean; onRetry: () => void; className?: string }) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" className={className}>
      <EmptyState
        icon={AlertTriangle}
        title={title}
        text={text ?? t('errors.generic')}
        action={
          <Button variant="secondary" onClick={onRetry} loading={retrying}>
            {t('actions.retry')}
          </Button>
        }
      />
    </div>
  );
}
