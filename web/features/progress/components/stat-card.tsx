import type { ComponentType, ReactNode } from 'react';
import { Card } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';
import { Skeleton } from '@web/components/ui/skeleton';

export type StatTone = 'neutral' | 'brand' | 'green' | 'amber' | 'red';

const iconTones: Record<StatTone, string> = {
  neutral: 'bg-slate-100 text-slate-600',
  brand: 'bg-brand-50 text-brand-700',
  green: 'bg-emerald-50 text-emerald-700',
  amber: 'bg-amber-50 text-amber-700',
  red: 'bg-red-50 text-red-700',
};

/** One number with its label and icon. While loading, a skeleton of the same size (no layout jump). */
export function StatCard({
  label,
  value,
  hint,
  icon: Icon,
  tone = 'neutral',
  loading,
  testId,
  className,
}: {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  tone?: StatTone;
  loading?: boolean;
  testId?: string;
  className?: string;
}) {
  return (
    <Card className={cn('flex flex-col justify-between gap-2 p-4 sm:p-5', className)} data-testid={testId}>
      <p className="text-sm leading-5 font-medium break-words hyphens-auto text-slate-500">{label}</p>
      <div className="flex items-end justify-between gap-2">
        <div className="min-w-0">
          {loading ? (
            <Skeleton className="mb-1 h-7 w-16" />
          ) : (
            <p className="text-2xl font-semibold tracking-tight text-slate-900 tabular-nums" data-testid={testId ? `${testId}-value` : undefined}>
              {value}
            </p>
          )}
          {hint && !loading && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
        </div>
        <div className={cn('flex size-9 shrink-0 items-center justify-center rounded-lg', iconTones[tone])}>
          <Icon aria-hidden="true" className="size-5" />
        </div>
      </div>
    </Card>
  );
}
