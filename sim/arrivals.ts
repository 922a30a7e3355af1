// The pieces every scenario's crowd is made of: who arrives when, how patient they are once queued,
// and how they browse once admitted.
import type { Random } from '../lib/random.js';
import type { Arrival, Behaviour, Group } from './visitors.js';

export const MINUTE = 60_000;

/** Patience once queued: median 10 minutes, a long tail both ways (some leave within two minutes). */
export function patience(rng: Random): number {
  return rng.logNormal(10 * MINUTE, 0.8);
}

/** Admitted visitors browse a page a minute on average for a session of median 150 s. */
export const browsing: Behaviour = { thinkSeconds: 60, sessionSecondsMedian: 150, jitter: true, horizonWindows: null };

/** An admitted visitor's session: log-normal around the behaviour's median, 30 s at least, ms. */
export function sessionMs(rng: Random, behaviour: Behaviour): number {
  return Math.max(30, rng.logNormal(behaviour.sessionSecondsMedian, 0.6)) * 1000;
}

/** The time to an admitted visitor's next page: exponential around the behaviour's think time, 2 s at least, ms. */
export function thinkMs(rng: Random, behaviour: Behaviour): number {
  return Math.max(2, rng.exponential(behaviour.thinkSeconds)) * 1000;
}

/** `count` arrivals spread over [from, to) with a density shaped by `shape` (identity: uniform). */
export function spread(
  rng: Random,
  count: number,
  from: number,
  to: number,
  group: Group = 'honest',
  shape = (u: number) => u,
): Arrival[] {
  const out: Arrival[] = [];
  for (let i = 0; i < count; i++) {
    out.push({ atMs: from + (to - from) * shape(rng.next()), group, patienceMs: patience(rng) });
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}
