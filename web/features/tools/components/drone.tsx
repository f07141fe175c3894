import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Play, Square, Volume2 } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Checkbox, Select } from '@web/components/ui/fields';
import { holdAudio } from '@web/lib/audio';
import { PERDE, midiFrequency, parseNoteLabel, perdeKoma, stepFrequency } from '../lib/koma';
import type { TuningSettings } from './tuner';
import { useWakeLock } from '@web/lib/wake-lock';

export type DroneProps = { settings: TuningSettings; initialNote?: string | null };

/** 12-TET notes C3 … B4 offered beside the perde. */
const NOTES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'].flatMap((n) => [`${n}3`, `${n}4`]).sort((a, b) => (parseNoteLabel(a) ?? 0) - (parseNoteLabel(b) ?? 0));
/** A fifth: 7 semitones in 12-TET, 31 koma on the 53 grid (Rast → Nevâ). */
const FIFTH_KOMA = 31;

function frequencies(value: string, settings: Pick<TuningSettings, 'a4' | 'ahenk'>, fifth: boolean): number[] {
  const [kind, key] = value.split(/:(.*)/s) as [string, string];
  if (kind === 'perde') {
    const k = perdeKoma(key) ?? 0;
    const f = stepFrequency(k, settings.a4, settings.ahenk);
    return fifth ? [f, stepFrequency(k + FIFTH_KOMA, settings.a4, settings.ahenk)] : [f];
  }
  const midi = parseNoteLabel(key) ?? 57;
  const f = midiFrequency(midi, settings.a4);
  return fifth ? [f, midiFrequency(midi + 7, settings.a4)] : [f];
}

type Voice = { oscs: OscillatorNode[]; gain: GainNode; release: () => void };

/** A triangle plus a soft octave per tone, through a low-pass, faded in to `volume`. */
async function startVoice(tones: number[], volume: number): Promise<Voice> {
  const { ctx, release } = await holdAudio();
  const gain = ctx.createGain();
  gain.gain.value = 0;
  const filter = ctx.createBiquadFilter();
  filter.type = 'lowpass';
  filter.frequency.value = 2500;
  filter.connect(gain).connect(ctx.destination);
  const oscs: OscillatorNode[] = [];
  for (const f of tones) {
    const o = ctx.createOscillator();
    o.type = 'triangle';
    o.frequency.value = f;
    o.connect(filter);
    const octave = ctx.createOscillator();
    octave.frequency.value = f * 2;
    const og = ctx.createGain();
    og.gain.value = 0.15;
    octave.connect(og).connect(filter);
    o.start();
    octave.start();
    oscs.push(o, octave);
  }
  gain.gain.setTargetAtTime(volume * 0.35, ctx.currentTime, 0.08);
  return { oscs, gain, release };
}

/** Fades the voice out (no click) and lets the audio go. */
function stopVoice(v: Voice) {
  const ctx = v.gain.context;
  v.gain.gain.cancelScheduledValues(ctx.currentTime);
  v.gain.gain.setTargetAtTime(0, ctx.currentTime, 0.05);
  v.oscs.forEach((o) => o.stop(ctx.currentTime + 0.4));
  setTimeout(() => v.gain.disconnect(), 500);
  v.release();
}

/**
 * The drone: a sustained tone on a perde (on the 53-koma grid, with the tuner's reference and ahenk)
 * or a 12-TET note, optionally with its fifth. A triangle plus a soft octave, faded in and out so
 * it never clicks; it shares the AudioContext with the metronome, so both play together.
 */
export function Drone({ settings, initialNote }: DroneProps) {
  const { t } = useTranslation('tools');
  const [note, setNote] = useState(() => (initialNote && perdeKoma(initialNote) !== null ? `perde:${initialNote}` : 'perde:Dügâh'));
  const [fifth, setFifth] = useState(false);
  const [volume, setVolume] = useState(0.5);
  const [playing, setPlaying] = useState(false);
  // the screen stays on while it sounds (a phone on the music stand)
  useWakeLock(playing);
  const voice = useRef<Voice | null>(null);

  // Follow the durak the panel chooses (a new exercise, another makam): set while rendering
  // (docs/decisions/compiler-ready-components.md).
  const [followed, setFollowed] = useState(initialNote);
  if (followed !== initialNote) {
    setFollowed(initialNote);
    if (initialNote && perdeKoma(initialNote) !== null) setNote(`perde:${initialNote}`);
  }

  // The volume as it is when a voice starts (an Effect Event: a later change fades the voice below, it does not restart it).
  const startVolume = useEffectEvent(() => volume);
  const { a4, ahenk } = settings;

  // Retune or restart when the note, fifth or tuning changes while playing.
  useEffect(() => {
    if (!playing) return;
    let cancelled = false;
    let mine: Voice | null = null;
    void startVoice(frequencies(note, { a4, ahenk }, fifth), startVolume()).then((v) => {
      if (cancelled) stopVoice(v);
      else voice.current = mine = v;
    });
    return () => {
      cancelled = true;
      if (!mine) return;
      stopVoice(mine);
      if (voice.current === mine) voice.current = null;
    };
  }, [playing, note, fifth, a4, ahenk]);

  useEffect(() => {
    const v = voice.current;
    if (v) v.gain.gain.setTargetAtTime(volume * 0.35, v.gain.context.currentTime, 0.05);
  }, [volume]);

  return (
    <div className="space-y-5" data-testid="drone">
      <div className="grid gap-4 @md:grid-cols-2">
        <Select label={t('drone.note')} value={note} onChange={(e) => setNote(e.target.value)} data-testid="drone-note">
          <optgroup label={t('drone.perde')}>
            {PERDE.map((p) => (
              <option key={p.name} value={`perde:${p.name}`}>
                {p.name}
              </option>
            ))}
          </optgroup>
          <optgroup label={t('drone.tet')}>
            {NOTES.map((n) => (
              <option key={n} value={`tet:${n}`}>
                {n}
              </option>
            ))}
          </optgroup>
        </Select>
        <label className="block">
          <span className="mb-1.5 flex items-center gap-1.5 text-sm font-medium text-slate-700">
            <Volume2 aria-hidden="true" className="size-4" />
            {t('volume')}
          </span>
          <input type="range" min={0} max={100} value={Math.round(volume * 100)} onChange={(e) => setVolume(Number(e.target.value) / 100)} className="h-11 w-full accent-brand-600" />
        </label>
      </div>
      <Checkbox wrapperClassName="flex min-h-11 items-center" className="size-5" label={t('drone.fifth')} checked={fifth} onChange={(e) => setFifth(e.target.checked)} />
      <Button
        size="lg"
        variant={playing ? 'secondary' : 'primary'}
        className="h-14 min-w-32 text-lg"
        icon={playing ? <Square aria-hidden="true" className="size-5" /> : <Play aria-hidden="true" className="size-5" />}
        onClick={() => setPlaying((p) => !p)}
        data-testid="drone-toggle"
      >
        {playing ? t('stop') : t('start')}
      </Button>
    </div>
  );
}

export default Drone;
