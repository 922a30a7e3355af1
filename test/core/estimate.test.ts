import { describe, expect, it } from 'vitest';
import { estimateWait, jitterSeconds } from '../../src/core/estimate.js';

/** A small seeded PRNG so the simulated waits reproduce. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Waits as the room produces them: draw at each expiry + jitter, a loser's next token one window later. */
function simulate(P: number, d: number, first: number, J: number, n: number, random: () => number): number[] {
  const waits: number[] = [];
  // Absolute times: expiries fall on window boundaries; the visitor arrived `first` seconds before one.
  const arrival = 1000 * d - first;
  for (let i = 0; i < n; i++) {
    let expiry = 1000 * d;
    for (;;) {
      const back = expiry + random() * J;
      if (random() < P) {
        waits.push(back - arrival);
        break;
      }
      expiry = Math.floor(back / d) * d + d;
    }
  }
  return waits.sort((a, b) => a - b);
}

describe('estimateWait', () => {
  it.each([
    [0.5, 30, 45],
    [0.1, 30, 31],
    [0.9, 60, 100],
    [0.02, 20, 25],
  ])('matches simulated waits for P=%d, d=%d, first=%d', (P, d, first) => {
    const J = jitterSeconds({ waitPeriodSeconds: d });
    const est = estimateWait({ allowPercentage: P * 100, waitPeriodSeconds: d, secondsUntilFirstDraw: first, jitterSeconds: J })!;
    const waits = simulate(P, d, first, J, 20000, mulberry32(7));
    const q = (p: number) => waits[Math.floor(p * waits.length)]!;
    // Within a couple of seconds, or 3% for long waits.
    for (const [p, predicted] of [[0.25, est.p25], [0.5, est.p50], [0.75, est.p75]] as const) {
      expect(Math.abs(predicted - q(p)), `p${p * 100}`).toBeLessThanOrEqual(Math.max(2, 0.03 * q(p)));
    }
  });

  it('has no estimate when nobody is admitted and none needed when everybody is', () => {
    expect(estimateWait({ allowPercentage: 0, waitPeriodSeconds: 30, secondsUntilFirstDraw: 40, jitterSeconds: 30 })).toBeNull();
    expect(estimateWait({ allowPercentage: 100, waitPeriodSeconds: 30, secondsUntilFirstDraw: 40, jitterSeconds: 30 })).toEqual({ p25: 0, p50: 0, p75: 0 });
  });

  it('grows as allow_percentage falls', () => {
    const at = (pct: number) => estimateWait({ allowPercentage: pct, waitPeriodSeconds: 30, secondsUntilFirstDraw: 45, jitterSeconds: 30 })!.p50;
    expect(at(5)).toBeGreaterThan(at(20));
    expect(at(20)).toBeGreaterThan(at(80));
  });

  it('caps the jitter at 30 s and at the window', () => {
    expect(jitterSeconds({ waitPeriodSeconds: 10 })).toBe(10);
    expect(jitterSeconds({ waitPeriodSeconds: 300 })).toBe(30);
  });
});
