import '@web/features/messages/i18n';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AudioLines, ClipboardList, NotebookPen, Pin, PinOff, Trash2 } from 'lucide-react';
import type { Message } from '@contract/messages';
import { formatMoment } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { formatDateTime } from '@web/lib/format';
import { messageLinkHref, type Viewer } from '../lib/links';
import { MessageText } from './message-text';

/** Who wrote it: 'Du' / 'Sie' for one's own, else the name and the role ('Lehrkraft', 'Eltern', 'Schüler'). */
export function useAuthorLabel(viewer: Viewer, me: number | null) {
  const { t } = useTranslation('messages');
  return (m: Message): { own: boolean; name: string; role: string | null } => {
    if (!m.author) return { own: false, name: t('conversation.erased'), role: null };
    if (me !== null && m.author.id === me) return { own: true, name: viewer === 'student' ? t('student.you') : t('adult.you'), role: null };
    return { own: false, name: m.author.name, role: t(`conversation.roles.${m.author.role}`) };
  };
}

/** The task or take a message points to, as a chip that opens it. */
export function LinkChip({ message, viewer }: { message: Message; viewer: Viewer }) {
  const { t } = useTranslation('messages');
  const link = message.link;
  if (!link) return null;
  const take = link.kind === 'take' && link.recording_id !== null;
  const Icon = take ? AudioLines : ClipboardList;
  return (
    <Link
      to={messageLinkHref(link, viewer, message.student_id)}
      className="inline-flex max-w-full items-center gap-1.5 rounded-full bg-white px-3 py-1.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      data-testid="message-link"
    >
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      <span className="truncate" title={link.title}>
        {take ? t('conversation.take', { title: link.title, at: formatMoment(link.at_ms ?? 0) }) : link.title}
      </span>
    </Link>
  );
}

/**
 * One message: who wrote it and when, 'Unterrichtsnotiz' on a lesson note, the text, its link, and
 * what the caller may do with it (pin or unpin a lesson note: the teacher; delete: `can_delete`).
 */
export function MessageItem({
  message,
  viewer,
  me,
  canPin,
  onPin,
  onDelete,
  busy,
  inPinned = false,
}: {
  message: Message;
  viewer: Viewer;
  me: number | null;
  /** The caller may pin lesson notes here (the student's teacher). */
  canPin: boolean;
  onPin: (m: Message, pinned: boolean) => void;
  onDelete: (m: Message) => void;
  busy: boolean;
  /** Shown under 'Angeheftet': the whole width, without the marks the heading already says. */
  inPinned?: boolean;
}) {
  const { t } = useTranslation('messages');
  const author = useAuthorLabel(viewer, me)(message);
  const note = message.kind === 'lesson_note';
  const pinned = message.pinned_at !== null;
  return (
    <article
      className={cn(
        'min-w-0 rounded-xl ring-1 ring-inset',
        inPinned
          ? 'bg-white px-3 py-2.5 ring-amber-200 sm:px-4'
          : cn(
              'px-4 py-3',
              note ? 'bg-amber-50 ring-amber-200' : author.own ? 'bg-brand-50 ring-brand-100' : 'bg-white ring-slate-200',
              author.own ? 'ml-6 sm:ml-16' : 'mr-6 sm:mr-16',
            ),
      )}
      data-testid="message"
      data-message-id={message.id}
      data-kind={message.kind}
    >
      <header className="mb-1 flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-xs text-slate-600">
        <span className="font-semibold text-slate-900" data-testid="message-author">
          {author.name}
        </span>
        {author.role && <span data-testid="message-role">{author.role}</span>}
        <time dateTime={message.created_at} className="tabular-nums">
          {formatDateTime(message.created_at)}
        </time>
        {note && !inPinned && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-900" data-testid="lesson-note-mark">
            <NotebookPen aria-hidden="true" className="size-3.5" />
            {t('conversation.lessonNote')}
          </span>
        )}
        {pinned && !inPinned && (
          <span className="inline-flex items-center gap-1 font-medium text-amber-900">
            <Pin aria-hidden="true" className="size-3.5" />
            {t('conversation.pinned')}
          </span>
        )}
      </header>
      <MessageText body={message.body} />
      {message.link && (
        <div className="mt-2">
          <LinkChip message={message} viewer={viewer} />
        </div>
      )}
      {((canPin && note) || message.can_delete) && (
        <div className="mt-2 flex flex-wrap justify-end gap-1">
          {canPin && note && (
            <Button
              variant="ghost"
              size="sm"
              disabled={busy}
              icon={pinned ? <PinOff aria-hidden="true" className="size-4" /> : <Pin aria-hidden="true" className="size-4" />}
              onClick={() => onPin(message, !pinned)}
            >
              {pinned ? t('conversation.unpin') : t('conversation.pin')}
            </Button>
          )}
          {message.can_delete && (
            <Button variant="ghost" size="sm" disabled={busy} icon={<Trash2 aria-hidden="true" className="size-4" />} onClick={() => onDelete(message)} className="text-red-700 hover:bg-red-50">
              {t('conversation.delete')}
            </Button>
          )}
        </div>
      )}
    </article>
  );
}
