import type { ComponentType } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BookOpen, ClipboardList, Gauge, GraduationCap, Inbox, LayoutDashboard, MessagesSquare, Music, ScrollText, Users } from 'lucide-react';
import { cn } from '@web/components/ui/cn';
import type { Role } from '@web/lib/auth/auth-provider';
import { useFirstScreenSettled } from '@web/lib/first-screen';
import { useSelectedCourse } from '@web/features/course-selection/course-selection';
import { InboxCountBadge } from '@web/features/recordings/components/feedback-badges';
import { MessagesBadge } from './messages-badge';

type Item = { to: string; label: string; icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>; end: boolean; badge?: 'inbox' | 'messages' };

/** docs/decisions/messages.md: teachers, students and parents; the badge counts the unread messages. */
const MESSAGES: Item = { to: '/nachrichten', label: 'nav.messages', icon: MessagesSquare, end: false, badge: 'messages' };

export function navItems(role: Role | null): Item[] {
  const items: Item[] = [{ to: '/', label: 'nav.dashboard', icon: LayoutDashboard, end: true }];
  if (role === 'teacher') {
    items.push(
      { to: '/review', label: 'nav.review', icon: Inbox, end: false, badge: 'inbox' },
      MESSAGES,
      { to: '/students', label: 'nav.students', icon: Users, end: false },
      { to: '/courses', label: 'nav.courses', icon: BookOpen, end: false },
      { to: '/exercises', label: 'nav.exercises', icon: Music, end: false },
    );
  }
  if (role === 'student') items.push({ to: '/submissions', label: 'nav.submissions', icon: ClipboardList, end: false }, MESSAGES);
  if (role === 'guardian') items.push(MESSAGES);
  if (role === 'admin') {
    items.push(
      { to: '/school/teachers', label: 'nav.schoolTeachers', icon: GraduationCap, end: false },
      { to: '/school/students', label: 'nav.schoolStudents', icon: Users, end: false },
      { to: '/school/audit', label: 'nav.audit', icon: ScrollText, end: false },
    );
  }
  // The practice tools belong to the practice app: teachers and students.
  if (role === 'teacher' || role === 'student') items.push({ to: '/tools', label: 'nav.tools', icon: Gauge, end: false });
  return items;
}

/** Navigation by role. The root item is active only on an exact match, others by path prefix. */
export function Navigation({ role }: { role: Role | null }) {
  const { t } = useTranslation('layout');
  const { courseId } = useSelectedCourse();
  // the badge's count is asked for once the first screen is there (web/lib/first-screen.ts)
  const settled = useFirstScreenSettled();
  return (
    <nav aria-label={t('nav.label')}>
      <ul className="space-y-1">
        {navItems(role).map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                cn(
                  'group flex h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors lg:h-10',
                  isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
                )
              }
            >
              {({ isActive }) => (
                <>
                  <item.icon aria-hidden="true" className={cn('size-5 shrink-0', isActive ? 'text-brand-600' : 'text-slate-400 group-hover:text-slate-500')} />
                  {t(item.label)}
                  {item.badge === 'inbox' && settled && <InboxCountBadge courseId={courseId} />}
                  {item.badge === 'messages' && <MessagesBadge role={role} />}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
