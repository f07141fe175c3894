import '../i18n';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { AudioLines, Play } from 'lucide-react';
import type { ListeningReport } from '@contract/listening/schema';
import { formatMoment } from '@contract/recordings-limits';
import { Button } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatPercent } from '@web/lib/format';
import { useLanguage } from '@web/lib/i18n';
import { makamName, tempoText } from '@web/lib/music-names';
import { useRecordingAnalysis } from '../api/analysis';
import { sendTrackOfFile } from '../lib/send-track';
import { PitchChart, TempoChart } from './charts';
import { SummaryLines } from './summary';
import { DRIFT_MIN_MS } from '../lib/summary';

type Take = { id: number; path: string };

const num = (v: number, lang: string, digits = 1) => new Intl.NumberFormat(lang === 'tr' ? 'tr-TR' : 'de-DE', { maximumFractionDigits: digits }).format(v);
const signed = (v: number, lang: string) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${num(Math.abs(v), lang)}`;

/**
 * A take's analysis, or the work of getting one: a take without analysis is analysed in this
 * browser (the student's or the teacher's, not a parent's) from its file and sent, without anyone
 * doing anything (docs/decisions/listening.md, "Where it runs").
 */
function useAnalysisOf(take: Take, compute: boolean) {
  const qc = useQueryClient();
  const query = useRecordingAnalysis(take.id);
  const [failed, setFailed] = useState(false);
  const missing = query.data === null;
  useEffect(() => {
    if (!compute || !missing) return;
    let live = true;
    sendTrackOfFile(qc, take.id, take.path).catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [compute, missing, qc, take.id, take.path]);
  return { query, failed };
}

/** The student's own take on the task screen: the two summary lines (analysing it first when nobody has). */
export function StudentTakeAnalysis({ take }: { take: Take }) {
  const { t } = useTranslation('listening');
  const { query, failed } = useAnalysisOf(take, true);
  if (query.isError) return null;
  return (
    <section aria-label={t('take.title')} className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2" data-testid="take-analysis">
      <AudioLines aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
      <div className="min-w-0" aria-live="polite">
        {query.data ? (
          <SummaryLines report={query.data.report} voice="student" />
        ) : (
          <p className="text-sm text-slate-600">{failed ? t('take.failed') : t('take.analysing')}</p>
        )}
      </div>
    </section>
  );
}

/** The parents' line beside the take: what was heard, or that it is not analysed yet (a parent's browser does not analyse). */
export function ParentTakeLine({ take }: { take: Take }) {
  const { t } = useTranslation('listening');
  const query = useRecordingAnalysis(take.id);
  if (query.isPending) return <Skeleton className="h-5 w-2/3" />;
  if (query.isError) return null;
  return (
    <section aria-label={t('line.label')} className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2" data-testid="parent-analysis">
      <AudioLines aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
      {query.data ? <SummaryLines report={query.data.report} voice="neutral" /> : <p className="text-sm text-slate-600">{t('line.pending')}</p>}
    </section>
  );
}

/**
 * The teacher's report beside the waveform: the summary, the pitch classes on the koma grid with the
 * AEU lines, the table per perde (or per note of 12-TET), the tempo curve; a perde row or a tempo
 * stretch plays those moments (each click the next one).
 */
export function TeacherAnalysis({ take, onPlay }: { take: Take; onPlay: (ms: number) => void }) {
  const { t } = useTranslation('listening');
  const { query, failed } = useAnalysisOf(take, true);
  return (
    <section aria-labelledby={`analysis-${take.id}`} className="space-y-3 rounded-lg border border-slate-200 p-3 sm:p-4" data-testid="teacher-analysis">
      <h4 id={`analysis-${take.id}`} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <AudioLines aria-hidden="true" className="size-4 text-brand-600" />
        {t('report.title')}
      </h4>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.isError ? (
        <div className="flex flex-wrap items-center gap-2">
          <p role="alert" className="text-sm text-red-700">
            {t('report.loadError')}
          </p>
          <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
            {t('report.retry')}
          </Button>
        </div>
      ) : !query.data ? (
        <p className="text-sm text-slate-600" aria-live="polite" data-testid="analysis-missing">
          {failed ? t('report.failed') : t('report.missing')}
        </p>
      ) : (
        <ReportView report={query.data.report} onPlay={onPlay} />
      )}
    </section>
  );
}

function ReportView({ report, onPlay }: { report: ListeningReport; onPlay: (ms: number) => void }) {
  const { t } = useTranslation('listening');
  const lang = useLanguage();
  const m = report.makam;
  const w = report.western;
  return (
    <div className="space-y-4">
      <SummaryLines report={report} voice="neutral" />
      {m && (
        <p className="text-sm text-slate-600" data-testid="analysis-makam">
          {t('report.makamLine', { makam: makamName(m.makam), durak: m.durak, hz: num(m.tonic_hz, lang) })}
          {m.other_makam && <> · {t('report.otherMakam', { best: makamName(m.best_makam) })}</>}
        </p>
      )}
      {w && <p className="text-sm text-slate-600">{t('report.twelveTet', { a4: num(w.a4_hz, lang) })}</p>}
      {m && <PitchChart degrees={m.degrees} />}
      {(m || w) && <DegreeTable report={report} onPlay={onPlay} />}
      <div className="space-y-2">
        <h5 className="text-sm font-semibold text-slate-900">{t('report.tempo.title')}</h5>
        {report.tempo ? (
          <>
            <p className="flex flex-wrap gap-x-3 text-sm text-slate-700 tabular-nums">
              <span>{t('report.tempo.mean', { tempo: tempoText(Math.round(report.tempo.mean_bpm), report.tempo.unit) })}</span>
              {report.tempo.target_bpm !== null && <span>{t('report.tempo.target', { tempo: tempoText(report.tempo.target_bpm, report.tempo.unit) })}</span>}
              {/* a slope over a few seconds says little: the drift from half a minute on (as the summary) */}
              {report.duration_ms >= DRIFT_MIN_MS && <span>{t('report.tempo.drift', { value: signed(report.tempo.drift_bpm_per_min, lang) })}</span>}
              <span>{t('report.tempo.spread', { value: num(report.tempo.ioi_spread_ms, lang, 0) })}</span>
            </p>
            <TempoChart tempo={report.tempo} durationMs={report.duration_ms} onPlay={onPlay} />
          </>
        ) : (
          <p className="text-sm text-slate-600">{t('report.tempo.none')}</p>
        )}
      </div>
    </div>
  );
}

type Row = {
  name: string;
  aeu: string | null;
  played: string | null;
  deviation: number | null;
  spread: number | null;
  share: number;
  practice: number | null;
  moments: Array<{ start_ms: number }>;
};

function DegreeTable({ report, onPlay }: { report: ListeningReport; onPlay: (ms: number) => void }) {
  const { t } = useTranslation('listening');
  const lang = useLanguage();
  const [next, setNext] = useState<Record<string, number>>({});
  const makam = report.makam;
  const rows: Row[] = makam
    ? makam.degrees.map((d) => ({
        name: d.perde,
        aeu: num(d.aeu_koma, lang),
        played: d.played_koma === null ? null : num(d.played_koma, lang),
        deviation: d.deviation_cents,
        spread: d.spread_cents,
        share: d.share,
        practice: d.practice_note?.cents ?? null,
        moments: d.moments,
      }))
    : (report.western?.notes ?? [])
        .filter((n) => n.share > 0 || n.in_key)
        .map((n) => ({ name: n.note, aeu: null, played: null, deviation: n.deviation_cents, spread: n.spread_cents, share: n.share, practice: null, moments: n.moments }));
  const play = (r: Row) => {
    if (!r.moments.length) return;
    const i = (next[r.name] ?? 0) % r.moments.length;
    setNext((n) => ({ ...n, [r.name]: (i + 1) % r.moments.length }));
    onPlay(r.moments[i]!.start_ms);
  };
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm tabular-nums" data-testid="perde-table">
        <caption className="sr-only">{t('report.table.caption')}</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">
              {makam ? t('report.table.perde') : t('report.table.note')}
            </th>
            {makam && (
              <th scope="col" className="py-1 pr-2 font-medium">
                {t('report.table.aeu')}
              </th>
            )}
            {makam && (
              <th scope="col" className="py-1 pr-2 font-medium">
                {t('report.table.played')}
              </th>
            )}
            <th scope="col" className="py-1 pr-2 font-medium">
              {t('report.table.deviation')}
            </th>
            {/* spread and share step aside on a phone: the table fits 390 px (the chart shows the share) */}
            <th scope="col" className="hidden py-1 pr-2 font-medium sm:table-cell">
              {t('report.table.spread')}
            </th>
            <th scope="col" className="hidden py-1 font-medium sm:table-cell">
              {t('report.table.share')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.name} data-testid="perde-row">
              <th scope="row" className="py-1 pr-2 font-medium text-slate-900">
                {r.moments.length ? (
                  <button
                    type="button"
                    className="inline-flex min-h-9 items-center gap-1 rounded-md px-1 text-left text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                    onClick={() => play(r)}
                    aria-label={t('report.table.play', { perde: r.name, time: formatMoment(r.moments[(next[r.name] ?? 0) % r.moments.length]?.start_ms ?? 0) })}
                  >
                    <Play aria-hidden="true" className="size-3.5 shrink-0" />
                    {r.name}
                  </button>
                ) : (
                  <span className="px-1">{r.name}</span>
                )}
              </th>
              {makam && <td className="py-1 pr-2 whitespace-nowrap text-slate-600">{r.aeu}</td>}
              {makam && <td className="py-1 pr-2 whitespace-nowrap">{r.played ?? <span className="text-slate-500">{t('report.table.notPlayed')}</span>}</td>}
              <td className="py-1 pr-2">
                {r.deviation === null ? (
                  '–'
                ) : (
                  <span className={Math.abs(r.deviation) >= 8 ? 'font-semibold text-amber-800' : 'text-slate-800'}>{signed(r.deviation, lang)}</span>
                )}
                {r.practice !== null && <span className="block text-xs text-slate-500">{t('report.table.practice', { cents: signed(r.practice, lang) })}</span>}
              </td>
              <td className="hidden py-1 pr-2 whitespace-nowrap sm:table-cell">{r.spread === null ? '–' : num(r.spread, lang, 0)}</td>
              <td className="hidden py-1 whitespace-nowrap sm:table-cell">{formatPercent(Math.round(r.share * 100), lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
