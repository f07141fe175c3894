import { describe, expect, it } from 'vitest';
import { ARGON2_CONCURRENCY, hashPassword, limited, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password; an unknown account is refused', async () => {
    const h = await hashPassword('geheim-123');
    expect(h).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(h, 'geheim-123')).toBe(true);
    expect(await verifyPassword(h, 'geheim-124')).toBe(false);
    expect(await verifyPassword(null, 'geheim-123')).toBe(false);
    expect(await verifyPassword('kein-hash', 'geheim-123')).toBe(false);
  });

  it(`runs at most ${ARGON2_CONCURRENCY} jobs at once, every job in turn, also when one fails`, async () => {
    let now = 0;
    let peak = 0;
    const job = (i: number) => async () => {
      now++;
      peak = Math.max(peak, now);
      await new Promise((r) => setTimeout(r, 5));
      now--;
      if (i === 3) throw new Error('kaputt');
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => limited(job(i))));
    expect(peak).toBe(ARGON2_CONCURRENCY);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'x'))).toEqual([0, 1, 2, 'x', 4, 5, 6, 7, 8]);
    expect(await limited(async () => 'frei')).toBe('frei'); // no slot was lost
  });
});
