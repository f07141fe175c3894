import '@web/features/recordings/i18n';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AudioLines } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import type { Recording, RecordingKind } from '@contract/recordings';
import { Skeleton } from '@web/components/ui/skeleton';
import { parseLanding } from '@web/lib/feedback-landing';
import { useRecordings } from '../api/recordings';
import { Recorder } from './recorder';
import { RecordingCard } from './recording-card';
import { StorageUsage } from './storage-usage';

/**
 * 'Aufnahmen' on the task detail: the student's recorder (open, overdue and completed tasks) and
 * the task's recordings with their comments, for the student and the teacher.
 */
export function RecordingsSection({
  submission,
  viewer,
  userId,
  headingLevel = 2,
  renderTakeExtra,
  AnalysisView,
  TakeActions,
}: {
  submission: { id: number; status: string; title: string };
  viewer: 'student' | 'teacher';
  userId: number | null;
  headingLevel?: 2 | 3;
  /** Slots the app fills (the listening analysis): with the take before sending, and on each take. */
  renderTakeExtra?: (take: { blob: Blob; kind: RecordingKind }) => ReactNode;
  AnalysisView?: ComponentType<{ recording: Recording; onPlay: (ms: number) => void }>;
  /** The teacher's further actions on a take at the player's moment (a slot the app fills). */
  TakeActions?: ComponentType<{ recording: Recording; currentMs: () => number }>;
}) {
  const { t } = useTranslation('recordings');
  const list = useRecordings(submission.id);
  const canRecord = viewer === 'student' && userId !== null && submission.status !== 'expired';
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const recordings: Recording[] = list.data ?? [];
  // ?take=…&t=…#comment-…: a "Neues Feedback" link lands on that take, at that moment
  const location = useLocation();
  const landing = parseLanding(location.search, location.hash);
  return (
    <section aria-labelledby={`recordings-title-${submission.id}`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-xs sm:p-5" data-testid="recordings">
      <div>
        <Heading id={`recordings-title-${submission.id}`} className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <AudioLines aria-hidden="true" className="size-5 text-brand-600" />
          {t('title')}
        </Heading>
        {canRecord && <p className="mt-1 text-sm text-slate-600">{t('recorder.hint')}</p>}
      </div>
      {canRecord && <StorageUsage />}
      {canRecord && <Recorder submissionId={submission.id} userId={userId} title={submission.title} renderTakeExtra={renderTakeExtra} />}
      {list.isPending ? (
        <Skeleton className="h-32 w-full rounded-xl" />
      ) : list.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {t('list.loadError')}
        </p>
      ) : recordings.length === 0 ? (
        <p className="text-sm text-slate-500">{viewer === 'teacher' ? t('list.emptyTeacher') : t('list.empty')}</p>
      ) : (
        <div className="space-y-4" data-testid="recording-list">
          {recordings.map((r) => (
            <RecordingCard
              key={r.id}
              recording={r}
              viewer={viewer}
              userId={userId}
              AnalysisView={AnalysisView}
              TakeActions={TakeActions}
              landing={landing?.take === r.id ? { atMs: landing.atMs, commentId: landing.commentId } : null}
            />
          ))}
        </div>
      )}
    </section>
  );
}
