// Admissions reach the origin as a steady trickle, not in bursts at window boundaries.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioFigures } from '../../sim/figures.js';
import { briefSessions, run, scenario } from './support.js';

/** P(X >= k) for X ~ Poisson(m). */
function poissonTail(m: number, k: number): number {
  let term = Math.exp(-m);
  let below = 0;
  for (let i = 0; i < k; i++) {
    below += term;
    term *= m / (i + 1);
  }
  return Math.max(0, 1 - below);
}

/**
 * The bound: admissions in a second are a sum of many independent returns, so with the page's jitter
 * they are Poisson at the mean rate. The smallest k that N seconds of Poisson(m) reach with chance
 * under 1/1000 is the highest count noise explains. A burst at the boundary (everyone who drew in one
 * window coming back in the same second) puts a window's worth, about d * m, in one second.
 */
function noiseCeiling(m: number, seconds: number): number {
  let k = Math.ceil(m);
  while (seconds * poissonTail(m, k) > 0.001) k++;
  return k;
}

function steadyState(
  f: ScenarioFigures,
  fromMinute: number,
  toMinute: number,
): { mean: number; peak: number; seconds: number } {
  const slice = f.series.admissionsPerSecond.slice(fromMinute * 60, toMinute * 60);
  return { mean: slice.reduce((a, b) => a + b, 0) / slice.length, peak: Math.max(...slice), seconds: slice.length };
}

let jittered: ScenarioFigures;
let unjittered: ScenarioFigures;

beforeAll(async () => {
  const steady = briefSessions(scenario('steady'));
  ({ figures: jittered } = await run(steady, 1800));
  ({ figures: unjittered } = await run({ ...steady, behaviour: { ...steady.behaviour, jitter: false } }, 600));
}, 120_000);

describe('admissions per second under steady arrivals', () => {
  it('has no second above what Poisson noise explains once the queue is in steady state', () => {
    const s = steadyState(jittered, 6, 20);
    expect(s.mean).toBeGreaterThan(1);
    expect(s.peak).toBeLessThan(noiseCeiling(s.mean, s.seconds));
  });

  it('puts no more admissions in the first tenth of each window than an even spread would', () => {
    // Evenly spread: 10%. Visitors all back on the boundary: 100%.
    expect(jittered.smoothness!.boundaryShare).toBeLessThan(0.14);
  });

  it('spreads admissions over the seconds of the window: none holds twice an even share', () => {
    const profile = jittered.series.windowProfile;
    expect(Math.max(...profile)).toBeLessThan(2 / profile.length);
    expect(profile[0]!).toBeLessThan(1 / profile.length);
  });

  it('would catch a boundary burst: one window of admissions in one second is far above the ceiling', () => {
    const s = steadyState(jittered, 6, 20);
    expect(30 * s.mean).toBeGreaterThan(2 * noiseCeiling(s.mean, s.seconds));
  });

  it('stays smooth when pages ignore the jitter: the room spreads the due times itself', () => {
    const s = steadyState(unjittered, 6, 20);
    expect(unjittered.smoothness!.boundaryShare).toBeLessThan(0.2);
    expect(s.peak).toBeLessThan(noiseCeiling(s.mean, s.seconds));
  });
});
