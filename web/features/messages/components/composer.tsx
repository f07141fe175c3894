import '@web/features/messages/i18n';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AudioLines, ClipboardList, Send, X } from 'lucide-react';
import { MESSAGE_LIMITS } from '@contract/messages-limits';
import type { MessageKind } from '@contract/messages';
import { formatMoment } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { TextArea } from '@web/components/ui/fields';
import { isApiError } from '@web/lib/api';
import { useSendMessage } from '../api/messages';
import type { Attachment } from '../lib/links';

/**
 * Writing a message: a labelled field with its character count, for the teacher the choice between
 * a message and a lesson note, the task or take it links to (from the address; removable), and
 * 'Senden' (Ctrl/Cmd+Enter too). A refused message keeps its text and shows why under the field.
 */
export function Composer({
  studentId,
  canWriteNotes,
  attachment,
  attachmentTitle,
  onAttachmentRemoved,
}: {
  studentId: number;
  /** The teacher: 'Nachricht' or 'Unterrichtsnotiz'. */
  canWriteNotes: boolean;
  attachment: Attachment | null;
  /** The task's title, when known. */
  attachmentTitle?: string | null;
  /** The link was removed, or sent. */
  onAttachmentRemoved: () => void;
}) {
  const { t } = useTranslation('messages');
  const id = useId();
  const send = useSendMessage(studentId);
  const [text, setText] = useState('');
  const [kind, setKind] = useState<MessageKind>('message');
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const length = text.trim().length;
  const over = length > MESSAGE_LIMITS.maxChars;

  function submit() {
    if (send.isPending) return;
    const body = text.trim();
    const problem = body === '' ? t('composer.empty') : over ? t('composer.tooLong', { max: MESSAGE_LIMITS.maxChars }) : null;
    setError(problem);
    if (problem) {
      field.current?.focus();
      return;
    }
    send.mutate(
      { body, kind: canWriteNotes ? kind : 'message', link: attachment },
      {
        onSuccess: () => {
          setText('');
          setKind('message');
          setError(null);
          if (attachment) onAttachmentRemoved();
          field.current?.focus();
        },
        onError: (err) => {
          setError(
            isApiError(err, 422) ? (err.fieldError('body') ?? err.fieldError('link') ?? err.message) : isApiError(err) && err.status !== 0 && err.message ? err.message : t('composer.failed'),
          );
          field.current?.focus();
        },
      },
    );
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    submit();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  }

  const take = attachment !== null && attachment.recording_id !== null;
  const linkText = attachment ? `${attachmentTitle || t('composer.attachedTask')}${take ? ` · ${formatMoment(attachment.at_ms ?? 0)}` : ''}` : '';

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3" data-testid="composer">
      {canWriteNotes && (
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-700">{t('composer.kind')}</legend>
          <div className="inline-flex rounded-lg bg-slate-100 p-1">
            {(['message', 'lesson_note'] as const).map((k) => (
              <label
                key={k}
                className={cn(
                  'relative flex h-9 cursor-pointer items-center rounded-md px-3 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-slate-900',
                  kind === k ? (k === 'lesson_note' ? 'bg-amber-100 text-amber-900 shadow-xs' : 'bg-white text-slate-900 shadow-xs') : 'text-slate-600 hover:text-slate-900',
                )}
              >
                <input type="radio" name={`${id}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} className="sr-only" />
                {k === 'message' ? t('composer.message') : t('composer.lessonNote')}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {attachment && (
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="composer-link">
          <span className="text-slate-600">{t('composer.attached')}</span>
          <span className="inline-flex max-w-full items-center gap-1.5 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-xs font-medium text-brand-800 ring-1 ring-brand-200 ring-inset">
            {take ? <AudioLines aria-hidden="true" className="size-3.5 shrink-0" /> : <ClipboardList aria-hidden="true" className="size-3.5 shrink-0" />}
            <span className="truncate" title={linkText}>
              {linkText}
            </span>
            <button
              type="button"
              onClick={onAttachmentRemoved}
              aria-label={t('composer.removeLink')}
              title={t('composer.removeLink')}
              className="inline-flex size-7 shrink-0 items-center justify-center rounded-full text-brand-700 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-slate-900"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </span>
        </div>
      )}
      <TextArea
        ref={field}
        id={`${id}-body`}
        label={kind === 'lesson_note' && canWriteNotes ? t('composer.labelNote') : t('composer.label')}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        error={error ?? undefined}
        hint={
          <span className="flex flex-wrap justify-between gap-x-4">
            <span>{t('composer.shortcut')}</span>
            <span className={cn('tabular-nums', over && 'font-medium text-red-700')} data-testid="composer-count">
              {t('composer.count', { n: length, max: MESSAGE_LIMITS.maxChars })}
            </span>
          </span>
        }
      />
      <div className="flex justify-end">
        <Button type="submit" loading={send.isPending} icon={<Send aria-hidden="true" className="size-4" />}>
          {send.isPending ? t('composer.sending') : t('composer.send')}
        </Button>
      </div>
    </form>
  );
}
