import '@web/features/messages/i18n';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, MessagesSquare } from 'lucide-react';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { cn } from '@web/components/ui/cn';
import { useAuth } from '@web/lib/auth/auth-provider';
import { useConversations } from '@web/features/messages/api/messages';
import { ConversationList, ConversationListError, ConversationListSkeleton, NoConversations } from '@web/features/messages/components/conversation-list';
import { ConversationView } from '@web/features/messages/components/conversation-view';
import { attachmentFromSearch, type Viewer } from '@web/features/messages/lib/links';
import { submissionQueryOptions } from '@web/features/tasks/api/task-queries';

const parseId = (raw: string | undefined) => (raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : null);

/**
 * /nachrichten and /nachrichten/:studentId (docs/decisions/messages.md). A teacher: the conversations
 * (who waits longest first) and the chosen one beside them on wide screens; on a phone the list, then
 * the conversation with a way back. A student: straight to their own conversation. A parent: their
 * children's conversations, straight to the one when there is one child. `?task=…&take=…&t=…`
 * links the message being written to a task or a take at a moment.
 */
export default function MessagesScreen() {
  const { t } = useTranslation('messages');
  const { role, user } = useAuth();
  const viewer: Viewer = role === 'teacher' || role === 'guardian' ? role : 'student';
  const studentId = parseId(useParams().studentId);
  const location = useLocation();
  const navigate = useNavigate();
  const conversations = useConversations();
  const attachment = attachmentFromSearch(location.search);
  // the linked task's title for the chip (a parent's link opens the child's page: no task to ask for)
  const linked = useQuery({ ...submissionQueryOptions(attachment?.task_id ?? 0), enabled: attachment !== null && viewer !== 'guardian' });
  const list = conversations.data ?? [];

  // A student has one conversation, a parent of one child too: straight to it (with the link asked for).
  if (studentId === null && viewer !== 'teacher' && list.length === 1) return <Navigate replace to={`/nachrichten/${list[0]!.student_id}${location.search}`} />;

  const header = <PageHeader title={t('title')} subtitle={t('subtitle')} />;
  const listPanel = conversations.isPending ? (
    <ConversationListSkeleton />
  ) : conversations.isError && !conversations.data ? (
    <ConversationListError retrying={conversations.isFetching} onRetry={() => void conversations.refetch()} />
  ) : list.length === 0 ? (
    <NoConversations viewer={viewer} />
  ) : (
    <ConversationList conversations={list} />
  );

  const conversation = studentId !== null && (
    <ConversationView
      key={studentId}
      studentId={studentId}
      viewer={viewer}
      me={user?.id ?? null}
      showName={viewer !== 'student'}
      attachment={attachment}
      attachmentTitle={linked.data?.exercise_title ?? null}
      onAttachmentRemoved={() => void navigate({ pathname: location.pathname, search: '' }, { replace: true })}
    />
  );

  if (viewer === 'student') {
    return (
      <>
        {header}
        <div className="mx-auto max-w-3xl">{studentId !== null ? conversation : listPanel}</div>
      </>
    );
  }

  // a parent of one child has nothing to choose between: no list, no way back to it
  const single = viewer === 'guardian' && conversations.isSuccess && list.length <= 1;
  if (single) {
    return (
      <>
        {header}
        <div className="mx-auto max-w-3xl">{conversation || listPanel}</div>
      </>
    );
  }

  return (
    <>
      {header}
      <div className="grid items-start gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <div className={cn('min-w-0', studentId !== null && 'hidden lg:block')}>{listPanel}</div>
        <div className={cn('min-w-0', studentId === null && 'hidden lg:block')}>
          {studentId !== null ? (
            <>
              <Link
                to="/nachrichten"
                className="mb-3 inline-flex h-11 items-center gap-1.5 rounded-lg px-1 text-sm font-medium text-brand-700 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-slate-900 lg:hidden"
                data-testid="messages-back"
              >
                <ArrowLeft aria-hidden="true" className="size-4" />
                {t('list.back')}
              </Link>
              {conversation}
            </>
          ) : (
            list.length > 0 && <EmptyState icon={MessagesSquare} title={t('conversation.chooseTitle')} text={t('conversation.chooseText')} />
          )}
        </div>
      </div>
    </>
  );
}
