import '@web/features/messages/i18n';
import { Fragment, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, MessagesSquare, Pin } from 'lucide-react';
import type { Message } from '@contract/messages';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useDeleteMessage, useMarkRead, useMessagePages, usePinMessage } from '../api/messages';
import type { Attachment, Viewer } from '../lib/links';
import { Composer } from './composer';
import { MessageItem } from './message-item';

/** The conversation while its first page loads. */
export function ConversationSkeleton() {
  const { t } = useTranslation('common');
  return (
    <Card className="space-y-3 p-4" data-testid="conversation-loading">
      <span role="status" className="sr-only">
        {t('actions.loading')}
      </span>
      <Skeleton className="h-16 w-3/4 rounded-xl" />
      <Skeleton className="ml-auto h-12 w-2/3 rounded-xl" />
      <Skeleton className="h-20 w-3/4 rounded-xl" />
      <Skeleton className="mt-4 h-24 w-full rounded-lg" />
    </Card>
  );
}

/**
 * One student's conversation (docs/decisions/messages.md): the pinned lesson notes on top, the
 * messages oldest to newest with 'Neu' where the unread ones begin, older pages on request, and the
 * composer below. Showing the newest page marks it read.
 */
export function ConversationView({
  studentId,
  viewer,
  me,
  showName = true,
  attachment = null,
  attachmentTitle = null,
  onAttachmentRemoved = () => undefined,
}: {
  studentId: number;
  viewer: Viewer;
  /** The signed-in user's id (their own messages say 'Du' / 'Sie'). */
  me: number | null;
  /** The student's name as the heading (not for the student themself). */
  showName?: boolean;
  attachment?: Attachment | null;
  attachmentTitle?: string | null;
  onAttachmentRemoved?: () => void;
}) {
  const { t } = useTranslation(['messages', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const pages = useMessagePages(studentId);
  const { mutate: markRead } = useMarkRead(studentId);
  const pin = usePinMessage(studentId);
  const remove = useDeleteMessage(studentId);
  const scroller = useRef<HTMLDivElement>(null);
  const marked = useRef(0);

  const first = pages.data?.pages[0];
  const newest = first?.data[0]?.id ?? 0;
  const readUpTo = first?.read_up_to ?? 0;
  // writing marks read on the server: only messages of others call for it
  const othersUnread = first?.data.some((m) => m.id > readUpTo && m.author?.id !== me) ?? false;

  // The newest page is on screen: read up to its newest message, once per message.
  useEffect(() => {
    if (othersUnread && newest > marked.current) {
      marked.current = newest;
      markRead(newest);
    }
  }, [newest, othersUnread, markRead]);

  // A new newest message (the first page, one sent or arrived): the view goes to the bottom.
  useEffect(() => {
    const el = scroller.current;
    if (el && newest) el.scrollTop = el.scrollHeight;
  }, [newest]);

  if (pages.isPending) return <ConversationSkeleton />;
  if (pages.isError && !pages.data) {
    const missing = isApiError(pages.error, 404) || isApiError(pages.error, 403);
    return (
      <div role="alert">
        <EmptyState
          icon={AlertTriangle}
          title={missing ? t('conversation.notFound') : t('conversation.loadError')}
          action={
            missing ? undefined : (
              <Button variant="secondary" loading={pages.isFetching} onClick={() => void pages.refetch()}>
                {t('common:actions.retry')}
              </Button>
            )
          }
        />
      </div>
    );
  }

  const page = pages.data.pages[0]!;
  // oldest first on screen: the pages come newest first, each newest first
  const messages: Message[] = pages.data.pages.flatMap((p) => p.data).reverse();
  const firstNew = messages.find((m) => m.id > readUpTo && m.author?.id !== me)?.id ?? null;
  const canPin = page.can_write_notes;
  const busy = pin.isPending || remove.isPending;

  const onPin = (m: Message, pinned: boolean) => {
    pin.mutate(
      { id: m.id, pinned },
      {
        onSuccess: () => toast.success(pinned ? t('conversation.pinDone') : t('conversation.unpinDone')),
        onError: (err) => toast.error(isApiError(err) && err.status !== 0 && err.message ? err.message : t('conversation.pinError')),
      },
    );
  };

  const onDelete = async (m: Message) => {
    const ok = await confirm({ title: t('conversation.deleteTitle'), message: t('conversation.deleteText'), confirmLabel: t('conversation.delete') });
    if (!ok) return;
    remove.mutate(m.id, {
      onSuccess: () => toast.success(t('conversation.deleted')),
      onError: (err) => toast.error(isApiError(err) && err.status !== 0 && err.message ? err.message : t('conversation.deleteError')),
    });
  };

  const item = (m: Message, inPinned = false) => (
    <MessageItem message={m} viewer={viewer} me={me} canPin={canPin} onPin={onPin} onDelete={(x) => void onDelete(x)} busy={busy} inPinned={inPinned} />
  );
  const empty = viewer === 'student' ? t('messages:student.empty') : viewer === 'guardian' ? t('messages:adult.emptyGuardian') : t('messages:adult.emptyTeacher');

  return (
    <Card className="min-w-0" data-testid="conversation">
      {showName && (
        <div className="border-b border-slate-100 px-4 py-3 sm:px-5">
          <h2 className="truncate text-base font-semibold text-slate-900" title={page.student_name} data-testid="conversation-name">
            {page.student_name}
          </h2>
        </div>
      )}
      {page.pinned.length > 0 && (
        <section aria-labelledby={`pinned-${studentId}`} className="border-b border-amber-200 bg-amber-50/60 px-4 py-3 sm:px-5" data-testid="pinned">
          <h3 id={`pinned-${studentId}`} className="mb-2 flex items-center gap-1.5 text-sm font-semibold text-amber-900">
            <Pin aria-hidden="true" className="size-4" />
            {t('conversation.pinnedTitle')}
          </h3>
          <ul className="space-y-2">
            {page.pinned.map((m) => (
              <li key={m.id}>{item(m, true)}</li>
            ))}
          </ul>
        </section>
      )}
      <div
        ref={scroller}
        role="log"
        tabIndex={0}
        aria-label={t('conversation.messagesLabel', { name: page.student_name })}
        className="max-h-[min(60dvh,40rem)] space-y-3 overflow-y-auto px-4 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-slate-900 sm:px-5"
        data-testid="message-list"
      >
        {pages.hasNextPage && (
          <div className="flex flex-col items-center gap-1">
            <Button variant="secondary" size="sm" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()} data-testid="older">
              {t('conversation.older')}
            </Button>
            {pages.isFetchNextPageError && (
              <p role="alert" className="text-xs text-red-700">
                {t('conversation.olderError')}
              </p>
            )}
          </div>
        )}
        {messages.length === 0 ? (
          <div className="flex flex-col items-center py-8 text-center" data-testid="conversation-empty">
            <MessagesSquare aria-hidden="true" className="mb-3 size-8 text-slate-400" />
            <p className="max-w-sm text-sm text-slate-600">{empty}</p>
          </div>
        ) : (
          <ol className="space-y-3">
            {messages.map((m) => (
              <Fragment key={m.id}>
                {m.id === firstNew && (
                  <li className="flex items-center gap-3 text-xs font-semibold tracking-wide text-brand-700 uppercase" data-testid="new-divider">
                    <span aria-hidden="true" className="h-px flex-1 bg-brand-200" />
                    {t('conversation.newDivider')}
                    <span aria-hidden="true" className="h-px flex-1 bg-brand-200" />
                  </li>
                )}
                <li>{item(m)}</li>
              </Fragment>
            ))}
          </ol>
        )}
      </div>
      <div className="border-t border-slate-100 px-4 py-4 sm:px-5">
        <Composer
          studentId={studentId}
          canWriteNotes={page.can_write_notes}
          attachment={attachment}
          attachmentTitle={attachmentTitle}
          onAttachmentRemoved={onAttachmentRemoved}
        />
      </div>
    </Card>
  );
}
