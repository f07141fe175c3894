import type { ReactNode } from 'react';

/** The white card of the pages without the app's navigation (an invitation, a password link, an unsubscribe link). */
export function PanelCard({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" data-testid={testId}>
      {children}
    </div>
  );
}
