import { describe, expect, it } from 'vitest';
import { MAKAM_KEYS } from './music-keys';
import { MAKAMS, parseMakamName, scaleDegrees } from './makam';

describe('makam library', () => {
  it('has the 20 makams most taught, plus Kürdî and Bûselik', () => {
    const names = ['Acemaşiran', 'Acemkürdî', 'Bestenigâr', 'Beyâtî', 'Hicaz', 'Hicazkâr', 'Hüseynî', 'Hüzzam', 'Karcığar', 'Kürdîlihicazkâr', 'Mâhur', 'Muhayyer', 'Nevâ', 'Nihâvend', 'Rast', 'Sabâ', 'Segâh', 'Sultânîyegâh', 'Sûzinâk', 'Uşşak'];
    const keys = names.map((n) => parseMakamName(n));
    expect(keys).not.toContain(null);
    expect(new Set(keys).size).toBe(20);
    for (const k of MAKAM_KEYS) expect(MAKAMS[k].key).toBe(k);
  });

  it('reads names with or without diacritics, in any case, in common spellings', () => {
    expect(parseMakamName('Uşşak')).toBe('ussak');
    expect(parseMakamName('USSAK')).toBe('ussak');
    expect(parseMakamName('Nihavent')).toBe('nihavend');
    expect(parseMakamName('Nihâvend')).toBe('nihavend');
    expect(parseMakamName('Huseyni')).toBe('huseyni');
    expect(parseMakamName('HÜSEYNÎ')).toBe('huseyni');
    expect(parseMakamName('Kürdili Hicazkâr')).toBe('kurdilihicazkar');
    expect(parseMakamName('Karcığar')).toBe('karcigar');
    expect(parseMakamName('Sultani Yegah')).toBe('sultaniyegah');
    expect(parseMakamName('nope')).toBeNull();
    expect(parseMakamName('')).toBeNull();
  });

  it('places the new scales on named perdes', () => {
    expect(scaleDegrees('hicazkar').map((d) => d.name)).toEqual(['Rast', 'Zirgüle', 'Segâh', 'Çargâh', 'Nevâ', 'Hisar', 'Eviç', 'Gerdaniye']);
    expect(scaleDegrees('huzzam').map((d) => d.name)).toEqual(['Segâh', 'Çargâh', 'Nevâ', 'Hisar', 'Eviç', 'Gerdaniye', 'Muhayyer', 'Tiz Segâh']);
    expect(scaleDegrees('saba').map((d) => d.name)).toEqual(['Dügâh', 'Segâh', 'Çargâh', 'Hicaz', 'Dik Hisar', 'Acem', 'Gerdaniye', 'Muhayyer']);
    expect(scaleDegrees('bestenigar')[0]?.name).toBe('Irak');
    expect(scaleDegrees('sultaniyegah').map((d) => d.name)).toEqual(['Yegâh', 'Hüseynî Aşiran', 'Acem Aşiran', 'Rast', 'Dügâh', 'Dik Kürdî', 'Nim Hicaz', 'Nevâ']);
  });
});
