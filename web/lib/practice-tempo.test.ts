import { afterEach, describe, expect, it } from 'vitest';
import { clearPracticeTempo, getPracticeTempo, setPracticeTempo, subscribePracticeTempo, validTempo } from './practice-tempo';

afterEach(clearPracticeTempo);

describe('practice tempo store', () => {
  it('is empty until the tools write a tempo', () => {
    expect(getPracticeTempo()).toBeNull();
    expect(getPracticeTempo('2026-11-23T10:00:00.000Z')).toBeNull();
  });

  it('gives the running tempo whenever the session started', () => {
    setPracticeTempo(92, true, Date.parse('2026-11-23T09:00:00.000Z'));
    expect(getPracticeTempo('2026-11-23T10:00:00.000Z')).toBe(92);
  });

  it('gives a stopped tempo only when the metronome ran after the session started', () => {
    setPracticeTempo(80, false, Date.parse('2026-11-23T10:05:00.000Z'));
    expect(getPracticeTempo('2026-11-23T10:00:00.000Z')).toBe(80);
    expect(getPracticeTempo('2026-11-23T10:10:00.000Z')).toBeNull();
  });

  it('keeps only whole tempos within 20–300 and tells subscribers', () => {
    const seen: Array<number | null> = [];
    const off = subscribePracticeTempo((t) => seen.push(t?.bpm ?? null));
    setPracticeTempo(120.4, true);
    setPracticeTempo(500, true);
    off();
    setPracticeTempo(60, true);
    expect(seen).toEqual([120, null]);
    expect(validTempo(19)).toBeNull();
    expect(validTempo(Number.NaN)).toBeNull();
    expect(validTempo(300)).toBe(300);
  });
});
