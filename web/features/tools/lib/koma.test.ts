import { describe, expect, it } from 'vitest';
import { MAKAM_KEYS } from '@contract/music';
import {
  CENTS_PER_KOMA,
  MAKAMS,
  PERDE,
  komaAbove,
  makamReading,
  nearestStep,
  parseNoteLabel,
  perdeKoma,
  perdeName,
  rastFrequency,
  scaleDegrees,
  stepFrequency,
  tetNote,
} from './koma';

describe('koma grid', () => {
  it('one koma is 1/53 octave (≈ 22.64 cents)', () => {
    expect(CENTS_PER_KOMA).toBeCloseTo(22.6415, 4);
    expect(komaAbove(880, 440)).toBeCloseTo(53, 10);
    expect(nearestStep(31.04)).toMatchObject({ step: 31 });
    expect(nearestStep(31.04).deviationCents).toBeCloseTo(0.04 * CENTS_PER_KOMA, 10);
  });

  it('every makam scale sums to 53 and has seven steps (Bestenigâr: eight, Irak to Eviç)', () => {
    expect(MAKAM_KEYS).toHaveLength(22);
    for (const key of MAKAM_KEYS) {
      const m = MAKAMS[key];
      expect(m.steps.reduce((a, b) => a + b, 0), key).toBe(53);
      expect(m.steps, key).toHaveLength(key === 'bestenigar' ? 8 : 7);
      expect(perdeKoma(m.guclu), `${key} güçlü`).not.toBeNull();
      for (const e of m.extra ?? []) expect(perdeKoma(e), `${key} ${e}`).not.toBeNull();
      for (const p of m.practice ?? []) expect(perdeKoma(p.perde), `${key} ${p.perde}`).not.toBeNull();
      const degrees = scaleDegrees(key);
      expect(degrees[0]?.name, `${key} starts on its durak`).toBe(m.durak);
      // Every degree of these makams is one of AEU's 24 named pitches.
      for (const d of degrees) expect(d.name, `${key} ${d.koma}`).not.toBeNull();
    }
  });

  it('names the perde of the central octave (AEU)', () => {
    expect(perdeName(0)).toBe('Rast');
    expect(perdeName(9)).toBe('Dügâh');
    expect(perdeName(17)).toBe('Segâh');
    expect(perdeName(22)).toBe('Çargâh');
    expect(perdeName(31)).toBe('Nevâ');
    expect(perdeName(40)).toBe('Hüseynî');
    expect(perdeName(48)).toBe('Eviç');
    expect(perdeName(53)).toBe('Gerdaniye');
    expect(perdeName(-22)).toBe('Yegâh');
    expect(perdeName(-13)).toBe('Hüseynî Aşiran');
    expect(perdeName(-9)).toBe('Acem Aşiran');
    expect(perdeName(-5)).toBe('Irak');
    expect(perdeName(84)).toBe('Tiz Nevâ');
    expect(perdeName(-44)).toBe('Kaba Dügâh');
    expect(perdeName(32)).toBeNull();
    // 24 pitches per octave: Rast (0) up to Dik Mâhur (52).
    expect(PERDE.filter((p) => p.koma >= 0 && p.koma < 53)).toHaveLength(24);
    // The octave above repeats the intervals of the central octave.
    for (const p of PERDE.filter((q) => q.koma >= 0 && q.koma <= 22)) expect(perdeName(p.koma + 53), p.name).not.toBeNull();
  });

  it('Hicaz from Dügâh: Dik Kürdî, Nim Hicaz, Nevâ (bakiye flat and sharp)', () => {
    expect(scaleDegrees('hicaz').map((d) => d.name)).toEqual(['Dügâh', 'Dik Kürdî', 'Nim Hicaz', 'Nevâ', 'Hüseynî', 'Eviç', 'Gerdaniye', 'Muhayyer']);
    expect(scaleDegrees('nihavend').map((d) => d.name)).toEqual(['Rast', 'Dügâh', 'Kürdî', 'Çargâh', 'Nevâ', 'Nim Hisar', 'Acem', 'Gerdaniye']);
  });

  it('known frequencies land on the right step within 0.1 koma', () => {
    // Bolahenk, A4 = 440: Dügâh is A4.
    expect(makamReading(440)).toMatchObject({ step: 9, perde: 'Dügâh', stepsFromPerde: 0 });
    expect(Math.abs(makamReading(440).deviationKoma)).toBeLessThan(1e-9);
    for (const step of [-22, -5, 0, 9, 17, 22, 31, 40, 48, 53, 62]) {
      const f = stepFrequency(step);
      for (const off of [-0.09, 0, 0.09]) {
        const r = makamReading(f * 2 ** (off / 53));
        expect(r.step, `step ${step}${off}`).toBe(step);
        expect(Math.abs(r.deviationKoma - off)).toBeLessThan(1e-9);
      }
    }
    // One koma above Nevâ: 'Nevâ +1 koma' (Nim Hisar is 4 koma above).
    const oneAbove = 440 * 2 ** ((31 - 9 + 1) / 53);
    expect(oneAbove).toBeCloseTo(594.41, 1);
    expect(makamReading(oneAbove)).toMatchObject({ perde: 'Nevâ', stepsFromPerde: 1, step: 32 });
    // A pure fifth (3/2) is 31.02 koma: Rast → Nevâ.
    expect(makamReading(rastFrequency() * 1.5)).toMatchObject({ step: 31, perde: 'Nevâ' });
  });

  it('ahenk transposes: in Kız, Dügâh sounds a fifth lower', () => {
    const f = 440 * 2 ** (-7 / 12);
    expect(makamReading(f, 440, 'kiz')).toMatchObject({ step: 9, perde: 'Dügâh' });
    expect(makamReading(f, 440, 'bolahenk').perde).not.toBe('Dügâh');
    // And the reference moves the grid.
    expect(makamReading(442, 442)).toMatchObject({ step: 9, perde: 'Dügâh' });
  });
});

describe('12-TET', () => {
  it('A4 = 440 is A4 0 ct', () => {
    const n = tetNote(440);
    expect(n.label).toBe('A4');
    expect(n.cents).toBeCloseTo(0, 10);
  });

  it('names notes with octave and cents at any A4 from 415 to 466', () => {
    expect(tetNote(261.6256).label).toBe('C4');
    expect(tetNote(261.6256).cents).toBeCloseTo(0, 2);
    expect(tetNote(440 * 2 ** (3 / 1200)).cents).toBeCloseTo(3, 6);
    expect(tetNote(415, 415).label).toBe('A4');
    expect(tetNote(466, 466).label).toBe('A4');
    expect(tetNote(415, 440).label).toBe('G#4');
    expect(tetNote(82.41).label).toBe('E2');
    expect(tetNote(440 * 2 ** (49 / 1200)).label).toBe('A4');
    expect(tetNote(440 * 2 ** (51 / 1200)).label).toBe('A#4');
    expect(parseNoteLabel('A4')).toBe(69);
    expect(parseNoteLabel('C#3')).toBe(49);
  });
});
