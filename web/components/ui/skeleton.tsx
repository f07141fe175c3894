import { cn } from './cn';

/** A grey placeholder block with the size of the content it stands for. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200/80', className)} />;
}

/** Lines of text while loading. */
export function SkeletonText({ lines = 3, className }: { lines?: number; className?: string }) {
  return (
    <div aria-hidden="true" className={cn('space-y-2', className)}>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} className={cn('h-3.5', i === lines - 1 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}

/** The frame of a screen while its code or data loads: a title, a line and a few cards (no blank page, no jump). */
export function PageSkeleton({ label }: { label?: string }) {
  return (
    <div aria-busy="true" data-testid="page-skeleton">
      {label && (
        <span className="sr-only" role="status">
          {label}
        </span>
      )}
      <Skeleton className="mb-2 h-8 w-2/3 max-w-md" />
      <Skeleton className="mb-6 h-4 w-1/2 max-w-xs" />
      <div className="space-y-3">
        {Array.from({ length: 3 }, (_, i) => (
          <div key={i} className="rounded-xl border border-slate-200 bg-white p-4">
            <Skeleton className="mb-2 h-5 w-1/2" />
            <Skeleton className="h-4 w-5/6" />
          </div>
        ))}
      </div>
    </div>
  );
}
