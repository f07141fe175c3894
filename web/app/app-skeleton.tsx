import { Skeleton } from '@web/components/ui/skeleton';

/**
 * The app's frame while the first screen's code loads (before the layout exists): the sidebar's
 * column on large screens, the top bar on phones, and a few content blocks – not a blank page.
 * No text: it must not need translations yet.
 */
export function AppSkeleton() {
  // The sign-in page has no app frame.
  if (typeof window !== 'undefined' && window.location.pathname.startsWith('/login')) return <div className="min-h-dvh" aria-busy="true" />;
  return (
    <div className="min-h-dvh" aria-busy="true" data-testid="app-skeleton">
      <div aria-hidden="true" className="fixed inset-y-0 left-0 hidden w-72 border-r border-slate-200 bg-white lg:block" />
      <div aria-hidden="true" className="h-14 border-b border-slate-200 bg-white lg:hidden" />
      <div className="lg:pl-72">
        <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <Skeleton className="mb-2 h-8 w-2/3 max-w-md" />
          <Skeleton className="mb-6 h-4 w-1/2 max-w-xs" />
          <Skeleton className="mb-3 h-28 w-full rounded-xl" />
          <Skeleton className="h-28 w-full rounded-xl" />
        </div>
      </div>
    </div>
  );
}
