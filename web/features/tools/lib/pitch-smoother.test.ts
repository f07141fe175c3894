import { describe, expect, it } from 'vitest';
import { PitchSmoother } from './pitch-smoother';

describe('pitch smoother', () => {
  it('shows the median, ignores unclear readings and holds on silence', () => {
    const s = new PitchSmoother(5, 0.9, 1000);
    expect(s.push(0, 440, 0.5, 0.1)).toBeNull();
    s.push(50, 440, 0.95, 0.1);
    s.push(100, 441, 0.95, 0.1);
    const r = s.push(150, 439.5, 0.95, 0.1);
    expect(r?.hz).toBeCloseTo(440, 5);
    expect(s.push(200, 0, 0, 0)).toMatchObject({ stale: true });
    expect(s.push(1300, 0, 0, 0)).toBeNull();
  });
});
