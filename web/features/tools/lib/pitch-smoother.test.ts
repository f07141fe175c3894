import { describe, expect, it } from 'vitest';
import { PitchSmoother } from './pitch-smoother';

const cents = (hz: number) => 1200 * Math.log2(hz / 440);
const sharp = (ct: number) => 440 * 2 ** (ct / 1200);

describe('pitch smoother', () => {
  it('shows the median, ignores unclear readings and holds on silence', () => {
    const s = new PitchSmoother(5, 0.9, 1000);
    expect(s.push(0, 440, 0.5, 0.1)).toBeNull();
    expect(s.push(50, 440, 0.95, 0.1)).toBeNull(); // onset
    expect(s.push(100, 440, 0.95, 0.1)).toBeNull(); // onset
    expect(s.push(150, 440, 0.95, 0.1)).toBeNull();
    expect(s.push(200, 441, 0.95, 0.1)).toBeNull();
    const r = s.push(250, 439.5, 0.95, 0.1);
    expect(r?.hz).toBeCloseTo(440, 5);
    expect(s.push(300, 0, 0, 0)).toMatchObject({ stale: true });
    expect(s.push(1300, 0, 0, 0)).toBeNull();
  });

  it("does not show a tone's onset: the first windows of a note read sharp and are left out", () => {
    const s = new PitchSmoother();
    // The first windows hold the attack and the silence before it (2.6 and 1.0 ct sharp, as Chromium's fake microphone gave in CI).
    expect(s.push(0, sharp(2.64), 0.95, 0.1)).toBeNull();
    expect(s.push(50, sharp(1.04), 0.95, 0.1)).toBeNull();
    for (const at of [100, 150]) expect(s.push(at, 440, 0.95, 0.1)).toBeNull();
    const first = s.push(200, 440, 0.95, 0.1);
    expect(first?.stale).toBe(false);
    expect(Math.abs(cents(first!.hz))).toBeLessThan(0.01);
    // A new note (a fifth up) keeps the old one on screen, marked stale, until it has settled.
    for (const at of [250, 300, 350, 400]) expect(s.push(at, 660, 0.95, 0.1)).toMatchObject({ hz: first!.hz, stale: true });
    const next = s.push(450, 660, 0.95, 0.1);
    expect(next?.stale).toBe(false);
    expect(next?.hz).toBeCloseTo(660, 6);
  });

  it('a tone after a pause starts with its onset again', () => {
    const s = new PitchSmoother(5, 0.9, 5000);
    for (const at of [0, 50, 100, 150, 200]) s.push(at, 440, 0.95, 0.1);
    for (const at of [250, 300, 350, 400, 450, 500, 550]) expect(s.push(at, 0, 0, 0)).toMatchObject({ stale: true });
    // The same note again, its onset sharp: the held reading stays until the new one has settled.
    const held = s.push(600, sharp(3), 0.95, 0.1);
    expect(held?.stale).toBe(true);
    expect(Math.abs(cents(held!.hz))).toBeLessThan(0.01);
    expect(s.push(650, 440, 0.95, 0.1)).toMatchObject({ stale: true });
  });
});
