import { describe, expect, it } from 'vitest';
import { USUL_KEYS, effectiveTempoUnit, stepsPerUnit, tempoUnitChoices } from '@contract/music';
import { METERS, USULS, groupStarts, meterPattern, nextStroke, parseMeter } from './usul';

describe('usul presets', () => {
  it('each pattern has as many steps as its usul has beats, and its groups add up', () => {
    const beats = { nim_sofyan: 2, semai: 3, sofyan: 4, turk_aksagi: 5, yuruk_semai: 6, devr_i_hindi: 7, duyek: 8, aksak: 9, evfer: 9, curcuna: 10 };
    for (const key of USUL_KEYS) {
      const u = USULS[key];
      expect(u.beats, key).toBe(beats[key]);
      expect(u.pattern, key).toHaveLength(u.beats);
      expect(u.groups.reduce((a, b) => a + b, 0), key).toBe(u.beats);
      expect(u.pattern[0], `${key} starts with düm`).toBe('dum');
    }
  });

  it('Aksak is 2+2+2+3, Curcuna 3+2+2+3, Devr-i Hindi 3+4 (MAKAM.md)', () => {
    expect(USULS.aksak.groups).toEqual([2, 2, 2, 3]);
    expect(USULS.curcuna.groups).toEqual([3, 2, 2, 3]);
    expect(USULS.devr_i_hindi.groups).toEqual([3, 4]);
    // Each group of Aksak begins with a stroke.
    for (const s of groupStarts(USULS.aksak.groups)) expect(USULS.aksak.pattern[s]).not.toBe('rest');
  });

  it('each usul carries the unit it is written in: Aksak 9/8 and Düyek 8/8 in eighths, Sofyan 4/4 in quarters', () => {
    expect(USULS.aksak.unit).toBe(8);
    expect(USULS.duyek.unit).toBe(8);
    expect(USULS.sofyan.unit).toBe(4);
    expect(USULS.semai.unit).toBe(4);
    expect(effectiveTempoUnit({ usul: 'aksak' })).toBe('eighth');
    expect(effectiveTempoUnit({ usul: 'sofyan' })).toBe('quarter');
    // an usul wins over a meter, as in the metronome; a stored unit wins over both
    expect(effectiveTempoUnit({ usul: 'aksak', meter: '4/4' })).toBe('eighth');
    expect(effectiveTempoUnit({ usul: 'yuruk_semai', tempo_unit: 'dotted-quarter' })).toBe('dotted-quarter');
  });

  it('a stored tempo without a unit counts the written unit of its meter (what the metronome always clicked)', () => {
    expect(effectiveTempoUnit({ meter: '9/8' })).toBe('eighth');
    expect(effectiveTempoUnit({ meter: '4/4' })).toBe('quarter');
    expect(effectiveTempoUnit({ meter: '2/2' })).toBe('half');
    expect(effectiveTempoUnit({ meter: '6/8', meter_grouping: '3+3' })).toBe('eighth');
    expect(effectiveTempoUnit({ meter: '7/16' })).toBe('sixteenth');
    expect(effectiveTempoUnit({})).toBe('quarter');
  });

  it('only a compound bar offers the dotted quarter', () => {
    expect(tempoUnitChoices(6, 8, [3, 3])).toEqual(['eighth', 'dotted-quarter']);
    expect(tempoUnitChoices(12, 8, [3, 3, 3, 3])).toEqual(['eighth', 'dotted-quarter']);
    expect(tempoUnitChoices(9, 8, [2, 2, 2, 3])).toEqual(['eighth']);
    expect(tempoUnitChoices(6, 8)).toEqual(['eighth', 'dotted-quarter']); // no grouping given
    expect(tempoUnitChoices(3, 8)).toEqual(['eighth']);
    expect(tempoUnitChoices(7, 8, [2, 2, 3])).toEqual(['eighth']);
    expect(tempoUnitChoices(4, 4, [4])).toEqual(['quarter']);
    expect(tempoUnitChoices(2, 2)).toEqual(['half']);
    expect(stepsPerUnit('dotted-quarter', 8)).toBe(3);
    expect(stepsPerUnit('half', 4)).toBe(2);
  });

  it('the editor cycles düm → tek → rest', () => {
    expect(nextStroke('dum')).toBe('tek');
    expect(nextStroke('tek')).toBe('rest');
    expect(nextStroke('rest')).toBe('dum');
  });
});

describe('meters', () => {
  it('accents each group start', () => {
    expect(meterPattern(parseMeter('7/8')!)).toEqual(['accent', 'normal', 'accent', 'normal', 'accent', 'normal', 'normal']);
    expect(meterPattern(parseMeter('7/8 (3+2+2)')!)).toEqual(['accent', 'normal', 'normal', 'accent', 'normal', 'accent', 'normal']);
    expect(meterPattern(parseMeter('4/4')!)).toEqual(['accent', 'normal', 'normal', 'normal']);
    for (const m of METERS) expect(m.groups.reduce((a, b) => a + b, 0), m.key).toBe(m.beats);
  });

  it('parses stored meters leniently', () => {
    expect(parseMeter('7/8:3+2+2')?.groups).toEqual([3, 2, 2]);
    expect(parseMeter('11/8 (2+2+3+2+2)')?.groups).toEqual([2, 2, 3, 2, 2]);
    expect(parseMeter('5/8 (1+1)')?.groups).toEqual([2, 3]);
    expect(parseMeter('abc')).toBeNull();
    expect(parseMeter('')).toBeNull();
  });
});
