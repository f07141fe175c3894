import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { setPracticeTempo } from '@web/lib/practice-tempo';
import { useTranslation } from 'react-i18next';
import { Minus, Play, Plus, Square, Volume2 } from 'lucide-react';
import { TEMPO_RANGE, TEMPO_UNIT_WHOLES, USUL_KEYS, stepsPerUnit, type Stroke, type TempoUnit, type UsulKey } from '@contract/music-keys';
import { NoteValue } from '@web/components/ui/note-value';
import { Button } from '@web/components/ui/button';
import { Select } from '@web/components/ui/fields';
import { cn } from '@web/components/ui/cn';
import { METERS, USULS, groupStarts, meterPattern, nextStroke, parseMeter, tempoUnitFor, unitChoicesFor, type Meter } from '../lib/usul';
import { clampTempo, tempoFromTaps } from '../lib/scheduler';
import { MetronomeEngine, type StepKind } from '../lib/metronome-engine';
import { useWakeLock } from '@web/lib/wake-lock';

export type MetronomeProps = {
  initialTempo?: number | null;
  /** The note value the tempo counts ('eighth': ♪ = 80); absent = the rhythm's written unit. */
  initialTempoUnit?: TempoUnit | string | null;
  /** A western meter ('7/8', '7/8 (3+2+2)'); ignored when an usul is given. */
  initialMeter?: string | null;
  initialUsul?: UsulKey | null;
  /** The usul's stroke pattern as the exercise stores it (one stroke per step). */
  initialPattern?: readonly Stroke[] | null;
  /** Called when a teacher edits the usul pattern (to save it on an exercise). */
  onPatternChange?: (pattern: Stroke[], usul: UsulKey) => void;
  onTempoChange?: (bpm: number) => void;
  onRhythmChange?: (rhythm: { usul: UsulKey } | { meter: string }) => void;
};

type Rhythm = { kind: 'usul'; usul: UsulKey } | { kind: 'meter'; meter: Meter };

const barOfRhythm = (r: Rhythm) => (r.kind === 'usul' ? USULS[r.usul] : r.meter);

const rhythmValue = (r: Rhythm) => (r.kind === 'usul' ? `usul:${r.usul}` : `meter:${r.meter.key}`);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A'].includes(target.tagName) || target.getAttribute('role') === 'button';
}

/**
 * The metronome: 20–300 steps per minute, tap tempo, start/stop (also the space bar), volume, a
 * western meter with its grouping or an usul with düm/tek strokes. The cycle is a row of large
 * cells, the sounding one lit — driven by requestAnimationFrame reading the audio clock. In usul
 * mode each cell is a button that cycles düm → tek → rest (the pattern editor).
 */
export function Metronome({ initialTempo, initialTempoUnit, initialMeter, initialUsul, initialPattern, onPatternChange, onTempoChange, onRhythmChange }: MetronomeProps) {
  const { t } = useTranslation('tools');
  const [bpm, setBpm] = useState(() => clampTempo(initialTempo ?? 80));
  const [rhythm, setRhythm] = useState<Rhythm>(() => {
    if (initialUsul && USULS[initialUsul]) return { kind: 'usul', usul: initialUsul };
    return { kind: 'meter', meter: parseMeter(initialMeter) ?? (METERS[2] as Meter) };
  });
  // The tempo counts this note value; one step of the cycle is one written beat of the bar
  // (docs/decisions/exercise-settings.md): ♩. = 60 in 6/8 clicks eighths 1/3 s apart.
  const [unit, setUnit] = useState<TempoUnit>(() => tempoUnitFor(barOfRhythm(rhythm), initialTempoUnit));
  const bar = barOfRhythm(rhythm);
  const stepsPerBeat = stepsPerUnit(unit, bar.unit);
  const unitChoices = unitChoicesFor(bar, unit);
  const [strokes, setStrokes] = useState<Stroke[]>(() => {
    if (initialUsul && USULS[initialUsul]) {
      const preset = USULS[initialUsul].pattern;
      return initialPattern && initialPattern.length === preset.length ? [...initialPattern] : [...preset];
    }
    return [];
  });
  const [volume, setVolume] = useState(0.8);
  const [running, setRunning] = useState(false);
  // the screen stays on while it sounds (a phone on the music stand)
  useWakeLock(running);
  const [current, setCurrent] = useState<number | null>(null);
  const engineRef = useRef<MetronomeEngine | null>(null);
  const taps = useRef<number[]>([]);

  const pattern: StepKind[] = useMemo(() => (rhythm.kind === 'usul' ? strokes : meterPattern(rhythm.meter)), [rhythm, strokes]);
  const groups = rhythm.kind === 'usul' ? USULS[rhythm.usul].groups : rhythm.meter.groups;
  const starts = useMemo(() => new Set(groupStarts(groups)), [groups]);

  const engine = () => (engineRef.current ??= new MetronomeEngine());

  useEffect(() => {
    engineRef.current?.setPattern(pattern);
  }, [pattern]);
  useEffect(() => {
    engineRef.current?.setTempo(bpm, stepsPerBeat);
  }, [bpm, stepsPerBeat]);
  useEffect(() => {
    engineRef.current?.setVolume(volume);
  }, [volume]);
  useEffect(() => () => engineRef.current?.dispose(), []);

  // The lit cell follows the audio clock, read once per frame while running; none while stopped
  // (derived, not set in the effect: docs/decisions/compiler-ready-components.md).
  const litStep = running ? current : null;
  useEffect(() => {
    if (!running) return;
    let frame = 0;
    // the first frame always writes, so a new run never shows the last run's cell
    let last: number | null | undefined;
    const loop = () => {
      const step = engineRef.current?.currentStep() ?? null;
      if (step !== last) {
        last = step;
        setCurrent(step);
      }
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(frame);
  }, [running]);

  const toggle = useCallback(async () => {
    const e = engine();
    if (e.running) {
      e.stop();
      setRunning(false);
      setPracticeTempo(bpm, false); // the tempo a practice session stopped now keeps
      return;
    }
    e.setPattern(pattern);
    e.setTempo(bpm, stepsPerBeat);
    e.setVolume(volume);
    setRunning(true);
    setPracticeTempo(bpm, true);
    await e.start();
  }, [pattern, bpm, stepsPerBeat, volume]);

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      if (ev.code !== 'Space' && ev.key !== ' ') return;
      if (ev.repeat || isTyping(ev.target) || ev.defaultPrevented) return;
      ev.preventDefault();
      void toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  const changeTempo = (value: number) => {
    const v = clampTempo(value);
    setBpm(v);
    if (engine().running) setPracticeTempo(v, true);
    onTempoChange?.(v);
  };

  const tap = () => {
    const now = performance.now();
    taps.current = [...taps.current.filter((x) => now - x < 8000), now];
    const v = tempoFromTaps(taps.current);
    if (v !== null) changeTempo(v);
  };

  /** Another unit for the same pulse: ♪ = 180 in 6/8 becomes ♩. = 60 (the clicks keep their speed). */
  const chooseUnit = (next: TempoUnit) => {
    if (next === unit) return;
    setUnit(next);
    changeTempo(Math.round((bpm * TEMPO_UNIT_WHOLES[unit]) / TEMPO_UNIT_WHOLES[next]));
  };

  const chooseRhythm = (value: string) => {
    const [kind, key] = value.split(/:(.*)/s) as [string, string];
    let next: Rhythm;
    if (kind === 'usul' && (USUL_KEYS as readonly string[]).includes(key)) {
      const usul = key as UsulKey;
      next = { kind: 'usul', usul };
      setStrokes([...USULS[usul].pattern]);
      onRhythmChange?.({ usul });
    } else {
      const meter = METERS.find((m) => m.key === key) ?? (METERS[2] as Meter);
      next = { kind: 'meter', meter };
      onRhythmChange?.({ meter: meter.key });
    }
    setRhythm(next);
    // A new bar counts its written unit, unless the current unit suits it too (6/8 ♩. → 12/8 ♩.).
    const nextBar = barOfRhythm(next);
    const suits = unitChoicesFor(nextBar, tempoUnitFor(nextBar)).includes(unit);
    if (!suits) setUnit(tempoUnitFor(nextBar));
  };

  const editStroke = (i: number) => {
    if (rhythm.kind !== 'usul') return;
    const next = strokes.map((s, j) => (j === i ? nextStroke(s) : s));
    setStrokes(next);
    onPatternChange?.(next, rhythm.usul);
  };

  const resetPattern = () => {
    if (rhythm.kind !== 'usul') return;
    const preset = [...USULS[rhythm.usul].pattern];
    setStrokes(preset);
    onPatternChange?.(preset, rhythm.usul);
  };

  const unitName = (u: TempoUnit) => t(`common:noteValues.${u}`);
  // "Achtel = 80" / "sekizlik = 80": the note symbol's name for screen readers
  const tempoName = t('common:tempoIs', { unit: unitName(unit), bpm });
  const isUsul = rhythm.kind === 'usul';
  const edited = isUsul && strokes.join() !== USULS[rhythm.usul].pattern.join();

  return (
    <div className="space-y-5" data-testid="metronome" data-running={running || undefined}>
      {/* The cycle: large cells, visible from a metre away. */}
      <div>
        <ol
          className="grid grid-cols-[repeat(var(--cols),minmax(0,1fr))] gap-1.5 @md:grid-cols-[repeat(var(--cols-sm),minmax(0,1fr))]"
          // Phones: at most 6 cells a row (each ≥ 44 px at 390 px); wider screens: the whole cycle in one row.
          style={{ '--cols': Math.min(pattern.length, 6), '--cols-sm': Math.min(pattern.length, 10) } as CSSProperties}
          aria-label={t('metronome.cycle')}
          data-testid="beat-row"
        >
          {pattern.map((kind, i) => {
            const lit = litStep === i;
            const label = t(`metronome.stroke.${kind}`);
            const cell = cn(
              'flex h-16 w-full flex-col items-center justify-center rounded-xl border-2 text-base font-semibold transition-colors duration-75 @md:h-20',
              starts.has(i) ? 'border-slate-400' : 'border-slate-200',
              kind === 'rest' ? 'text-slate-500' : 'text-slate-800',
              lit && kind === 'rest' && 'border-slate-600 bg-slate-200 text-slate-700',
              lit && kind !== 'rest' && (kind === 'dum' || kind === 'accent' ? 'border-brand-700 bg-brand-600 text-white' : 'border-brand-500 bg-brand-100 text-brand-900'),
              !lit && 'bg-white',
            );
            return (
              <li key={i} data-lit={lit || undefined} data-kind={kind} data-testid="beat-cell">
                {isUsul ? (
                  <button
                    type="button"
                    onClick={() => editStroke(i)}
                    className={cn(cell, 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900')}
                    aria-label={t('metronome.editStep', { n: i + 1, stroke: label })}
                  >
                    <span aria-hidden="true" className="text-xs font-normal opacity-80">
                      {i + 1}
                    </span>
                    {/* The number and the stroke read as two words, as in the name (label in name:
                        docs/decisions/label-in-name-and-phone-width.md); between flex items it draws nothing. */}{' '}
                    <span aria-hidden="true">{label}</span>
                  </button>
                ) : (
                  <div className={cell} aria-label={t('metronome.step', { n: i + 1, stroke: label })} role="img">
                    <span aria-hidden="true" className="text-xs font-normal opacity-80">
                      {i + 1}
                    </span>
                    <span aria-hidden="true" className={cn('rounded-full', kind === 'accent' ? 'size-4 bg-current' : 'size-2.5 bg-current')} />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
        {isUsul && (
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
            <p>{t('metronome.editHint')}</p>
            {edited && (
              <Button variant="ghost" size="sm" onClick={resetPattern}>
                {t('metronome.resetPattern')}
              </Button>
            )}
          </div>
        )}
      </div>

      <div className="flex items-center justify-between gap-3">
        <Button
          size="lg"
          variant={running ? 'secondary' : 'primary'}
          className="h-14 min-w-32 text-lg"
          icon={running ? <Square aria-hidden="true" className="size-5" /> : <Play aria-hidden="true" className="size-5" />}
          onClick={() => void toggle()}
          aria-keyshortcuts="Space"
          data-testid="metronome-toggle"
        >
          {running ? t('stop') : t('start')}
        </Button>
        <p className="text-right text-3xl font-semibold tabular-nums text-slate-900" aria-live="off" data-testid="tempo-display" data-unit={unit}>
          <span role="img" aria-label={tempoName}>
            <NoteValue unit={unit} /> = <span data-testid="tempo-value">{bpm}</span>
          </span>
        </p>
      </div>

      <div className="space-y-2">
        <div className="flex items-center gap-2">
          <Button variant="secondary" className="size-11 shrink-0 px-0 sm:size-11" onClick={() => changeTempo(bpm - 1)} aria-label={t('metronome.slower')}>
            <Minus aria-hidden="true" className="size-5" />
          </Button>
          <input
            type="range"
            min={TEMPO_RANGE.min}
            max={TEMPO_RANGE.max}
            value={bpm}
            onChange={(e) => changeTempo(Number(e.target.value))}
            aria-label={t('metronome.tempo')}
            aria-valuetext={tempoName}
            className="h-11 min-w-0 flex-1 accent-brand-600"
          />
          <Button variant="secondary" className="size-11 shrink-0 px-0 sm:size-11" onClick={() => changeTempo(bpm + 1)} aria-label={t('metronome.faster')}>
            <Plus aria-hidden="true" className="size-5" />
          </Button>
        </div>
        <div className="flex items-end gap-2">
          <label className="block min-w-0 flex-1">
            <span className="mb-1.5 block text-sm font-medium text-slate-700">{t('metronome.tempo')}</span>
            <input
              type="number"
              inputMode="numeric"
              min={TEMPO_RANGE.min}
              max={TEMPO_RANGE.max}
              value={bpm}
              onChange={(e) => {
                const v = Number(e.target.value);
                if (Number.isFinite(v) && v >= TEMPO_RANGE.min && v <= TEMPO_RANGE.max) changeTempo(v);
              }}
              onBlur={(e) => changeTempo(Number(e.target.value))}
              className="block h-11 w-full rounded-lg border-0 px-3 text-base tabular-nums ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
              data-testid="tempo-input"
            />
          </label>
          <Button variant="secondary" className="h-11 sm:h-11" onClick={tap}>
            {t('metronome.tap')}
          </Button>
        </div>
        {unitChoices.length > 1 && (
          <fieldset data-testid="tempo-unit">
            <legend className="mb-1.5 text-sm font-medium text-slate-700">{t('metronome.unit')}</legend>
            <div className="flex flex-wrap gap-2">
              {unitChoices.map((u) => (
                <label
                  key={u}
                  className="flex h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-base ring-1 ring-slate-300 ring-inset has-[:checked]:bg-brand-50 has-[:checked]:font-semibold has-[:checked]:text-brand-900 has-[:checked]:ring-2 has-[:checked]:ring-brand-600 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-slate-900"
                >
                  <input type="radio" name="metronome-unit" value={u} checked={unit === u} onChange={() => chooseUnit(u)} className="sr-only" />
                  <NoteValue unit={u} className="text-xl" />
                  <span>{unitName(u)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
      </div>

      <div className="grid gap-4 @md:grid-cols-2">
        <Select label={t('metronome.rhythm')} value={rhythmValue(rhythm)} onChange={(e) => chooseRhythm(e.target.value)} data-testid="rhythm-select">
          <optgroup label={t('metronome.usul')}>
            {USUL_KEYS.map((k) => (
              <option key={k} value={`usul:${k}`}>
                {USULS[k].name} ({USULS[k].beats}/{USULS[k].beats > 4 ? 8 : 4})
              </option>
            ))}
          </optgroup>
          <optgroup label={t('metronome.meter')}>
            {METERS.map((m) => (
              <option key={m.key} value={`meter:${m.key}`}>
                {m.label}
              </option>
            ))}
            {rhythm.kind === 'meter' && !METERS.some((m) => m.key === rhythm.meter.key) && (
              <option value={`meter:${rhythm.meter.key}`}>{rhythm.meter.label}</option>
            )}
          </optgroup>
        </Select>
        <label className="block">
          <span className="mb-1.5 flex items-center gap-1.5 text-sm font-medium text-slate-700">
            <Volume2 aria-hidden="true" className="size-4" />
            {t('volume')}
          </span>
          <input
            type="range"
            min={0}
            max={100}
            value={Math.round(volume * 100)}
            onChange={(e) => setVolume(Number(e.target.value) / 100)}
            className="h-11 w-full accent-brand-600"
          />
        </label>
      </div>
    </div>
  );
}

export default Metronome;
