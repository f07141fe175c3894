import '../i18n';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AudioLines } from 'lucide-react';
import type { AnalyzeOptions } from '@contract/listening/analyze';
import type { ListeningReport } from '@contract/listening/schema';
import { analyzeBlob } from '../lib/analyze-audio';
import { SummaryLines } from './summary';

type State = { blob: Blob; report: ListeningReport; ms: number; decodedHere: boolean } | { blob: Blob; failed: true } | null;

/**
 * The student's take right after recording, before and while sending (docs/decisions/listening.md):
 * analysed in the Worker on this device with the exercise's settings; the same analysis's track is
 * sent once the take has reached the server (web/app/listening-wiring.ts).
 */
export function TakeSummary({ blob, options }: { blob: Blob; options: AnalyzeOptions }) {
  const { t } = useTranslation('listening');
  const [state, setState] = useState<State>(null);
  const key = JSON.stringify(options);
  useEffect(() => {
    let live = true;
    analyzeBlob(blob, JSON.parse(key) as AnalyzeOptions).then(
      (r) => live && setState({ blob, report: r.report, ms: r.ms, decodedHere: r.decodedHere }),
      () => live && setState({ blob, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [blob, key]);
  const mine = state && state.blob === blob ? state : null;
  return (
    <section
      aria-label={t('take.title')}
      className="flex gap-2 rounded-lg bg-white px-3 py-2 ring-1 ring-slate-200"
      data-testid="take-summary"
      // How long the Worker took and whether it decoded the take itself (the browser tests read them)
      data-analysis-ms={mine && 'ms' in mine ? mine.ms : undefined}
      data-decoded-in={mine && 'ms' in mine ? (mine.decodedHere ? 'worker' : 'page') : undefined}
    >
      <AudioLines aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
      <div className="min-w-0" aria-live="polite">
        {!mine ? (
          <p className="text-sm text-slate-600">{t('take.analysing')}</p>
        ) : 'failed' in mine ? (
          <p className="text-sm text-slate-600">{t('take.failed')}</p>
        ) : (
          <SummaryLines report={mine.report} voice="student" />
        )}
      </div>
    </section>
  );
}
