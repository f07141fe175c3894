import { describe, expect, it } from 'vitest';
import { PitchSmoother } from './pitch-smoother';

describe('pitch smoother', () => {
  it('shows the median, ignores unclear readings and holds on silence', () => {
    const s = new PitchSmoother(5, 0.9, 1000);
    expect(s.push(0, 440, 0.5, 0.1)).toBeNull();
    expect(s.push(50, 440, 0.95, 0.1)).toBeNull();
    expect(s.push(100, 441, 0.95, 0.1)).toBeNull();
    const r = s.push(150, 439.5, 0.95, 0.1);
    expect(r?.hz).toBeCloseTo(440, 5);
    expect(s.push(200, 0, 0, 0)).toMatchObject({ stale: true });
    expect(s.push(1300, 0, 0, 0)).toBeNull();
  });

  it("does not show a tone's onset: the first reading of a note is outvoted before anything shows", () => {
    const s = new PitchSmoother();
    const cents = (hz: number) => 1200 * Math.log2(hz / 440);
    // The first window holds the attack and reads 2.6 ct sharp; the next ones are exact.
    expect(s.push(0, 440 * 2 ** (2.64 / 1200), 0.95, 0.1)).toBeNull();
    expect(s.push(50, 440, 0.95, 0.1)).toBeNull();
    const first = s.push(100, 440, 0.95, 0.1);
    expect(first?.stale).toBe(false);
    expect(Math.abs(cents(first!.hz))).toBeLessThan(0.01);
    // A new note (a fifth up) keeps the old one on screen, marked stale, until it has settled.
    expect(s.push(150, 660, 0.95, 0.1)).toMatchObject({ hz: first!.hz, stale: true });
    expect(s.push(200, 660, 0.95, 0.1)).toMatchObject({ stale: true });
    const next = s.push(250, 660, 0.95, 0.1);
    expect(next?.stale).toBe(false);
    expect(next?.hz).toBeCloseTo(660, 6);
  });
});
