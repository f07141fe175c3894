import '@web/features/recordings/i18n';
import '@web/features/guardians/i18n';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { formatMoment } from '@contract/recordings-limits';
import type { Recording } from '@contract/recordings';
import { Badge } from '@web/components/ui/badge';
import { WhenVisible } from '@web/components/ui/when-visible';
import { formatDateTime } from '@web/lib/format';
import { parseLanding } from '@web/lib/feedback-landing';
import { ChartSkeleton, GuardianChildView } from '@web/features/guardians/components/guardian-child-view';
import { CommentList } from '@web/features/recordings/components/comment-list';
import { RecordingPlayer, type PlayerHandle } from '@web/features/recordings/components/recording-player';
import { PlayFromHere, useLandOnMoment, type TakeLanding } from '@web/features/recordings/components/landing';
import { ParentTakeLine } from '../compositions/listening-slots';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// Chart.js is large: its chunk loads only when the chart comes near the screen.
const PracticeChart = lazyPart(() => import('@web/features/progress/components/practice-chart').then((m) => ({ default: m.PracticeChart })));

/**
 * One recording for a guardian: the player (waveform, the comments as markers; the file through
 * the signed link of GET /api/media/{path}) and the teacher's comments, each playing from its moment.
 * Read-only: no comment form, no answer, no delete; opening it does not mark the feedback seen.
 */
function GuardianRecording({ recording, landing }: { recording: Recording; landing: TakeLanding | null }) {
  const { t } = useTranslation(['guardians', 'recordings']);
  const player = useRef<PlayerHandle>(null);
  const article = useRef<HTMLElement>(null);
  // the badge of the parents' home lands here: scrolled to, playing from the comment's moment
  const land = useLandOnMoment(landing, player, article);
  return (
    <article ref={article} className="scroll-mt-20 rounded-xl border border-slate-200 bg-white p-4 sm:p-5" data-testid="guardian-recording" data-recording-id={recording.id}>
      <header className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold break-words text-slate-900">{recording.exercise_title}</h3>
          <p className="text-sm text-slate-600 tabular-nums">
            {formatDateTime(recording.created_at)} · {t(`recordings:list.${recording.kind}`)} · {formatMoment(recording.duration_ms)}
          </p>
        </div>
        {recording.answered_at ? <Badge tone="green">{t('child.answered')}</Badge> : <Badge tone="neutral">{t('child.notAnswered')}</Badge>}
      </header>
      <div className="space-y-4">
        {recording.message && (
          <blockquote className="rounded-lg border-l-4 border-brand-300 bg-brand-50/50 px-3 py-2 text-sm text-slate-800">
            <span className="sr-only">{t('child.childMessage')}: </span>
            {recording.message}
          </blockquote>
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
        <RecordingPlayer ref={player} recording={recording} />
        {/* what the app heard, in a line (docs/decisions/listening.md) */}
        <LazySection fallback={null}>
          <ParentTakeLine take={recording} />
        </LazySection>
        <div>
          <h4 className="mb-1 text-sm font-semibold text-slate-900">{t('child.comments')}</h4>
          <CommentList comments={recording.comments} onPlay={(ms) => void player.current?.playFrom(ms)} highlightId={landing?.commentId ?? null} />
        </div>
      </div>
    </article>
  );
}

/** /children/{id} (guardian, docs/decisions/schools-and-roles.md): one child, read-only. */
export default function GuardianChildScreen() {
  const { t } = useTranslation('guardians');
  const { id } = useParams();
  const n = Number(id);
  const childId = id && /^[1-9]\d{0,9}$/.test(id) && n <= 2147483647 ? n : null;
  const location = useLocation();
  const landing = parseLanding(location.search, location.hash);
  return (
    <GuardianChildView
      key={childId ?? 'none'}
      childId={childId}
      renderChart={(points) => (
        <WhenVisible fallback={<ChartSkeleton />}>
          <PracticeChart data={points} emptyText={t('child.chartEmpty')} />
        </WhenVisible>
      )}
      renderRecording={(r) => (
        <GuardianRecording recording={r} landing={landing?.take === r.id ? { atMs: landing.atMs, commentId: landing.commentId } : null} />
      )}
    />
  );
}
