import type { ReactNode } from 'react';

/** The white card of the pages without the app's navigation (an invitation, a password link, an unsubscribe link). */
export function PanelCard({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" data-testid={testId}>
      {children}
    </div>
  );
}

const TONES = { brand: 'bg-brand-50', amber: 'bg-amber-50', emerald: 'bg-emerald-50' } as const;

/** A link page's message: an icon in a tinted circle, a heading and what follows it. */
export function PanelMessage({
  icon,
  tone,
  title,
  role,
  children,
}: {
  icon: ReactNode;
  tone: keyof typeof TONES;
  title: ReactNode;
  role?: 'alert' | 'status';
  children?: ReactNode;
}) {
  return (
    <div role={role} className="flex items-start gap-3">
      <div className={`flex size-10 shrink-0 items-center justify-center rounded-full ${TONES[tone]}`}>{icon}</div>
      <div className="min-w-0">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {children}
      </div>
    </div>
  );
}
