import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { Role } from '@web/lib/auth/auth-provider';
import { useFirstScreenSettled } from '@web/lib/first-screen';
import { useUnreadMessages } from '@web/features/messages/api/unread';
import { guardianChildrenQueryOptions } from '@web/features/guardians/api/children';

/** A parent's phone tabs: the overview and up to this many children. */
export const GUARDIAN_CHILD_TABS = 3;
/** Tabs that fit a 390 px phone. */
export const MAX_TABS = 4;

/** Whether 'Nachrichten' is one of the phone tabs (else it is in the menu, and the menu button shows the count). */
export function messagesInTabs(role: Role | null, childCount: number | undefined): boolean {
  if (role === 'student') return true;
  return role === 'guardian' && childCount !== undefined && 1 + Math.min(childCount, GUARDIAN_CHILD_TABS) < MAX_TABS;
}

/** The roles that take part in conversations (the administrator does not). */
export const takesPartInMessages = (role: Role | null): boolean => role === 'teacher' || role === 'student' || role === 'guardian';

/** The unread messages of the signed-in user (polled), or 0; asked for once the first screen is there (web/lib/first-screen.ts). */
export function useUnreadCount(role: Role | null): number {
  const settled = useFirstScreenSettled();
  const count = useUnreadMessages(takesPartInMessages(role) && settled).data ?? 0;
  // The answer of a read is a blocking render of whoever asks (the layout, the navigation); the
  // count they draw from it follows in a transition (docs/decisions/first-load-on-a-phone.md).
  return useDeferredValue(count, 0);
}

/**
 * The unread count beside 'Nachrichten' (nothing at 0): the number is shown, the link's accessible
 * name says 'Nachrichten, 3 ungelesen'.
 */
export function MessagesBadge({ role, className }: { role: Role | null; className?: string }) {
  const { t } = useTranslation('layout');
  const count = useUnreadCount(role);
  if (!count) return null;
  return (
    <span
      className={
        className ??
        'ml-auto inline-flex min-w-6 items-center justify-center rounded-full bg-brand-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums'
      }
      data-testid="messages-badge"
    >
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">, {t('unread', { count })}</span>
    </span>
  );
}

/**
 * The count the phone's menu button shows: the unread messages when 'Nachrichten' is only in the
 * menu (teachers; parents of three children), else 0.
 */
export function useMenuUnread(role: Role | null): number {
  const count = useUnreadCount(role);
  const children = useQuery({ ...guardianChildrenQueryOptions(), enabled: role === 'guardian' });
  if (role === 'teacher') return count;
  if (role === 'guardian' && children.data && !messagesInTabs(role, children.data.length)) return count;
  return 0;
}
