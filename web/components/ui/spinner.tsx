import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn';

type Props = { className?: string; label?: string; size?: 'sm' | 'md' | 'lg' };
const sizes = { sm: 'size-4', md: 'size-6', lg: 'size-8' } as const;

/** A spinning indicator with an accessible label (defaults to 'Wird geladen...'). */
export function Spinner({ className, label, size = 'md' }: Props) {
  const { t } = useTranslation('common');
  return (
    <span role="status" className={cn('inline-flex items-center justify-center', className)}>
      <LoaderCircle aria-hidden="true" className={cn('animate-spin text-brand-600', sizes[size])} />
      <span className="sr-only">{label ?? t('actions.loading')}</span>
    </span>
  );
}

/** A centred spinner filling a content area while a screen loads. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}
