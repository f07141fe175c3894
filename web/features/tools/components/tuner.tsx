import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Mic, Square } from 'lucide-react';
import { PitchDetector } from 'pitchy';
import { MAKAM_KEYS, type MakamKey } from '@contract/music-keys';
import { Button } from '@web/components/ui/button';
import { Select } from '@web/components/ui/fields';
import { cn } from '@web/components/ui/cn';
import { holdAudio } from '@web/lib/audio';
import { MUSIC_AUDIO_CONSTRAINTS, permissionProblem, type PermissionProblem } from '@web/lib/microphone';
import { A4_RANGE, AHENKS, MAKAMS, clampA4, makamReading, scaleDegrees, tetNote, type AhenkKey } from '../lib/koma';
import { PitchSmoother } from '../lib/pitch-smoother';

export type TunerMode = 'tet' | 'makam';

export type TuningSettings = { a4: number; ahenk: AhenkKey; makam: MakamKey; durak: string | null };

export type TunerProps = {
  settings: TuningSettings;
  onSettingsChange: (s: TuningSettings) => void;
  initialMode?: TunerMode;
};

/** Analysis window and rate: 4096 samples (~85 ms at 48 kHz) about 20 times a second. */
const WINDOW = 4096;
const ANALYSIS_MS = 50;

const signed = (v: number, digits = 0) => {
  const r = Number(v.toFixed(digits));
  return `${r > 0 ? '+' : r < 0 ? '−' : '±'}${Math.abs(r).toLocaleString('de-DE', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
};

/**
 * The tuner: the microphone's pitch (pitchy, McLeod pitch method) as the nearest 12-TET note with
 * cents (A4 adjustable), or — in makam mode — as the nearest perde with its distance in koma and
 * the fine deviation in cents, the chosen makam's scale drawn with the played step lit.
 */
export function Tuner({ settings, onSettingsChange, initialMode = 'tet' }: TunerProps) {
  const { t } = useTranslation('tools');
  const [mode, setMode] = useState<TunerMode>(initialMode);
  const [phase, setPhase] = useState<'idle' | 'starting' | 'listening'>('idle');
  const [problem, setProblem] = useState<PermissionProblem | null>(null);
  const [reading, setReading] = useState<{ hz: number; stale: boolean } | null>(null);
  const stopRef = useRef<(() => void) | null>(null);

  useEffect(() => () => stopRef.current?.(), []);

  const start = async () => {
    setProblem(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setProblem('unsupported');
      return;
    }
    setPhase('starting');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: MUSIC_AUDIO_CONSTRAINTS });
    } catch (err) {
      setProblem(permissionProblem(err));
      setPhase('idle');
      return;
    }
    const { ctx, release } = await holdAudio();
    const source = ctx.createMediaStreamSource(stream);
    const analyser = ctx.createAnalyser();
    analyser.fftSize = WINDOW;
    source.connect(analyser);
    const detector = PitchDetector.forFloat32Array(WINDOW);
    const buf = new Float32Array(WINDOW);
    const smoother = new PitchSmoother();
    let frame = 0;
    let lastAt = 0;
    const loop = (now: number) => {
      frame = requestAnimationFrame(loop);
      if (now - lastAt < ANALYSIS_MS) return;
      lastAt = now;
      analyser.getFloatTimeDomainData(buf);
      let sum = 0;
      for (const v of buf) sum += v * v;
      const rms = Math.sqrt(sum / buf.length);
      const [hz, clarity] = detector.findPitch(buf, ctx.sampleRate);
      const shown = smoother.push(now, hz, clarity, rms);
      setReading((prev) => (prev?.hz === shown?.hz && prev?.stale === shown?.stale ? prev : shown));
    };
    frame = requestAnimationFrame(loop);
    stopRef.current = () => {
      cancelAnimationFrame(frame);
      source.disconnect();
      stream.getTracks().forEach((tr) => tr.stop());
      release();
      stopRef.current = null;
    };
    setPhase('listening');
  };

  const stop = () => {
    stopRef.current?.();
    setPhase('idle');
    setReading(null);
  };

  const set = (patch: Partial<TuningSettings>) => onSettingsChange({ ...settings, ...patch });

  const tet = reading ? tetNote(reading.hz, settings.a4) : null;
  const mk = reading ? makamReading(reading.hz, settings.a4, settings.ahenk) : null;
  const degrees = scaleDegrees(settings.makam, settings.durak);
  // Needle: cents from the note (±50) or from the grid step (±½ koma ≈ ±11 cents, drawn ±25).
  const needle = tet && mode === 'tet' ? tet.cents / 50 : mk ? mk.deviationCents / CENTS_HALF_KOMA : 0;
  const inTune = mode === 'tet' ? tet !== null && Math.abs(tet.cents) <= 5 : mk !== null && Math.abs(mk.deviationKoma) <= 0.1;

  return (
    <div className="space-y-5" data-testid="tuner">
      <div role="radiogroup" aria-label={t('tuner.mode')} className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1">
        {(['tet', 'makam'] as const).map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            onClick={() => setMode(m)}
            className={cn(
              'h-11 rounded-lg text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900',
              mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {t(`tuner.modes.${m}`)}
          </button>
        ))}
      </div>

      <div
        className={cn('rounded-2xl border-2 px-4 py-5 text-center', inTune && !reading?.stale ? 'border-emerald-500 bg-emerald-50' : 'border-slate-200 bg-white')}
        data-testid="tuner-display"
        data-stale={reading?.stale || undefined}
      >
        <p className={cn('text-6xl leading-none font-bold tracking-tight text-slate-900', reading?.stale && 'text-slate-500')} data-testid="tuner-note">
          {mode === 'tet' ? (tet?.label ?? '–') : (mk?.perde ?? '–')}
        </p>
        <p className="mt-3 text-2xl font-semibold tabular-nums text-slate-800" data-testid="tuner-deviation">
          {mode === 'tet' && tet && (
            <span data-testid="tuner-cents" data-cents={tet.cents.toFixed(2)}>
              {signed(tet.cents)} ct
            </span>
          )}
          {mode === 'makam' && mk && (
            <>
              <span data-testid="tuner-koma" data-koma={(mk.stepsFromPerde + mk.deviationKoma).toFixed(3)}>
                {signed(mk.stepsFromPerde)} koma
              </span>
              <span className="ml-3 text-lg text-slate-600" data-testid="tuner-cents" data-cents={mk.deviationCents.toFixed(2)}>
                {signed(mk.deviationCents)} ct
              </span>
            </>
          )}
          {!reading && <span className="text-base font-normal text-slate-600">{phase === 'listening' ? t('tuner.playTone') : t('tuner.idle')}</span>}
        </p>
        {mode === 'makam' && mk && (
          <p className="mt-1 text-sm text-slate-600">
            {t('tuner.step', { step: mk.step, name: mk.stepName ?? '–' })} · {reading?.hz.toFixed(1).replace('.', ',')} Hz
          </p>
        )}
        {mode === 'tet' && tet && <p className="mt-1 text-sm text-slate-600">{reading?.hz.toFixed(1).replace('.', ',')} Hz</p>}
        {/* The needle. */}
        <div className="relative mx-auto mt-4 h-8 max-w-sm" aria-hidden="true">
          <div className="absolute inset-x-0 top-1/2 h-1 -translate-y-1/2 rounded bg-slate-200" />
          <div className="absolute top-0 left-1/2 h-8 w-0.5 -translate-x-1/2 bg-slate-500" />
          <div
            className={cn('absolute top-0 h-8 w-1.5 -translate-x-1/2 rounded-full transition-[left] duration-100', inTune ? 'bg-emerald-600' : 'bg-amber-500', !reading && 'opacity-0')}
            style={{ left: `${50 + Math.max(-1, Math.min(1, needle)) * 50}%` }}
          />
        </div>
      </div>

      {mode === 'makam' && (
        <ol className="flex flex-wrap gap-1.5" aria-label={t('tuner.scale', { makam: MAKAMS[settings.makam].name })} data-testid="makam-scale">
          {degrees.map((d, i) => {
            const lit = mk !== null && !reading?.stale && (((mk.step - d.koma) % 53) + 53) % 53 === 0;
            return (
              <li
                key={i}
                data-lit={lit || undefined}
                className={cn(
                  'rounded-lg border px-2.5 py-1.5 text-sm font-medium',
                  lit ? 'border-brand-700 bg-brand-600 text-white' : 'border-slate-200 bg-white text-slate-700',
                  i === 0 && !lit && 'border-slate-400',
                )}
              >
                {d.name ?? d.koma}
              </li>
            );
          })}
        </ol>
      )}

      {problem && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {t(`mic.${problem}`)}
        </p>
      )}

      <Button
        size="lg"
        variant={phase === 'listening' ? 'secondary' : 'primary'}
        className="h-14 min-w-32 text-lg"
        loading={phase === 'starting'}
        icon={phase === 'listening' ? <Square aria-hidden="true" className="size-5" /> : <Mic aria-hidden="true" className="size-5" />}
        onClick={() => (phase === 'listening' ? stop() : void start())}
        data-testid="tuner-toggle"
      >
        {phase === 'listening' ? t('stop') : t('start')}
      </Button>

      <div className={cn('grid gap-4', mode === 'makam' ? '@md:grid-cols-3' : '@md:max-w-48')}>
        <label className="block">
          <span className="mb-1.5 block text-sm font-medium text-slate-700">{t('tuner.reference')}</span>
          <input
            type="number"
            min={A4_RANGE.min}
            max={A4_RANGE.max}
            step={0.5}
            value={settings.a4}
            onChange={(e) => {
              const v = Number(e.target.value);
              if (v >= A4_RANGE.min && v <= A4_RANGE.max) set({ a4: v });
            }}
            onBlur={(e) => set({ a4: clampA4(Number(e.target.value)) })}
            className="block h-11 w-full rounded-lg border-0 px-3 text-base tabular-nums ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
            data-testid="a4-input"
          />
        </label>
        {mode === 'makam' && (
          <>
            <Select label={t('tuner.makam')} value={settings.makam} onChange={(e) => set({ makam: e.target.value as MakamKey, durak: null })} data-testid="makam-select">
              {MAKAM_KEYS.map((k) => (
                <option key={k} value={k}>
                  {MAKAMS[k].name}
                </option>
              ))}
            </Select>
            <Select label={t('tuner.ahenk')} value={settings.ahenk} onChange={(e) => set({ ahenk: e.target.value as AhenkKey })} data-testid="ahenk-select">
              {AHENKS.map((a) => (
                <option key={a.key} value={a.key}>
                  {a.name}
                </option>
              ))}
            </Select>
          </>
        )}
      </div>
    </div>
  );
}

const CENTS_HALF_KOMA = 1200 / 53 / 2;

export default Tuner;
