import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCheck, MessageSquarePlus, Trash2 } from 'lucide-react';
import { formatMoment, RECORDING_LIMITS } from '@contract/recordings-limits';
import type { Recording, RecordingComment } from '@contract/recordings';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { TextArea } from '@web/components/ui/fields';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { isApiError } from '@web/lib/api';
import { useAddComment, useAnswerRecording, useDeleteComment, useDeleteRecording, useMarkSeen, useUpdateComment } from '../api/recordings';
import { CommentList } from './comment-list';
import { RecordingPlayer, type PlayerHandle } from './recording-player';

/** 'Beantwortet', 'Zu prüfen' or, for the student, 'Neues Feedback'. */
export function RecordingStatus({ recording, newFeedback }: { recording: Recording; newFeedback?: boolean }) {
  const { t } = useTranslation('recordings');
  return (
    <span className="flex flex-wrap gap-1.5">
      {newFeedback && <Badge tone="violet">{t('list.newFeedback')}</Badge>}
      {recording.answered_at ? <Badge tone="green">{t('list.answered')}</Badge> : <Badge tone="amber">{t('list.open')}</Badge>}
    </span>
  );
}

/**
 * One recording with its player and comments. The student may delete it until it is answered;
 * opening one with new feedback marks it seen. The teacher comments at the moment (a click on the
 * waveform or "c"), edits and deletes their own comments and marks it answered.
 */
export function RecordingCard({
  recording,
  viewer,
  userId,
  heading,
  aside,
  onAnswered,
}: {
  recording: Recording;
  viewer: 'student' | 'teacher';
  userId: number | null;
  /** The card's title (defaults to the date it was sent). */
  heading?: ReactNode;
  /** Shown beside the player on wide screens (the teacher's review). */
  aside?: ReactNode;
  onAnswered?: (r: Recording) => void;
}) {
  const { t } = useTranslation(['recordings', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const player = useRef<PlayerHandle>(null);
  const teacher = viewer === 'teacher';

  // The badge stays for this visit; the server learns at once that the feedback was seen. The
  // card may first show the device's kept copy (from before the teacher answered) and the
  // server's answer a moment later: new feedback counts from whichever answer first says so.
  const [wasNew, setWasNew] = useState(viewer === 'student' && recording.new_feedback);
  if (viewer === 'student' && recording.new_feedback && !wasNew) setWasNew(true);
  const seen = useMarkSeen();
  const seenOnce = useRef(false);
  useEffect(() => {
    if (viewer !== 'student' || !recording.new_feedback || seenOnce.current) return;
    seenOnce.current = true;
    seen.mutate(recording.id);
  }, [viewer, recording.id, recording.new_feedback, seen]);

  const remove = useDeleteRecording();
  const answer = useAnswerRecording();
  const addComment = useAddComment();
  const updateComment = useUpdateComment();
  const deleteComment = useDeleteComment();

  const [draftAt, setDraftAt] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const draftRef = useRef<HTMLTextAreaElement>(null);

  const commentAt = (ms: number) => {
    setDraftAt(Math.max(0, Math.min(ms, recording.duration_ms)));
    setDraftError(null);
    draftRef.current?.focus();
  };

  const onDelete = async () => {
    const ok = await confirm({ title: t('list.delete'), message: t('list.deleteConfirm'), confirmLabel: t('common:actions.delete') });
    if (!ok) return;
    try {
      await remove.mutateAsync(recording.id);
      toast.success(t('list.deleted'));
    } catch (err) {
      toast.error(isApiError(err, 409) ? err.message : t('list.deleteError'));
    }
  };

  const onAnswer = async () => {
    try {
      const r = await answer.mutateAsync(recording.id);
      toast.success(t('answer.done'));
      onAnswered?.(r);
    } catch {
      toast.error(t('answer.error'));
    }
  };

  const submitComment = async () => {
    const text = draft.trim();
    if (!text) {
      setDraftError(t('comments.required'));
      draftRef.current?.focus();
      return;
    }
    try {
      await addComment.mutateAsync({ recordingId: recording.id, body: { at_ms: draftAt, text } });
      setDraft('');
      setDraftError(null);
      toast.success(t('comments.saved'));
      player.current?.focus();
    } catch (err) {
      setDraftError(isApiError(err, 422) ? (err.fieldError('at_ms') ?? err.fieldError('text') ?? err.message) : t('comments.error'));
    }
  };

  const editComment = async (c: RecordingComment, text: string) => {
    try {
      await updateComment.mutateAsync({ id: c.id, body: { text } });
      toast.success(t('comments.saved'));
    } catch (err) {
      toast.error(t('comments.error'));
      throw err;
    }
  };

  const removeComment = async (c: RecordingComment) => {
    const ok = await confirm({ title: t('comments.delete'), message: t('comments.deleteConfirm'), confirmLabel: t('common:actions.delete') });
    if (!ok) return;
    try {
      await deleteComment.mutateAsync(c.id);
      toast.success(t('comments.deleted'));
    } catch {
      toast.error(t('comments.error'));
    }
  };

  const main = (
    <div className="min-w-0 space-y-4">
      {recording.message && (
        <blockquote className="rounded-lg border-l-4 border-brand-300 bg-brand-50/50 px-3 py-2 text-sm text-slate-800">
          <span className="sr-only">{t('list.message')}: </span>
          {recording.message}
        </blockquote>
      )}
      <RecordingPlayer ref={player} recording={recording} onCommentAt={teacher ? commentAt : undefined} />
      {teacher && (
        <form
          className="space-y-2 rounded-lg border border-slate-200 p-3"
          onSubmit={(e) => {
            e.preventDefault();
            void submitComment();
          }}
          data-testid="comment-form"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-sm font-medium text-slate-800 tabular-nums" data-testid="comment-moment">
              {draftAt === null ? t('comments.general') : t('comments.at', { time: formatMoment(draftAt) })}
            </span>
            <span className="flex gap-1">
              <Button variant="ghost" size="sm" onClick={() => commentAt(player.current?.currentMs() ?? 0)}>
                {t('comments.atCurrent')}
              </Button>
              {draftAt !== null && (
                <Button variant="ghost" size="sm" onClick={() => setDraftAt(null)}>
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
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                void submitComment();
              }
            }}
          />
          <Button type="submit" size="sm" loading={addComment.isPending} icon={<MessageSquarePlus aria-hidden="true" className="size-4" />}>
            {t('comments.add')}
          </Button>
        </form>
      )}
      <div>
        <h4 className="mb-1 text-sm font-semibold text-slate-900">{t('comments.title')}</h4>
        <CommentList
          comments={recording.comments}
          onPlay={(ms) => player.current?.playFrom(ms)}
          canEdit={teacher ? (c) => c.teacher.id === userId : undefined}
          onEdit={editComment}
          onDelete={(c) => void removeComment(c)}
        />
      </div>
    </div>
  );

  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs sm:p-5" data-testid="recording" data-recording-id={recording.id}>
      <header className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{heading ?? t('list.take', { date: formatDateTime(recording.created_at) })}</h3>
          <p className="text-sm text-slate-500 tabular-nums">
            {t(`list.${recording.kind}`)} · {formatMoment(recording.duration_ms)}
          </p>
        </div>
        <RecordingStatus recording={recording} newFeedback={wasNew} />
      </header>
      {aside ? (
        <div className="grid gap-5 2xl:grid-cols-[minmax(0,1fr)_20rem]">
          {main}
          <div className="min-w-0">{aside}</div>
        </div>
      ) : (
        main
      )}
      {!recording.answered_at && (
        <footer className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
          {teacher ? (
            <Button icon={<CheckCheck aria-hidden="true" className="size-4" />} loading={answer.isPending} onClick={() => void onAnswer()} data-testid="answer-recording">
              {t('answer.action')}
            </Button>
          ) : (
            <Button variant="ghost" className="text-red-700 hover:bg-red-50" icon={<Trash2 aria-hidden="true" className="size-4" />} loading={remove.isPending} onClick={() => void onDelete()}>
              {t('list.delete')}
            </Button>
          )}
        </footer>
      )}
    </article>
  );
}
