import '../i18n';
import { useTranslation } from 'react-i18next';
import type { ListeningReport } from '@contract/listening/schema';
import { useLanguage } from '@web/lib/i18n';
import { makamName, tempoText } from '@web/lib/music-names';
import { pitchSummary, tempoSummary } from '../lib/summary';

/**
 * The take's intonation and tempo in a sentence each (docs/decisions/listening.md, "Where people
 * see it"): `student` speaks to the student ("Dein Segâh war …"), `neutral` describes the take
 * (the parents' line, the teacher's report head).
 */
export function useSummaryTexts(report: ListeningReport, voice: 'student' | 'neutral'): { pitch: string; tempo: string | null } {
  const { t } = useTranslation('listening');
  const lang = useLanguage();
  const p = voice === 'student' ? 'take' : 'line';
  const s = pitchSummary(report);
  const pitch =
    s.kind === 'perde'
      ? t(s.cents > 0 ? `${p}.perdeHigh` : `${p}.perdeLow`, { perde: s.perde, cents: Math.abs(s.cents) })
      : s.kind === 'close'
        ? t(`${p}.close`, { cents: s.cents })
        : s.kind === 'otherMakam'
          ? t(`${p}.otherMakam`, { makam: makamName(s.makam), best: makamName(s.best) })
          : t(`${p}.none`);
  const ts = tempoSummary(report);
  let tempo: string | null = null;
  if (ts) {
    const head = ts.target
      ? t(`${p}.tempoTarget`, { tempo: tempoText(ts.mean, ts.unit), target: tempoText(ts.target, ts.unit) })
      : t(`${p}.tempo`, { tempo: tempoText(ts.mean, ts.unit) });
    const tail = t(`${p}.${ts.drift}`, { bpm: new Intl.NumberFormat(lang === 'tr' ? 'tr-TR' : 'de-DE', { maximumFractionDigits: 1 }).format(ts.driftBpm) });
    tempo = voice === 'student' ? `${head}${tail}` : `${head} · ${tail}`;
  }
  return { pitch, tempo };
}

export function SummaryLines({ report, voice }: { report: ListeningReport; voice: 'student' | 'neutral' }) {
  const { pitch, tempo } = useSummaryTexts(report, voice);
  return (
    <div className="space-y-0.5 text-sm text-slate-800" data-testid="listening-summary">
      <p data-testid="listening-pitch">{pitch}</p>
      {tempo && (
        <p className="text-slate-600 tabular-nums" data-testid="listening-tempo">
          {tempo}
        </p>
      )}
    </div>
  );
}
