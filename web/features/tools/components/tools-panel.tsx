import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AudioWaveform, Gauge, Music2 } from 'lucide-react';
import { MAKAM_KEYS, USUL_KEYS, type MakamKey, type Stroke, type TempoUnit, type UsulKey } from '@contract/music-keys';
import { Card } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { A4_RANGE, MAKAMS, perdeKoma } from '../lib/koma';
import { TempoText } from '@web/components/settings-summary';
import { USULS, barFor, parseMeter, tempoUnitFor } from '../lib/usul';
import { clampTempo } from '../lib/scheduler';
import type { TuningSettings } from './tuner';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// Each tool its own chunk: the page paints its frame first, and /login never loads them.
const Metronome = lazyPart(() => import('./metronome'));
const Tuner = lazyPart(() => import('./tuner'));
const Drone = lazyPart(() => import('./drone'));

/** The settings an exercise may carry (all optional). */
export type ToolsSettings = {
  tempo_bpm?: number | null;
  /** The note value the tempo counts; null = the usul's or meter's written unit. */
  tempo_unit?: TempoUnit | string | null;
  meter?: string | null;
  usul?: UsulKey | string | null;
  makam?: MakamKey | string | null;
  durak?: string | null;
  pattern?: readonly Stroke[] | null;
};

export type ToolsPanelProps = {
  initial?: ToolsSettings;
  /** Called when a teacher edits the usul pattern (the exercise form saves it). */
  onPatternChange?: (pattern: Stroke[], usul: UsulKey) => void;
  /** Called when the tempo changes (e.g. to keep the tempo reached with a practice session). */
  onTempoChange?: (bpm: number) => void;
  className?: string;
};

const isUsul = (v: unknown): v is UsulKey => typeof v === 'string' && (USUL_KEYS as readonly string[]).includes(v);
const isMakam = (v: unknown): v is MakamKey => typeof v === 'string' && (MAKAM_KEYS as readonly string[]).includes(v);

/** "Hicaz · Düyek": the names among the exercise's settings (the tempo follows in its unit). */
export function settingsNames(s: ToolsSettings | undefined): string {
  if (!s) return '';
  const parts: string[] = [];
  if (isMakam(s.makam)) parts.push(s.durak && s.durak !== MAKAMS[s.makam].durak ? `${MAKAMS[s.makam].name} (${s.durak})` : MAKAMS[s.makam].name);
  if (isUsul(s.usul)) parts.push(USULS[s.usul].name);
  else if (s.meter) parts.push(parseMeter(s.meter)?.label ?? s.meter);
  return parts.join(' · ');
}

function Section({ title, icon, children, testId }: { title: string; icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Card className="min-w-0" data-testid={testId}>
      <section aria-labelledby={`${testId}-title`}>
        <h2 id={`${testId}-title`} className="flex items-center gap-2 border-b border-slate-100 px-4 py-3 text-lg font-semibold text-slate-900 sm:px-5">
          {icon}
          {title}
        </h2>
        <div className="px-4 py-4 sm:px-5">
          {children}
        </div>
      </section>
    </Card>
  );
}

/**
 * The practice tools together: metronome, tuner and drone, set to an exercise's settings when
 * given. The tuner and the drone share the reference (A4), the ahenk and the makam.
 */
export function ToolsPanel({ initial, onPatternChange, onTempoChange, className }: ToolsPanelProps) {
  const { t } = useTranslation('tools');
  const [tuning, setTuning] = useState<TuningSettings>(() => ({
    a4: A4_RANGE.default,
    ahenk: 'bolahenk',
    makam: isMakam(initial?.makam) ? initial.makam : 'rast',
    durak: initial?.durak && perdeKoma(initial.durak) !== null ? initial.durak : null,
  }));
  const names = settingsNames(initial);
  const tempoUnit = tempoUnitFor(barFor(initial?.usul, initial?.meter), initial?.tempo_unit);
  const durak = tuning.durak ?? MAKAMS[tuning.makam].durak;

  // Laid out by its own width, not the window's: the same panel fills /tools and the practice
  // screen's 32rem sheet (docs/decisions/practice-screen.md).
  return (
    <div className={className ? `@container ${className}` : '@container'}>
      {(names || initial?.tempo_bpm) && (
        <p className="mb-4 text-lg font-semibold text-slate-900" data-testid="tools-summary">
          {names}
          {names && initial?.tempo_bpm ? ' · ' : null}
          {initial?.tempo_bpm ? <TempoText bpm={clampTempo(initial.tempo_bpm)} unit={tempoUnit} /> : null}
        </p>
      )}
      {/* One boundary for the three lazy tools: they appear together in place of one skeleton, so
          nothing that was already on screen moves when a tool's chunk arrives (CLS). */}
      <LazySection fallback={<Skeleton className="h-[40rem] w-full" />}>
      <div className="grid gap-4 @4xl:grid-cols-2 @4xl:items-start">
        <Section title={t('metronome.title')} icon={<Gauge aria-hidden="true" className="size-5 text-brand-600" />} testId="tool-metronome">
          <Metronome
            initialTempo={initial?.tempo_bpm}
            initialTempoUnit={tempoUnit}
            initialMeter={initial?.meter}
            initialUsul={isUsul(initial?.usul) ? initial.usul : null}
            initialPattern={initial?.pattern}
            onPatternChange={onPatternChange}
            onTempoChange={onTempoChange}
          />
        </Section>
        <div className="grid content-start gap-4">
          <Section title={t('tuner.title')} icon={<AudioWaveform aria-hidden="true" className="size-5 text-brand-600" />} testId="tool-tuner">
            <Tuner settings={tuning} onSettingsChange={setTuning} initialMode={isMakam(initial?.makam) ? 'makam' : 'tet'} />
          </Section>
          <Section title={t('drone.title')} icon={<Music2 aria-hidden="true" className="size-5 text-brand-600" />} testId="tool-drone">
            <Drone settings={tuning} initialNote={durak} />
          </Section>
        </div>
      </div>
      </LazySection>
    </div>
  );
}

export default ToolsPanel;
