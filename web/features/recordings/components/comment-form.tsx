import '@web/features/recordings/i18n';
import { useEffect, useId, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { BookmarkPlus, ChevronDown, ChevronUp, MessageSquarePlus, Mic, Send, Square, Trash2, X } from 'lucide-react';
import { formatMoment, QUICK_REPLY_LIMITS, RECORDING_LIMITS, VOICE_COMMENT_LIMITS } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import { TextArea } from '@web/components/ui/fields';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useAddComment, useAddVoiceComment, useDeleteQuickReply, useQuickReplies, useSaveQuickReply } from '../api/recordings';
import { useRecorder, type Take } from '../lib/use-recorder';

const VOICE_LIMITS = { maxMs: VOICE_COMMENT_LIMITS.maxMs, maxBytes: VOICE_COMMENT_LIMITS.maxBytes };

/**
 * The teacher's comment at a moment of a take: words, a saved quick reply inserted with a click
 * (or Alt+1 … Alt+9 in the text field), or a spoken comment of at most 60 s recorded here
 * (docs/decisions/spoken-comments-and-quick-replies.md). The moment comes from the player (a
 * click on the waveform or "c").
 */
export function CommentForm({
  recordingId,
  draftAt,
  onDraftAt,
  currentMs,
  draftRef,
  onSaved,
  onCancel,
}: {
  recordingId: number;
  draftAt: number | null;
  onDraftAt: (ms: number | null) => void;
  currentMs: () => number;
  draftRef: RefObject<HTMLTextAreaElement | null>;
  /** After a comment was saved (the card gives the focus back to the player). */
  onSaved: () => void;
  /** Escape in the text: the draft is dropped and the card gives the focus back to the player. */
  onCancel?: () => void;
}) {
  const { t } = useTranslation('recordings');
  const toast = useToast();
  const addComment = useAddComment();
  const addVoice = useAddVoiceComment();
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const [clip, setClip] = useState<(Take & { url: string }) | null>(null);
  const [voiceError, setVoiceError] = useState<string | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRecorder(
    (take) => setClip({ ...take, url: URL.createObjectURL(take.blob) }),
    (_level, ms) => setElapsed(ms),
    VOICE_LIMITS,
  );
  const recording = recorder.state.phase === 'recording' || recorder.state.phase === 'requesting';
  useEffect(() => () => (clip ? URL.revokeObjectURL(clip.url) : undefined), [clip]);

  const submitText = async () => {
    const text = draft.trim();
    if (!text) {
      setDraftError(t('comments.required'));
      draftRef.current?.focus();
      return;
    }
    try {
      await addComment.mutateAsync({ recordingId, body: { at_ms: draftAt, text } });
      setDraft('');
      setDraftError(null);
      toast.success(t('comments.saved'));
      onSaved();
    } catch (err) {
      setDraftError(isApiError(err, 422) ? (err.fieldError('at_ms') ?? err.fieldError('text') ?? err.message) : t('comments.error'));
    }
  };

  const sendVoice = async () => {
    if (!clip) return;
    try {
      await addVoice.mutateAsync({ recordingId, clip, atMs: draftAt, text: draft });
      setClip(null);
      setDraft('');
      setVoiceError(null);
      toast.success(t('voice.sent'));
      onSaved();
    } catch (err) {
      setVoiceError(isApiError(err) ? (err.fieldError('file') ?? err.fieldError('at_ms') ?? err.message) : t('voice.error'));
    }
  };

  const insert = (text: string) => {
    const el = draftRef.current;
    const start = el?.selectionStart ?? draft.length;
    const end = el?.selectionEnd ?? draft.length;
    const next = `${draft.slice(0, start)}${text}${draft.slice(end)}`.slice(0, RECORDING_LIMITS.commentMax);
    setDraft(next);
    setDraftError(null);
    requestAnimationFrame(() => {
      el?.focus();
      const at = Math.min(next.length, start + text.length);
      el?.setSelectionRange(at, at);
    });
  };

  const replies = useQuickReplies();

  return (
    <form
      className="space-y-2 rounded-lg border border-slate-200 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void submitText();
      }}
      data-testid="comment-form"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-800 tabular-nums" data-testid="comment-moment">
          {draftAt === null ? t('comments.general') : t('comments.at', { time: formatMoment(draftAt) })}
        </span>
        <span className="flex gap-1">
          <Button variant="ghost" size="sm" onClick={() => onDraftAt(currentMs())}>
            {t('comments.atCurrent')}
          </Button>
          {draftAt !== null && (
            <Button variant="ghost" size="sm" onClick={() => onDraftAt(null)}>
              {t('comments.noMoment')}
            </Button>
          )}
        </span>
      </div>
      <TextArea
        ref={draftRef}
        label={t('comments.text')}
        hideLabel
        rows={2}
        maxLength={RECORDING_LIMITS.commentMax}
        value={draft}
        error={draftError ?? undefined}
        placeholder={t('comments.placeholder')}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          // Enter (or Ctrl+Enter) saves, Shift+Enter is a new line; Escape drops the text and goes
          // back to the player (the review screen's keys, docs/decisions/recordings.md).
          if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submitText();
            return;
          }
          if (e.key === 'Escape' && onCancel) {
            e.preventDefault();
            setDraft('');
            setDraftError(null);
            onCancel();
            return;
          }
          // Alt+1 … Alt+9: the saved reply of that number (e.code: Alt changes e.key on a Mac)
          const n = e.altKey && !e.ctrlKey && !e.metaKey ? /^Digit([1-9])$/.exec(e.code) : null;
          const reply = n ? replies.data?.[Number(n[1]) - 1] : undefined;
          if (reply) {
            e.preventDefault();
            insert(reply.text);
          }
        }}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={addComment.isPending} icon={<MessageSquarePlus aria-hidden="true" className="size-4" />}>
          {t('comments.add')}
        </Button>
        {!clip && !recording && (
          <Button variant="secondary" size="sm" icon={<Mic aria-hidden="true" className="size-4" />} onClick={() => void recorder.start('audio')} data-testid="voice-record">
            {t('voice.record')}
          </Button>
        )}
      </div>
      {recording && (
        <div className="flex flex-wrap items-center gap-3 rounded-md bg-red-50 px-3 py-2" data-testid="voice-live">
          <span className="size-2.5 animate-pulse rounded-full bg-red-600" aria-hidden="true" />
          <span className="text-sm font-medium text-red-900 tabular-nums" role="status">
            {t('voice.recording', { elapsed: formatMoment(elapsed), max: formatMoment(VOICE_COMMENT_LIMITS.maxMs) })}
          </span>
          <Button variant="secondary" size="sm" icon={<Square aria-hidden="true" className="size-4 fill-current" />} onClick={recorder.stop} autoFocus>
            {t('voice.stop')}
          </Button>
        </div>
      )}
      {recorder.state.phase === 'failed' && (
        <p role="alert" className="text-sm text-red-700">
          {t(`permission.${recorder.state.problem}`)}
        </p>
      )}
      {clip && (
        <div className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset" data-testid="voice-preview">
          <audio controls src={clip.url} aria-label={t('voice.preview')} className="h-10 w-full max-w-sm" />
          <p className="text-xs text-slate-600">{t('voice.hint')}</p>
          {voiceError && (
            <p role="alert" className="text-sm text-red-700" data-testid="voice-error">
              {voiceError}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" loading={addVoice.isPending} icon={<Send aria-hidden="true" className="size-4" />} onClick={() => void sendVoice()} autoFocus>
              {t('voice.send')}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              icon={<X aria-hidden="true" className="size-4" />}
              onClick={() => {
                setClip(null);
                setVoiceError(null);
              }}
            >
              {t('voice.discard')}
            </Button>
          </div>
        </div>
      )}
      <QuickReplies replies={replies.data ?? []} draft={draft} onInsert={insert} />
    </form>
  );
}

/** The teacher's saved replies: shown on request, inserted with a click, saved from the text field, deleted. */
function QuickReplies({ replies, draft, onInsert }: { replies: ReadonlyArray<{ id: number; text: string }>; draft: string; onInsert: (text: string) => void }) {
  const { t } = useTranslation('recordings');
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const hintId = useId();
  const save = useSaveQuickReply();
  const remove = useDeleteQuickReply();
  const text = draft.trim();
  const canSave = text.length > 0 && text.length <= QUICK_REPLY_LIMITS.maxChars && !replies.some((r) => r.text === text);

  const onSave = async () => {
    try {
      await save.mutateAsync(text);
      toast.success(t('quick.saved'));
      setOpen(true);
    } catch (err) {
      toast.error(isApiError(err, 422) ? (err.fieldError('text') ?? err.message) : t('quick.error'));
    }
  };

  return (
    <div className="border-t border-slate-100 pt-2" data-testid="quick-replies">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={open}
          aria-controls={listId}
          icon={open ? <ChevronUp aria-hidden="true" className="size-4" /> : <ChevronDown aria-hidden="true" className="size-4" />}
          onClick={() => setOpen((v) => !v)}
        >
          {t('quick.toggle', { count: replies.length })}
        </Button>
        {canSave && (
          <Button variant="ghost" size="sm" loading={save.isPending} icon={<BookmarkPlus aria-hidden="true" className="size-4" />} onClick={() => void onSave()}>
            {t('quick.save')}
          </Button>
        )}
      </div>
      <div id={listId} hidden={!open} className="mt-2">
        <p id={hintId} className="mb-1.5 text-xs text-slate-600">
          {replies.length ? t('quick.hint') : t('quick.none')}
        </p>
        {replies.length > 0 && (
          <ul aria-label={t('quick.title')} aria-describedby={hintId} className="space-y-1.5">
            {replies.map((r, i) => (
              <li key={r.id} className="flex items-start gap-1">
                <button
                  type="button"
                  onClick={() => onInsert(r.text)}
                  // named by its visible text (WCAG 2.5.3), described by the hint: a click inserts it
                  aria-describedby={hintId}
                  className="min-h-11 min-w-0 flex-1 rounded-md bg-slate-50 px-2.5 py-1.5 text-left text-sm break-words text-slate-800 ring-1 ring-slate-200 ring-inset hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 sm:min-h-8"
                  data-testid="quick-reply"
                >
                  {i < 9 && (
                    <kbd aria-hidden="true" className="mr-1.5 rounded bg-white px-1 text-xs text-slate-500 ring-1 ring-slate-200">
                      {i + 1}
                    </kbd>
                  )}
                  {r.text}
                </button>
                <button
                  type="button"
                  aria-label={t('quick.delete', { text: r.text })}
                  title={t('quick.delete', { text: r.text })}
                  onClick={() =>
                    remove.mutate(r.id, {
                      onSuccess: () => toast.success(t('quick.deleted')),
                      onError: () => toast.error(t('quick.error')),
                    })
                  }
                  className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-slate-900 sm:size-8"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
