import { describe, expect, it } from 'vitest';
import { arrivalSchedule } from '../../load/schedule.js';
import { createRandom } from '../../lib/random.js';

const base = { visitors: 2000, durationMs: 10 * 60_000, ratePerMinute: null, flashSeconds: 60 } as const;

describe('arrivalSchedule', () => {
  it('brings a flash crowd within the first flashSeconds, sorted', () => {
    const a = arrivalSchedule({ ...base, shape: 'flash' }, createRandom('1'));
    expect(a).toHaveLength(2000);
    expect(a.every((t, i) => t >= 0 && t < 60_000 && (i === 0 || a[i - 1]! <= t))).toBe(true);
    // Uniform over the minute: about half in each half.
    const firstHalf = a.filter((t) => t < 30_000).length;
    expect(firstHalf).toBeGreaterThan(900);
    expect(firstHalf).toBeLessThan(1100);
  });

  it('spreads a steady crowd over the run without a rate', () => {
    const a = arrivalSchedule({ ...base, shape: 'steady' }, createRandom('1'));
    expect(a).toHaveLength(2000);
    expect(a[a.length - 1]!).toBeLessThan(base.durationMs);
    const perMinute = Array.from({ length: 10 }, (_, m) => a.filter((t) => Math.floor(t / 60_000) === m).length);
    for (const n of perMinute) expect(n).toBeGreaterThan(140); // 200 a minute, give or take Poisson noise
  });

  it('keeps a steady rate until the crowd has come or the run ends', () => {
    const fast = arrivalSchedule({ ...base, shape: 'steady', ratePerMinute: 400 }, createRandom('1'));
    expect(fast).toHaveLength(2000);
    expect(fast[fast.length - 1]!).toBeLessThan(5 * 60_000);
    const slow = arrivalSchedule({ ...base, shape: 'steady', ratePerMinute: 120 }, createRandom('1'));
    expect(slow).toHaveLength(1200); // 10 minutes at 120 a minute: the other 800 never come
  });

  it('gives the same crowd for the same seed, another for another', () => {
    const opts = { ...base, shape: 'flash' as const };
    expect(arrivalSchedule(opts, createRandom('7'))).toEqual(arrivalSchedule(opts, createRandom('7')));
    expect(arrivalSchedule(opts, createRandom('7'))).not.toEqual(arrivalSchedule(opts, createRandom('8')));
  });

  it('schedules nobody for an empty run', () => {
    expect(arrivalSchedule({ ...base, shape: 'flash', durationMs: 0 }, createRandom('1'))).toEqual([]);
    expect(arrivalSchedule({ ...base, shape: 'steady', visitors: 0 }, createRandom('1'))).toEqual([]);
  });
});
