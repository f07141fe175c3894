import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from './card';
import { cn } from './cn';
import { Skeleton } from './skeleton';

export type StatTone = 'neutral' | 'brand' | 'green' | 'amber' | 'red';

const iconTones: Record<StatTone, string> = {
  neutral: 'bg-slate-100 text-slate-600',
  brand: 'bg-brand-50 text-brand-700',
  green: 'bg-emerald-50 text-emerald-700',
  amber: 'bg-amber-50 text-amber-700',
  red: 'bg-red-50 text-red-700',
};

/**
 * The one stat card of the app (teacher and student dashboards): an icon, the label, the number
 * (tabular) and an optional hint. While loading, a skeleton of the number's size (no layout
 * jump). With `to`, the whole card is a link (its label is the link text).
 */
export function StatCard({
  label,
  value,
  hint,
  icon: Icon,
  tone = 'brand',
  loading,
  to,
  testId,
  valueTestId,
  reserveHint,
  className,
}: {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  tone?: StatTone;
  loading?: boolean;
  /** Makes the card a link to this path. */
  to?: string;
  testId?: string;
  /** data-testid of the number (default `${testId}-value`). */
  valueTestId?: string;
  /** While loading, keep the hint's line (a card that will show a hint does not grow when it arrives). */
  reserveHint?: boolean;
  className?: string;
}) {
  return (
    <Card className={cn('relative flex flex-col gap-1 p-4 sm:p-5', to && 'transition-shadow hover:shadow-md', className)} data-testid={testId}>
      <div className="flex items-start justify-between gap-2">
        <p className="min-w-0 text-sm leading-5 font-medium break-words text-slate-600">
          {to ? (
            <Link to={to} className="rounded-sm after:absolute after:inset-0 after:rounded-xl hover:text-slate-900">
              {label}
            </Link>
          ) : (
            label
          )}
        </p>
        <div className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg', iconTones[tone])}>
          <Icon aria-hidden="true" className="size-4.5" />
        </div>
      </div>
      <div className="mt-auto">
        {loading ? (
          <Skeleton className="mt-1 h-7 w-14" />
        ) : (
          <p className="text-2xl font-semibold tracking-tight text-slate-900 tabular-nums" data-testid={valueTestId ?? (testId ? `${testId}-value` : undefined)}>
            {value}
          </p>
        )}
        {hint && !loading && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
        {loading && reserveHint && (
          <div aria-hidden="true" className="mt-0.5 flex h-4 items-center">
            <Skeleton className="h-3 w-24" />
          </div>
        )}
      </div>
    </Card>
  );
}
