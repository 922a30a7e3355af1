import { describe, expect, it } from 'vitest';
import { dueSpreadSeconds, jitterSeconds, retryAfterSeconds } from '../../../src/core/decision/draw.js';
import { estimateFor, estimateWait } from '../../../src/core/answer/estimate.js';
import { createRandom } from '../../../lib/random.js';

interface Held {
  /** Seconds since the epoch, fractional, as a request arrives. */
  now: number;
  /** The held token's expiry (a boundary) and due time (expiry + a whole-second offset). */
  exp: number;
  due: number;
}

/**
 * One wait as the room and its page produce it: the page comes back Retry-After (the handler's own
 * rounding) plus uniform(0, J) after each answer; each draw wins with P; a loser's next token expires at
 * the next boundary and falls due at its own whole-second offset in [0, S).
 */
function simulateOne(P: number, d: number, held: Held, random: () => number): number {
  const J = jitterSeconds({ waitPeriodSeconds: d });
  const S = dueSpreadSeconds({ waitPeriodSeconds: d });
  let t = held.now;
  let due = held.due;
  for (;;) {
    t += retryAfterSeconds(due, t * 1000, d) + random() * J;
    if (random() < P) return t - held.now;
    due = Math.floor(t / d) * d + d + Math.floor(random() * S);
  }
}

/** The estimate the room's page shows for this held token (the handler's own estimateFor). */
function estimateOf(P: number, d: number, held: Held) {
  return estimateFor({ allowPercentage: P * 100, waitPeriodSeconds: d }, held.due, held.exp, held.now * 1000)!;
}

describe('estimateWait', () => {
  it.each([
    // P, d, seconds until expiry, due offset
    [0.5, 30, 45, 7],
    [0.1, 30, 31, 25],
    [0.9, 60, 100, 0],
    [0.02, 20, 25, 12],
    [0.2, 10, 13.4, 3],
    [0.3, 300, 420, 250],
  ])('matches simulated waits for P=%d, d=%d, expiry in %d s, offset %d s', (P, d, untilExp, offset) => {
    const now = 1_000_000 * d - untilExp;
    const held = { now, exp: 1_000_000 * d, due: 1_000_000 * d + offset };
    const est = estimateOf(P, d, held);
    const random = createRandom('7').next;
    const waits = Array.from({ length: 20000 }, () => simulateOne(P, d, held, random)).sort((a, b) => a - b);
    const q = (p: number) => waits[Math.min(waits.length - 1, Math.max(0, Math.floor(p * waits.length)))]!;
    // Within a couple of seconds, or 3% for long waits, of the simulated quantile. Where p is exactly
    // the chance of winning within k draws (P = 0.5: p50 and p75), the true quantile is the end of one
    // draw's span and the sample's lands on either side of the gap by luck; so the prediction may sit
    // anywhere between the sample quantiles at p -/+ three standard errors (~1% at n = 20000).
    for (const [p, predicted] of [
      [0.25, est.p25],
      [0.5, est.p50],
      [0.75, est.p75],
    ] as const) {
      const se = 3 * Math.sqrt((p * (1 - p)) / waits.length);
      const [low, high] = [q(p - se), q(p + se)];
      const tolerance = Math.max(2, 0.03 * q(p));
      expect(predicted, `p${p * 100}`).toBeGreaterThanOrEqual(low - tolerance);
      expect(predicted, `p${p * 100}`).toBeLessThanOrEqual(high + tolerance);
    }
  });

  it('keeps its promise to new visitors: about p of them are admitted within their own p-th percentile', () => {
    const d = 30;
    const P = 0.2;
    const random = createRandom('11').next;
    const kept = { p25: 0, p50: 0, p75: 0 };
    const n = 20000;
    for (let i = 0; i < n; i++) {
      // A new visitor's token expires 1-2 windows on and falls due at its own offset.
      const now = 1_000_000 * d + random() * d;
      const exp = Math.floor(now / d) * d + 2 * d;
      const held = { now, exp, due: exp + Math.floor(random() * dueSpreadSeconds({ waitPeriodSeconds: d })) };
      const est = estimateOf(P, d, held);
      const wait = simulateOne(P, d, held, random);
      for (const k of ['p25', 'p50', 'p75'] as const) if (wait <= est[k]) kept[k]++;
    }
    // Binomial sd at n = 20000 is ~0.0035; 0.03 also absorbs the estimate's whole-second rounding.
    expect(kept.p25 / n).toBeCloseTo(0.25, 1);
    expect(Math.abs(kept.p50 / n - 0.5)).toBeLessThan(0.03);
    expect(Math.abs(kept.p75 / n - 0.75)).toBeLessThan(0.03);
  });

  it('has no estimate when nobody is admitted and none needed when everybody is', () => {
    expect(
      estimateWait({ allowPercentage: 0, waitPeriodSeconds: 30, secondsUntilFirstDraw: 40, jitterSeconds: 2 }),
    ).toBeNull();
    expect(
      estimateWait({ allowPercentage: 100, waitPeriodSeconds: 30, secondsUntilFirstDraw: 40, jitterSeconds: 2 }),
    ).toEqual({ p25: 0, p50: 0, p75: 0 });
  });

  it('grows as allow_percentage falls', () => {
    const at = (pct: number) =>
      estimateWait({ allowPercentage: pct, waitPeriodSeconds: 30, secondsUntilFirstDraw: 45, jitterSeconds: 2 })!.p50;
    expect(at(5)).toBeGreaterThan(at(20));
    expect(at(20)).toBeGreaterThan(at(80));
  });
});

describe('return timing', () => {
  it('keeps the page jitter small and leaves the rest of the window to the due offset', () => {
    expect(jitterSeconds({ waitPeriodSeconds: 30 })).toBe(2);
    expect(jitterSeconds({ waitPeriodSeconds: 7 })).toBe(1);
    expect(jitterSeconds({ waitPeriodSeconds: 3 })).toBe(0);
    for (const d of [1, 2, 3, 5, 7, 10, 30, 60, 3600]) {
      const J = jitterSeconds({ waitPeriodSeconds: d });
      const S = dueSpreadSeconds({ waitPeriodSeconds: d });
      // Latest honest return: offset S - 1, Retry-After rounding < 1 s, jitter < J: before the window ends.
      if (d >= 3) expect(S - 1 + 1 + J, `d=${d}`).toBeLessThan(d);
      expect(S).toBeGreaterThanOrEqual(0);
    }
    expect(dueSpreadSeconds({ waitPeriodSeconds: 30 })).toBe(26);
  });
});

describe('the estimate under a leased schedule (control/failover/lease.ts)', () => {
  const d = 30;
  const now = 1_800_000_005;
  const exp = 1_800_000_060;
  const schedule = (windows: number, pct: number, tail: number) => [
    ...Array.from({ length: windows }, (_, i) => ({ start: exp + i * d, pct })),
    { start: exp + windows * d, pct: tail },
  ];
  const estimate = (allowSchedule: { start: number; pct: number }[]) =>
    estimateFor({ allowPercentage: 50, waitPeriodSeconds: d, allowSchedule }, exp + 10, exp, now * 1000)!;

  it('is unchanged by the fallback when the wait fits within the lease', () => {
    // 20% a window: three in four are drawn within 7 windows, well inside a 20-window lease.
    expect(estimate(schedule(20, 20, 2))).toEqual(estimate(schedule(20, 20, 20)));
  });

  it('grows when the draws reach past the lease onto a lower fallback chance', () => {
    const flat = estimate(schedule(3, 10, 10));
    const fallback = estimate(schedule(3, 10, 2));
    expect(fallback.p25).toBe(flat.p25);
    expect(fallback.p75).toBeGreaterThan(flat.p75);
  });
});
