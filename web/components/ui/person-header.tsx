import type { ReactNode } from 'react';
import { initials } from '@web/lib/format';
import { Skeleton } from './skeleton';

/**
 * The head of a page about one person (a teacher's student, a parent's child): the initials, the
 * name as the page's heading and a line under it, with the page's own badges or actions on the
 * right. While the person loads, skeletons of the same size (no layout jump) and a hidden heading.
 */
export function PersonHeader({
  name,
  subtitle,
  loadingLabel,
  nameTestId,
  children,
}: {
  /** Null while loading. */
  name: string | null;
  subtitle?: ReactNode;
  /** The hidden heading while loading. */
  loadingLabel: string;
  nameTestId?: string;
  /** Badges or actions on the right. */
  children?: ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-center gap-4">
        <div aria-hidden="true" className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-50 text-lg font-semibold text-brand-700">
          {name !== null ? initials(name) : ''}
        </div>
        <div className="min-w-0">
          {name !== null ? (
            <>
              <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900" data-testid={nameTestId} title={name}>
                {name}
              </h1>
              {subtitle}
            </>
          ) : (
            <>
              <h1 className="sr-only">{loadingLabel}</h1>
              <Skeleton className="h-7 w-48" />
              <Skeleton className="mt-2 h-4 w-40" />
            </>
          )}
        </div>
      </div>
      {children}
    </header>
  );
}
