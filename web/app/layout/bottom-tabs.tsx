import type { ComponentType } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ClipboardList, Gauge, Sun } from 'lucide-react';
import { cn } from '@web/components/ui/cn';

type Tab = { to: string; label: string; icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>; end: boolean };

/**
 * The student's tabs on phones: Heute (the home), Aufgaben and the practice tools (the bar shares
 * its width evenly). SPEC.md's menu dialog stays in the top bar for everything else.
 */
const TABS: Tab[] = [
  { to: '/', label: 'tabs.today', icon: Sun, end: true },
  { to: '/submissions', label: 'tabs.tasks', icon: ClipboardList, end: false },
  { to: '/tools', label: 'tabs.tools', icon: Gauge, end: false },
];

export function BottomTabs() {
  const { t } = useTranslation('layout');
  return (
    <nav
      aria-label={t('tabs.label')}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
      data-testid="bottom-tabs"
    >
      <ul className="mx-auto flex h-16 max-w-md">
        {TABS.map((tab) => (
          <li key={tab.to} className="flex-1">
            <NavLink
              to={tab.to}
              end={tab.end}
              className={({ isActive }) =>
                cn(
                  'flex h-full flex-col items-center justify-center gap-0.5 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-slate-900',
                  isActive ? 'text-brand-700' : 'text-slate-600 hover:text-slate-900',
                )
              }
            >
              {({ isActive }) => (
                <>
                  <tab.icon aria-hidden="true" className={cn('size-6', isActive ? 'text-brand-600' : 'text-slate-500')} />
                  {t(tab.label)}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
