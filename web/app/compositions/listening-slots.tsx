import type { Recording, RecordingKind } from '@contract/recordings';
import type { AnalyzeOptions } from '@contract/listening/analyze';
import { effectiveTempoUnit } from '@contract/music-keys';
import type { Submission } from '@contract/submissions';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

/**
 * The listening analysis in the recordings' slots (docs/decisions/listening.md, "Where people see
 * it"; docs/decisions/feature-boundaries.md): its code, the Worker and its texts load with the first
 * take that shows it, not with the page.
 */
const TakeSummary = lazyPart(() => import('@web/features/listening/components/take-summary').then((m) => ({ default: m.TakeSummary })));
const StudentTakeAnalysis = lazyPart(() => import('@web/features/listening/components/analysis-panel').then((m) => ({ default: m.StudentTakeAnalysis })));
const TeacherAnalysis = lazyPart(() => import('@web/features/listening/components/analysis-panel').then((m) => ({ default: m.TeacherAnalysis })));
export const ParentTakeLine = lazyPart(() => import('@web/features/listening/components/analysis-panel').then((m) => ({ default: m.ParentTakeLine })));

/** The analysis options of a task's exercise: its makam and durak (else 12-TET), its tempo in its unit. */
export function analysisOptions(e: Submission['exercise'] | null | undefined): AnalyzeOptions {
  if (!e) return { tuning: '12tet' };
  return {
    makam: e.makam ?? null,
    durak: e.makam ? (e.durak ?? null) : null,
    tuning: e.makam ? 'makam' : '12tet',
    tempo: { bpm: e.tempo_bpm ?? null, unit: effectiveTempoUnit(e) },
  };
}

export const takeSummarySlot = (options: AnalyzeOptions) => (take: { blob: Blob; kind: RecordingKind }) => (
  <LazySection fallback={null}>
    <TakeSummary blob={take.blob} options={options} />
  </LazySection>
);

/** On each take of the task screen and the review: the teacher's report, the student's summary. */
export function TeacherAnalysisView({ recording, onPlay }: { recording: Recording; onPlay: (ms: number) => void }) {
  return (
    <LazySection fallback={null}>
      <TeacherAnalysis take={recording} onPlay={onPlay} />
    </LazySection>
  );
}

export function StudentAnalysisView({ recording }: { recording: Recording; onPlay: (ms: number) => void }) {
  return (
    <LazySection fallback={null}>
      <StudentTakeAnalysis take={recording} />
    </LazySection>
  );
}
