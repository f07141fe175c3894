import '@web/features/recordings/i18n';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDown, MessageCircle, Play } from 'lucide-react';
import { formatMoment } from '@contract/recordings-limits';
import type { Recording, RecordingComment } from '@contract/recordings';
import { formatDate } from '@web/lib/format';
import { Skeleton } from '@web/components/ui/skeleton';
import { useRecordings } from '../api/recordings';

/** The teacher's newest comment on any take of the task, with its take. */
function newest(recordings: Recording[]): { recording: Recording; comment: RecordingComment } | null {
  let best: { recording: Recording; comment: RecordingComment } | null = null;
  for (const recording of recordings)
    for (const comment of recording.comments) if (!best || comment.updated_at > best.comment.updated_at) best = { recording, comment };
  return best;
}

/**
 * Jumps to the comment's moment in its take, below on the page: the take's own 'play from here'
 * control (the comment list's) is scrolled into view, focused and pressed, so the player seeks
 * and plays as it does there.
 */
function jumpTo(recordingId: number, atMs: number | null) {
  const card = document.querySelector<HTMLElement>(`[data-testid="recording"][data-recording-id="${recordingId}"]`);
  if (!card) return;
  const play = atMs === null ? null : card.querySelector<HTMLButtonElement>(`[data-testid="comment-play"][data-at-ms="${atMs}"]`);
  const target = play ?? card;
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
  if (play) {
    play.focus({ preventScroll: true });
    play.click();
  } else {
    card.tabIndex = -1;
    card.focus({ preventScroll: true });
  }
}

/** The card's one action, at its foot: to the comment's moment, or down to the written feedback. */
function JumpButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="mt-auto inline-flex min-h-11 items-center gap-2 self-start rounded-lg px-2 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      data-testid="latest-feedback-jump"
    >
      {children}
    </button>
  );
}

/**
 * 'Neuestes Feedback' at the top of the practice screen: the newest comment on this task's takes
 * and a jump to its moment. Without any take comment, the teacher's written feedback on the task
 * (`written`, shown further down the screen) stands here with a jump to it, so the card never says
 * "no feedback" when there is some. Always the same height (loading, none, one), so nothing below
 * moves when the list arrives.
 */
export function LatestFeedback({ submissionId, written = null }: { submissionId: number; written?: { text: string; onShow: () => void } | null }) {
  const { t } = useTranslation('recordings');
  const list = useRecordings(submissionId);
  const found = list.data ? newest(list.data) : null;
  return (
    <section
      aria-labelledby="latest-feedback-title"
      className="flex h-36 flex-col rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-xs"
      data-testid="latest-feedback"
    >
      <h2 id="latest-feedback-title" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <MessageCircle aria-hidden="true" className="size-4 text-brand-600" />
        {t('latest.title')}
        {found && (
          <span className="min-w-0 truncate font-normal text-slate-500">
            · {found.comment.teacher.name} · {formatDate(found.comment.updated_at)}
          </span>
        )}
      </h2>
      {list.isPending ? (
        <Skeleton className="mt-2 h-16 w-full" />
      ) : !found && written ? (
        <>
          <p className="mt-1 line-clamp-2 text-sm text-slate-800" data-testid="latest-feedback-text">
            {written.text}
          </p>
          <JumpButton onClick={written.onShow}>
            <ArrowDown aria-hidden="true" className="size-4" />
            {t('latest.toWritten')}
          </JumpButton>
        </>
      ) : !found ? (
        <p className="mt-1 line-clamp-3 text-sm text-slate-600">{list.isError ? t('list.loadError') : t('latest.none')}</p>
      ) : (
        <>
          <p className="mt-1 line-clamp-2 text-sm text-slate-800" data-testid="latest-feedback-text">
            {found.comment.text}
          </p>
          <JumpButton onClick={() => jumpTo(found.recording.id, found.comment.at_ms)}>
            <Play aria-hidden="true" className="size-4 fill-current" />
            {found.comment.at_ms === null ? t('latest.toTake') : t('latest.jump', { time: formatMoment(found.comment.at_ms) })}
          </JumpButton>
        </>
      )}
    </section>
  );
}
