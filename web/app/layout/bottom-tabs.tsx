import type { ComponentType } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ClipboardList, Gauge, GraduationCap, LayoutDashboard, ScrollText, Sun, User, Users } from 'lucide-react';
import { cn } from '@web/components/ui/cn';
import type { Role } from '@web/lib/auth/auth-provider';
import { useGuardianChildren } from '@web/features/guardians/api/children';

type Icon = ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;
/** `label` is a layout key, or (`text`) a name shown as it is. */
type Tab = { to: string; label?: string; text?: string; icon: Icon; end: boolean };

/**
 * Phone tabs by role (the bar shares its width evenly; SPEC.md's menu dialog stays in the top bar
 * for everything else). Students: Heute, Aufgaben and the practice tools. Administrators: the
 * dashboard, teachers, students and the audit log. Guardians: the overview and each child (up to
 * three) for switching between children in one tap.
 */
const TABS: Partial<Record<Role, Tab[]>> = {
  student: [
    { to: '/', label: 'tabs.today', icon: Sun, end: true },
    { to: '/submissions', label: 'tabs.tasks', icon: ClipboardList, end: false },
    { to: '/tools', label: 'tabs.tools', icon: Gauge, end: false },
  ],
  admin: [
    { to: '/', label: 'nav.dashboard', icon: LayoutDashboard, end: true },
    { to: '/school/teachers', label: 'nav.schoolTeachers', icon: GraduationCap, end: false },
    { to: '/school/students', label: 'nav.schoolStudents', icon: Users, end: false },
    { to: '/school/audit', label: 'nav.audit', icon: ScrollText, end: false },
  ],
};

const GUARDIAN_CHILD_TABS = 3;

/** Whether the role has phone tabs (the page keeps room for the bar). */
export function hasBottomTabs(role: Role | null): boolean {
  return role === 'student' || role === 'admin' || role === 'guardian';
}

function TabBar({ tabs }: { tabs: Tab[] }) {
  const { t } = useTranslation('layout');
  return (
    <nav
      aria-label={t('tabs.label')}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
      data-testid="bottom-tabs"
    >
      <ul className="mx-auto flex h-16 max-w-md">
        {tabs.map((tab) => (
          <li key={tab.to} className="min-w-0 flex-1">
            <NavLink
              to={tab.to}
              end={tab.end}
              className={({ isActive }) =>
                cn(
                  'flex h-full flex-col items-center justify-center gap-0.5 px-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-slate-900',
                  isActive ? 'text-brand-700' : 'text-slate-600 hover:text-slate-900',
                )
              }
            >
              {({ isActive }) => (
                <>
                  <tab.icon aria-hidden="true" className={cn('size-6', isActive ? 'text-brand-600' : 'text-slate-500')} />
                  <span className="max-w-full truncate">{tab.text ?? t(tab.label ?? '')}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function GuardianTabs() {
  const children = useGuardianChildren();
  const kids = (children.data ?? []).slice(0, GUARDIAN_CHILD_TABS);
  const tabs: Tab[] = [
    { to: '/', label: 'nav.dashboard', icon: LayoutDashboard, end: true },
    ...kids.map((c) => ({ to: `/children/${c.id}`, text: c.name.split(/\s+/)[0] || c.name, icon: User, end: false })),
  ];
  return <TabBar tabs={tabs} />;
}

export function BottomTabs({ role }: { role: Role | null }) {
  if (role === 'guardian') return <GuardianTabs />;
  const tabs = role ? TABS[role] : undefined;
  return tabs ? <TabBar tabs={tabs} /> : null;
}
