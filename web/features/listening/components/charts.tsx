import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { KOMA_PER_OCTAVE } from '@contract/makam';
import type { ListeningReport } from '@contract/listening/schema';
import { formatMoment } from '@contract/recordings-limits';

type Degree = NonNullable<ListeningReport['makam']>['degrees'][number];
type Tempo = NonNullable<ListeningReport['tempo']>;

const W = 540;

/**
 * The pitch classes on the koma grid (docs/decisions/listening.md): the octave from the tonic in 53
 * koma, the makam's perdes where AEU puts them (grey lines), where each was played (a dot, its size
 * the share of the time; a bar the spread). A small SVG: readable at 390 px, no chart library.
 */
export function PitchChart({ degrees }: { degrees: Degree[] }) {
  const { t } = useTranslation('listening');
  const x = (koma: number) => 20 + (koma / KOMA_PER_OCTAVE) * (W - 40);
  const centsPerKoma = 1200 / KOMA_PER_OCTAVE;
  const id = useId();
  return (
    <figure className="space-y-1" data-testid="pitch-chart">
      <svg viewBox={`0 0 ${W} 118`} className="h-auto w-full" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <title id={`${id}-title`}>{t('report.chartTitle')}</title>
        <desc id={`${id}-desc`}>{t('report.chartDesc')}</desc>
        <line x1={x(0)} x2={x(KOMA_PER_OCTAVE)} y1={78} y2={78} className="stroke-slate-300" strokeWidth={1} />
        {Array.from({ length: KOMA_PER_OCTAVE + 1 }, (_, k) => (
          <line key={k} x1={x(k)} x2={x(k)} y1={78} y2={k % 9 === 0 ? 84 : 81} className="stroke-slate-300" strokeWidth={1} />
        ))}
        {[0, 9, 18, 27, 36, 45, 53].map((k) => (
          <text key={k} x={x(k)} y={98} textAnchor="middle" className="fill-slate-500 text-[11px]">
            {k}
          </text>
        ))}
        {degrees.map((d, i) => (
          <g key={`${d.perde}-${d.aeu_koma}`}>
            <line x1={x(d.aeu_koma)} x2={x(d.aeu_koma)} y1={22} y2={78} className="stroke-slate-400" strokeDasharray={d.role === 'extra' ? '3 3' : undefined} strokeWidth={d.role === 'durak' ? 2 : 1} />
            <text x={x(d.aeu_koma)} y={i % 2 ? 20 : 10} textAnchor="middle" className="fill-slate-600 text-[10px]">
              {d.perde}
            </text>
            {d.played_koma !== null && (
              <>
                {d.spread_cents !== null && (
                  <line
                    x1={x(d.played_koma - d.spread_cents / 2 / centsPerKoma)}
                    x2={x(d.played_koma + d.spread_cents / 2 / centsPerKoma)}
                    y1={52}
                    y2={52}
                    className="stroke-brand-400"
                    strokeWidth={3}
                    strokeLinecap="round"
                  />
                )}
                <circle cx={x(d.played_koma)} cy={52} r={3 + Math.sqrt(d.share) * 12} className={Math.abs(d.deviation_cents ?? 0) >= 8 ? 'fill-amber-500/80' : 'fill-brand-600/80'} />
              </>
            )}
          </g>
        ))}
        <text x={W - 20} y={114} textAnchor="end" className="fill-slate-500 text-[10px]">
          {t('report.koma', { value: '' }).trim()}
        </text>
      </svg>
    </figure>
  );
}

/** The tempo over time (a point a second), the target dashed; the stretches that ran away are buttons that play them. */
export function TempoChart({ tempo, durationMs, onPlay }: { tempo: Tempo; durationMs: number; onPlay: (ms: number) => void }) {
  const { t } = useTranslation('listening');
  const pts = tempo.curve;
  const bpms = [...pts.map((p) => p.bpm), tempo.target_bpm ?? tempo.mean_bpm, tempo.mean_bpm];
  const lo = Math.floor(Math.min(...bpms) * 0.95);
  const hi = Math.ceil(Math.max(...bpms) * 1.05);
  const H = 110;
  const end = Math.max(durationMs, pts[pts.length - 1]?.t_ms ?? 1, 1);
  const x = (ms: number) => 36 + (ms / end) * (W - 46);
  const y = (bpm: number) => 8 + (1 - (bpm - lo) / Math.max(1, hi - lo)) * (H - 24);
  const target = tempo.target_bpm;
  return (
    <figure className="space-y-2" data-testid="tempo-chart">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={t('report.tempo.chartDesc')}>
        {tempo.moments.map((m) => (
          <rect key={m.start_ms} x={x(m.start_ms)} width={Math.max(2, x(m.end_ms) - x(m.start_ms))} y={8} height={H - 24} className={m.direction === 'faster' ? 'fill-amber-100' : 'fill-sky-100'} />
        ))}
        <text x={30} y={y(hi) + 4} textAnchor="end" className="fill-slate-500 text-[10px]">
          {hi}
        </text>
        <text x={30} y={y(lo) + 4} textAnchor="end" className="fill-slate-500 text-[10px]">
          {lo}
        </text>
        {target !== null && <line x1={x(0)} x2={x(end)} y1={y(target)} y2={y(target)} className="stroke-slate-500" strokeDasharray="4 4" />}
        {pts.length > 1 && <polyline fill="none" className="stroke-brand-600" strokeWidth={2} points={pts.map((p) => `${x(p.t_ms).toFixed(1)},${y(p.bpm).toFixed(1)}`).join(' ')} />}
        <text x={x(0)} y={H - 2} className="fill-slate-500 text-[10px]">
          0:00
        </text>
        <text x={x(end)} y={H - 2} textAnchor="end" className="fill-slate-500 text-[10px]">
          {formatMoment(end)}
        </text>
      </svg>
      {tempo.moments.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {tempo.moments.map((m) => (
            <li key={m.start_ms}>
              <button
                type="button"
                className="min-h-9 rounded-md px-2 text-sm text-brand-800 ring-1 ring-brand-200 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                onClick={() => onPlay(m.start_ms)}
                data-testid="tempo-moment"
              >
                {t('report.tempo.moment', { time: formatMoment(m.start_ms), direction: t(`report.tempo.${m.direction}`), bpm: Math.round(m.bpm) })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
