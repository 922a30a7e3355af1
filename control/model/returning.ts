// The deny page's crowd: visitors the closed room turned away come back at their page's next check
// once the operator opens it. The controller sees them only as they arrive, so the draw plan
// (draw-plan.ts) forecasts them on their own, from the denials it counted by window.
import { DENY_PAGE_TIMER } from '../../src/core/decision/index.js';

/** What the return rates own of the model's state: who comes back, and how many do, as learned. */
export interface ReturnsState {
  /** The last second the pre-queue was draining (cohorts drawn before then tell nothing of returns). */
  drainSeenSec: number;
  /** The deny page's crowd coming back since the room last opened. */
  returning: Returning[];
  /** The chance a ticket's holder comes back to draw, as learned from closed cohorts. */
  returnRate: number;
  /** The same for tickets no successor named, by their cohort's offset from the window they appear in (ledger.ts). */
  reissueReturnRates: Map<number, number>;
}

export const initialReturns = (): ReturnsState => ({
  drainSeenSec: Number.NEGATIVE_INFINITY,
  returning: [],
  returnRate: 0.95,
  reissueReturnRates: new Map(),
});

/**
 * Visitors the deny page held when the room opened come back at their page's next check: `count` of
 * them spread evenly over [fromSec, toSec). The controller sees them only as they arrive.
 */
export interface Returning {
  fromSec: number;
  toSec: number;
  count: number;
}

const { seconds: DENY_WAIT, jitterSeconds: DENY_JITTER } = DENY_PAGE_TIMER;

/**
 * The deny page's crowd when the room opens at `nowSec`, from its denials by window: the deny pages of
 * a window w come back in [w + wait, w + d + wait + jitter), and each visitor who had one in the last
 * check period is behind one of them (their last).
 */
export function denyPageReturns(denials: ReadonlyMap<number, number>, d: number, nowSec: number): Returning[] {
  const returning: Returning[] = [];
  for (const [w, count] of denials) {
    const from = w + DENY_WAIT;
    const to = w + d + DENY_WAIT + DENY_JITTER;
    if (to <= nowSec) continue;
    // Of a window whose returns have begun, only the share still to come (the rest came back
    // to the deny page already, and are counted by their later line).
    const share = from >= nowSec ? 1 : (to - nowSec) / (to - from);
    returning.push({ fromSec: Math.max(nowSec, from), toSec: to, count: count * share });
  }
  return returning;
}

/** Returners expected in [from, to) (seconds). */
export function returnersBetween(returning: readonly Returning[], from: number, to: number): number {
  let sum = 0;
  for (const r of returning) {
    const a = Math.max(from, r.fromSec);
    const b = Math.min(to, r.toSec);
    if (b > a) sum += (r.count * (b - a)) / (r.toSec - r.fromSec);
  }
  return sum;
}
