import { useTranslation } from 'react-i18next';
import { AlertTriangle, CheckCircle2, Clock, XCircle } from 'lucide-react';
import type { SubmissionStatus } from '@contract/constants';
import { cn } from '@web/components/ui/cn';

const look: Record<SubmissionStatus, { icon: typeof Clock; className: string }> = {
  completed: { icon: CheckCircle2, className: 'bg-emerald-50 text-emerald-600' },
  expired: { icon: XCircle, className: 'bg-red-50 text-red-600' },
  overdue: { icon: AlertTriangle, className: 'bg-orange-50 text-orange-600' },
  open: { icon: Clock, className: 'bg-amber-50 text-amber-600' },
};

/** Done, expired, overdue or pending, as an icon with an accessible name. */
export function StatusIcon({ status, className }: { status: SubmissionStatus; className?: string }) {
  const { t } = useTranslation('tasks');
  const l = look[status];
  const Icon = l.icon;
  return (
    <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-full', l.className, className)} role="img" aria-label={t(`statusIcon.${status}`)}>
      <Icon aria-hidden="true" className="size-5" />
    </span>
  );
}

/** The card's left edge by state: green done, red expired, orange overdue, amber open. */
export const statusEdge: Record<SubmissionStatus, string> = {
  completed: 'border-l-emerald-500',
  expired: 'border-l-red-600',
  overdue: 'border-l-orange-500',
  open: 'border-l-amber-400',
};
