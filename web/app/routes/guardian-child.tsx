import '@web/features/guardians/i18n';
import { lazy, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatMoment } from '@contract/recordings-limits';
import type { Recording } from '@contract/recordings';
import { Badge } from '@web/components/ui/badge';
import { WhenVisible } from '@web/components/ui/when-visible';
import { formatDateTime } from '@web/lib/format';
import { ChartSkeleton, GuardianChildView } from '@web/features/guardians/components/guardian-child-view';
import { CommentList } from '@web/features/recordings/components/comment-list';
import { RecordingPlayer, type PlayerHandle } from '@web/features/recordings/components/recording-player';

// Chart.js is large: its chunk loads only when the chart comes near the screen.
const PracticeChart = lazy(() => import('@web/features/progress/components/practice-chart').then((m) => ({ default: m.PracticeChart })));

/**
 * One recording for a guardian: the player (waveform, the comments as markers; the file through
 * the signed link of GET /api/media/{path}) and the teacher's comments, each playing from its moment.
 * Read-only: no comment form, no answer, no delete; opening it does not mark the feedback seen.
 */
function GuardianRecording({ recording }: { recording: Recording }) {
  const { t } = useTranslation(['guardians', 'recordings']);
  const player = useRef<PlayerHandle>(null);
  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5" data-testid="guardian-recording" data-recording-id={recording.id}>
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
        <RecordingPlayer ref={player} recording={recording} />
        <div>
          <h4 className="mb-1 text-sm font-semibold text-slate-900">{t('child.comments')}</h4>
          <CommentList comments={recording.comments} onPlay={(ms) => player.current?.playFrom(ms)} />
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
  return (
    <GuardianChildView
      key={childId ?? 'none'}
      childId={childId}
      renderChart={(points) => (
        <WhenVisible fallback={<ChartSkeleton />}>
          <PracticeChart data={points} emptyText={t('child.chartEmpty')} />
        </WhenVisible>
      )}
      renderRecording={(r) => <GuardianRecording recording={r} />}
    />
  );
}
