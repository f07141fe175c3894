import '@web/features/recordings/i18n';
import { useEffect, useImperativeHandle, useRef, useState, type ComponentType, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCheck, Trash2 } from 'lucide-react';
import { formatMoment } from '@contract/recordings-limits';
import type { Recording, RecordingComment } from '@contract/recordings';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { isApiError } from '@web/lib/api';
import { useAnswerRecording, useDeleteComment, useDeleteRecording, useMarkSeen, useUpdateComment } from '../api/recordings';
import { CommentForm } from './comment-form';
import { CommentList } from './comment-list';
import { PlayFromHere, useLandOnMoment, type TakeLanding } from './landing';
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

/** What the review screen's keys do with the open take (docs/decisions/recordings.md). */
export type ReviewHandle = {
  toggle: () => void;
  seekBy: (deltaMs: number) => void;
  /** Comments at the current moment: the text field gets the focus. */
  commentNow: () => void;
  /** 'Als beantwortet markieren'. */
  answer: () => void;
  focusPlayer: () => void;
};

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
  review,
  focusRequest = 0,
  landing,
  AnalysisView,
  TakeActions,
}: {
  recording: Recording;
  viewer: 'student' | 'teacher';
  userId: number | null;
  /** The card's title (defaults to the date it was sent). */
  heading?: ReactNode;
  /** Shown beside the player on wide screens (the teacher's review). */
  aside?: ReactNode;
  onAnswered?: (r: Recording) => void;
  /**
   * The review screen: the player stays pinned at the top while the rest scrolls, and the screen's
   * keys reach the take through this handle.
   */
  review?: Ref<ReviewHandle>;
  /**
   * Opened by the teacher (a key, a tap, the previous take answered): each new number brings the
   * take's student, task and message into view and focuses the player (0: leave the focus alone).
   */
  focusRequest?: number;
  /** A "Neues Feedback" link landed on this take: scrolled to, playing from the comment's moment. */
  landing?: TakeLanding | null;
  /** What the app heard in the take, under the player (a slot: docs/decisions/feature-boundaries.md); its moments play in the player. */
  AnalysisView?: ComponentType<{ recording: Recording; onPlay: (ms: number) => void }>;
  /** The teacher's further actions on the take at the player's moment (a slot: a message about this moment). */
  TakeActions?: ComponentType<{ recording: Recording; currentMs: () => number }>;
}) {
  const { t } = useTranslation(['recordings', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const player = useRef<PlayerHandle>(null);
  const article = useRef<HTMLElement>(null);
  const teacher = viewer === 'teacher';
  const pinned = review !== undefined;
  const land = useLandOnMoment(landing, player, article);

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
  const updateComment = useUpdateComment();
  const deleteComment = useDeleteComment();

  const [draftAt, setDraftAt] = useState<number | null>(null);
  const draftRef = useRef<HTMLTextAreaElement>(null);

  const commentAt = (ms: number) => {
    setDraftAt(Math.max(0, Math.min(ms, recording.duration_ms)));
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
    if (answer.isPending || recording.answered_at) return;
    try {
      const r = await answer.mutateAsync(recording.id);
      toast.success(t('answer.done'));
      onAnswered?.(r);
    } catch {
      toast.error(t('answer.error'));
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

  useImperativeHandle(
    review,
    () => ({
      toggle: () => player.current?.toggle(),
      seekBy: (ms) => player.current?.seekBy(ms),
      commentNow: () => player.current?.commentNow(),
      answer: () => void onAnswer(),
      focusPlayer: () => player.current?.focus(),
    }),
  );

  // A take the teacher opened: its student, task and message at the top of the view, the player focused.
  useEffect(() => {
    if (!focusRequest) return;
    article.current?.scrollIntoView({ block: 'start' });
    player.current?.focus();
  }, [focusRequest]);

  const message = recording.message && (
    <blockquote className="rounded-lg border-l-4 border-brand-300 bg-brand-50/50 px-3 py-2 text-sm text-slate-800">
      <span className="sr-only">{t('list.message')}: </span>
      {recording.message}
    </blockquote>
  );
  const playerView = <RecordingPlayer ref={player} recording={recording} onCommentAt={teacher ? commentAt : undefined} />;

  const main = (
    <div className="min-w-0 space-y-4">
      {!pinned && message}
      {!pinned && playerView}
      {AnalysisView && (
        <AnalysisView
          recording={recording}
          onPlay={(ms) => {
            player.current?.focus();
            void player.current?.playFrom(ms);
          }}
        />
      )}
      {land.refusedAt !== null && (
        <PlayFromHere
          atMs={land.refusedAt}
          onPlay={() => {
            const at = land.refusedAt ?? 0;
            land.clear();
            player.current?.focus();
            void player.current?.playFrom(at);
          }}
        />
      )}
      {teacher && (
        <CommentForm
          recordingId={recording.id}
          draftAt={draftAt}
          onDraftAt={(ms) => (ms === null ? setDraftAt(null) : commentAt(ms))}
          currentMs={() => player.current?.currentMs() ?? 0}
          draftRef={draftRef}
          onSaved={() => player.current?.focus()}
          onCancel={() => {
            setDraftAt(null);
            player.current?.focus();
          }}
        />
      )}
      {teacher && TakeActions && <TakeActions recording={recording} currentMs={() => player.current?.currentMs() ?? 0} />}
      <div>
        <h4 className="mb-1 text-sm font-semibold text-slate-900">{t('comments.title')}</h4>
        <CommentList
          comments={recording.comments}
          onPlay={(ms) => void player.current?.playFrom(ms)}
          highlightId={landing?.commentId ?? null}
          canEdit={teacher ? (c) => c.teacher.id === userId : undefined}
          onEdit={editComment}
          onDelete={(c) => void removeComment(c)}
        />
      </div>
    </div>
  );

  return (
    <article
      ref={article}
      className={cn('rounded-xl border border-slate-200 bg-white p-4 shadow-xs sm:p-5', pinned ? 'scroll-mt-2' : 'scroll-mt-20')}
      data-testid="recording"
      data-recording-id={recording.id}
    >
      <header className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{heading ?? t('list.take', { date: formatDateTime(recording.created_at) })}</h3>
          <p className="text-sm text-slate-500 tabular-nums">
            {t(`list.${recording.kind}`)} · {formatMoment(recording.duration_ms)}
          </p>
        </div>
        <RecordingStatus recording={recording} newFeedback={wasNew} />
      </header>
      {pinned && (
        <>
          {message && <div className="mb-3">{message}</div>}
          {/* Pinned while the comments and the review scroll under it. */}
          <div className="sticky top-0 z-10 -mx-4 mb-4 bg-white/95 px-4 py-2 backdrop-blur sm:-mx-5 sm:px-5" data-testid="pinned-player">
            {playerView}
          </div>
        </>
      )}
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
