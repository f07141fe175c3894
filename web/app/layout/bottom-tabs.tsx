import type { ComponentType } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ClipboardList, Gauge, GraduationCap, LayoutDashboard, MessagesSquare, ScrollText, Sun, User, Users } from 'lucide-react';
import { cn } from '@web/components/ui/cn';
import type { Role } from '@web/lib/auth/auth-provider';
import { useGuardianChildren } from '@web/features/guardians/api/children';
import { GUARDIAN_CHILD_TABS, messagesInTabs, useUnreadCount } from './messages-badge';

type Icon = ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;
/** `label` is a layout key, or (`text`) a name shown as it is. */
type Tab = { to: string; label?: string; text?: string; icon: Icon; end: boolean; badge?: 'messages' };

const MESSAGES_TAB: Tab = { to: '/nachrichten', label: 'tabs.messages', icon: MessagesSquare, end: false, badge: 'messages' };

/**
 * Phone tabs by role (the bar shares its width evenly, four at most on a 390 px phone; SPEC.md's
 * menu dialog stays in the top bar for everything else). Students: Heute, Aufgaben, Nachrichten and
 * the practice tools. Administrators: the dashboard, teachers, students and the audit log.
 * Guardians: the overview and each child (up to three) for switching between children in one tap,
 * and Nachrichten while there is room (one or two children; with three it is in the menu, whose
 * button then shows the unread count).
 */
const TABS: Partial<Record<Role, Tab[]>> = {
  student: [
    { to: '/', label: 'tabs.today', icon: Sun, end: true },
    { to: '/submissions', label: 'tabs.tasks', icon: ClipboardList, end: false },
    MESSAGES_TAB,
    { to: '/tools', label: 'tabs.tools', icon: Gauge, end: false },
  ],
  admin: [
    { to: '/', label: 'nav.dashboard', icon: LayoutDashboard, end: true },
    { to: '/school/teachers', label: 'nav.schoolTeachers', icon: GraduationCap, end: false },
    { to: '/school/students', label: 'nav.schoolStudents', icon: Users, end: false },
    { to: '/school/audit', label: 'nav.audit', icon: ScrollText, end: false },
  ],
};


/** Whether the role has phone tabs (the page keeps room for the bar). */
export function hasBottomTabs(role: Role | null): boolean {
  return role === 'student' || role === 'admin' || role === 'guardian';
}

function TabBar({ tabs, role }: { tabs: Tab[]; role: Role | null }) {
  const { t } = useTranslation('layout');
  const unread = useUnreadCount(role);
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
                  <span className="relative">
                    <tab.icon aria-hidden="true" className={cn('size-6', isActive ? 'text-brand-600' : 'text-slate-500')} />
                    {tab.badge === 'messages' && unread > 0 && (
                      <span
                        aria-hidden="true"
                        className="absolute -top-1.5 left-3.5 inline-flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-brand-600 px-1 text-[0.6875rem] leading-none font-semibold text-white tabular-nums ring-2 ring-white"
                        data-testid="messages-tab-badge"
                      >
                        {unread > 99 ? '99+' : unread}
                      </span>
                    )}
                  </span>
                  <span className="max-w-full truncate">{tab.text ?? t(tab.label ?? '')}</span>
                  {tab.badge === 'messages' && unread > 0 && <span className="sr-only">, {t('unread', { count: unread })}</span>}
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
    ...(messagesInTabs('guardian', children.data?.length) ? [MESSAGES_TAB] : []),
  ];
  return <TabBar tabs={tabs} role="guardian" />;
}

export function BottomTabs({ role }: { role: Role | null }) {
  if (role === 'guardian') return <GuardianTabs />;
  const tabs = role ? TABS[role] : undefined;
  return tabs ? <TabBar tabs={tabs} role={role} /> : null;
}
