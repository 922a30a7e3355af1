// What the waiting page promises against what visitors then live through.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioFigures, WaitFigures } from '../../sim/figures.js';
import { briefSessions, patient, run, scenario } from './support.js';

let figures: ScenarioFigures;
let at20: WaitFigures;

beforeAll(async () => {
  // Patient visitors, so every wait is seen to its end (no censoring to correct for).
  const steady = briefSessions(patient(scenario('steady', { durationMs: 25 * 60_000 })));
  ({ figures } = await run(
    { ...steady, arrivals: (rng, n) => steady.arrivals(rng, n).filter((a) => a.atMs < 15 * 60_000) },
    1500,
  ));
  at20 = figures.waits.find((w) => w.allowPercentage === 20)!;
}, 120_000);

describe('estimated wait at allow_percentage 20', () => {
  it('admits nearly everyone who waits ten minutes after the last arrival', () => {
    // 20 draws at 20% leave 0.8^20, about 1%, still waiting: the tail of a lottery, not a stuck queue.
    expect(at20.visitors).toBeGreaterThan(1000);
    expect(figures.admitted / figures.actors).toBeGreaterThan(0.98);
  });

  it('puts the observed median within 15% of the predicted one', () => {
    expect(at20.observed.p50).not.toBeNull();
    expect(Math.abs(at20.observed.p50! - at20.predicted.p50!) / at20.predicted.p50!).toBeLessThanOrEqual(0.15);
  });

  it('gets the quartiles right too (within 15%)', () => {
    for (const k of ['p25', 'p75'] as const) {
      expect(Math.abs(at20.observed[k]! - at20.predicted[k]!) / at20.predicted[k]!, k).toBeLessThanOrEqual(0.15);
    }
  });

  it('is calibrated per visitor: about half are admitted within their own predicted median', () => {
    // Each page predicts from that visitor's own first draw time; a calibrated promise is kept p of the time.
    expect(at20.coverage.p25!).toBeGreaterThan(0.18);
    expect(at20.coverage.p25!).toBeLessThan(0.32);
    expect(at20.coverage.p50!).toBeGreaterThan(0.43);
    expect(at20.coverage.p50!).toBeLessThan(0.57);
    expect(at20.coverage.p75!).toBeGreaterThan(0.68);
    expect(at20.coverage.p75!).toBeLessThan(0.82);
  });
});
