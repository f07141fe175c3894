import '@web/features/messages/i18n';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { AlertTriangle, Clock3, MessagesSquare } from 'lucide-react';
import type { Conversation } from '@contract/messages';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';
import { EmptyState } from '@web/components/ui/empty-state';
import { Skeleton } from '@web/components/ui/skeleton';
import { waitingFor, type Viewer } from '../lib/links';

/** The list while it loads. */
export function ConversationListSkeleton() {
  const { t } = useTranslation('common');
  return (
    <Card className="divide-y divide-slate-100" data-testid="conversations-loading">
      <span role="status" className="sr-only">
        {t('actions.loading')}
      </span>
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className="space-y-2 px-4 py-3">
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-3.5 w-5/6" />
        </div>
      ))}
    </Card>
  );
}

/** The list could not be loaded: what happened and a retry. */
export function ConversationListError({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation(['messages', 'common']);
  return (
    <div role="alert">
      <EmptyState
        icon={AlertTriangle}
        title={t('messages:list.loadError')}
        action={
          <Button variant="secondary" loading={retrying} onClick={onRetry}>
            {t('common:actions.retry')}
          </Button>
        }
      />
    </div>
  );
}

/** Nobody to write to yet (a teacher without students, a parent without a linked child, a student without a teacher). */
export function NoConversations({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation('messages');
  return (
    <EmptyState
      icon={MessagesSquare}
      title={t('list.empty')}
      text={viewer === 'student' ? t('student.none') : viewer === 'guardian' ? t('adult.noneGuardian') : t('adult.noneTeacher')}
    />
  );
}

/**
 * The conversations in the server's order (what waits longest first): the student's name, the unread
 * count, the last message in a line, and how long the oldest unread one has been waiting.
 */
export function ConversationList({ conversations }: { conversations: Conversation[] }) {
  const { t } = useTranslation('messages');
  // the waiting times of this visit; a fresh list comes with the next visit or focus
  const [now] = useState(() => Date.now());
  return (
    <nav aria-label={t('list.label')}>
      <ul className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs" data-testid="conversation-list">
        {conversations.map((c) => {
          const last = c.last_message;
          const preview = last ? `${last.kind === 'lesson_note' ? t('list.notePrefix') : ''}${last.body.replace(/\s+/g, ' ')}` : t('list.noMessages');
          const waiting = c.waiting_since ? waitingFor(c.waiting_since, now) : null;
          return (
            <li key={c.student_id}>
              <NavLink
                to={`/nachrichten/${c.student_id}`}
                className={({ isActive }) =>
                  cn(
                    'block px-4 py-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-slate-900',
                    isActive ? 'bg-brand-50' : 'hover:bg-slate-50',
                  )
                }
                data-testid="conversation-item"
              >
                <span className="flex items-center gap-2">
                  <span className={cn('min-w-0 flex-1 truncate text-sm text-slate-900', c.unread > 0 ? 'font-semibold' : 'font-medium')} title={c.student_name}>
                    {c.student_name}
                  </span>
                  {c.unread > 0 && (
                    <span className="inline-flex min-w-6 shrink-0 items-center justify-center rounded-full bg-brand-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums" data-testid="conversation-unread">
                      <span aria-hidden="true">{c.unread > 99 ? '99+' : c.unread}</span>
                      <span className="sr-only">, {t('list.unread', { count: c.unread })}</span>
                    </span>
                  )}
                </span>
                <span className={cn('mt-0.5 block truncate text-sm text-slate-600', !last && 'italic')} title={last ? preview : undefined} data-testid="conversation-preview">
                  {preview}
                </span>
                {waiting && (
                  <span className="mt-1 flex items-center gap-1 text-xs font-medium text-amber-800" data-testid="conversation-waiting">
                    <Clock3 aria-hidden="true" className="size-3.5" />
                    {t(`list.waiting${waiting.unit}`, { count: waiting.count })}
                  </span>
                )}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
