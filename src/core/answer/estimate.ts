// How long a waiting visitor should expect to wait, as percentiles of the wait they will really see.
import { chanceFor, dueSpreadSeconds, jitterSeconds } from '../decision/index.js';
import type { Config } from '../types.js';

export interface WaitEstimate {
  p25: number;
  p50: number;
  p75: number;
}

export interface EstimateInput {
  /** 0..100: the chance of every draw (after those in `chances`). */
  allowPercentage: number;
  /**
   * The chances (0..100) of the first draws, in order, when they differ: the controller publishes
   * each window's chance ahead (`allow_schedule`). Draws after these use `allowPercentage`.
   */
  chances?: readonly number[];
  waitPeriodSeconds: number;
  /** Seconds from now until the visitor's wait token falls due (their first draw). */
  secondsUntilFirstDraw: number;
  /**
   * Seconds from now until that token's expiry, the boundary its window starts at. Later draws are whole
   * windows after it. Default: the first draw minus half the spread (its mean offset).
   */
  secondsUntilExpiry?: number;
  /** S: later tokens fall due uniform [0, S) into their window. Default: the room's own for this d. */
  spreadSeconds?: number;
  /** The page comes back uniform(0, J) seconds after Retry-After. */
  jitterSeconds: number;
}

/** Quantile f of A + B with A ~ uniform[0, a), B ~ uniform[0, b) (a trapezoid), in closed form. */
function sumOfUniformsQuantile(a: number, b: number, f: number): number {
  const [long, short] = a >= b ? [a, b] : [b, a];
  if (long === 0) return 0;
  if (short === 0) return f * long;
  const ramp = short / (2 * long); // probability mass of each sloped end
  if (f <= ramp) return Math.sqrt(2 * long * short * f);
  if (f <= 1 - ramp) return long * f + short / 2;
  return long + short - Math.sqrt(2 * long * short * (1 - f));
}

/**
 * The model. Each draw wins with P = allow_percentage / 100, independently (each token's signature is
 * a fresh number), so the number of draws K is geometric: Pr(K <= k) = 1 - (1 - P)^k, which gives the
 * random-queue formula n = ln(1 - p) / ln(1 - P) for the draws needed with chance p.
 * When the draws happen: the first at the visitor's token's due time plus the page jitter U ~ uniform(0, J);
 * a loser's next token expires at the next boundary, one window d later, and falls due at its own
 * offset O (a whole second in [0, S)), independent of the last, and the page is back at the first whole
 * second of Retry-After after that: O plus that rounding is uniform[0, S). So with E = time until the
 * visitor's token's expiry and first = that token's Retry-After,
 *   W = first + U_1                            (K = 1)
 *   W = E + (K - 1)·d + uniform[0, S) + U_K     (K >= 2)
 * Each piece lies inside its own window (S + J <= d), so the pieces do not overlap and a percentile is
 * exact: find the k whose probability mass holds p, then go the remaining fraction of the way through
 * that piece (uniform for k = 1, the sum of two uniforms after).
 */
export function estimateWait(input: EstimateInput): WaitEstimate | null {
  const tail = input.allowPercentage / 100;
  const chances = (input.chances ?? []).map((c) => Math.min(1, Math.max(0, c / 100)));
  const d = input.waitPeriodSeconds;
  const J = Math.max(0, Math.min(input.jitterSeconds, d));
  const S = Math.max(0, Math.min(input.spreadSeconds ?? dueSpreadSeconds({ waitPeriodSeconds: d }), d - J));
  const untilDue = Math.max(0, input.secondsUntilFirstDraw);
  // Retry-After is whole seconds, so the page is back at the first second boundary after the due time.
  const first = Math.ceil(untilDue - 1e-9);
  // The offset is floor(u * S): a whole second, mean (S - 1) / 2.
  const expiry = Math.min(untilDue, input.secondsUntilExpiry ?? untilDue - Math.max(0, (S - 1) / 2));
  if (chances.length === 0 && tail >= 1) return { p25: 0, p50: 0, p75: 0 };
  const waitAt = (k: number, fraction: number): number =>
    Math.max(
      0,
      Math.round(k === 1 ? first + fraction * J : expiry + (k - 1) * d + sumOfUniformsQuantile(S, J, fraction)),
    );

  /** The draw k whose mass holds p, with Pr(K <= k - 1) and Pr(K = k); null when p is never reached. */
  const drawFor = (p: number): { k: number; before: number; mass: number } | null => {
    let survive = 1; // Pr(K > k - 1)
    for (let k = 1; k <= chances.length; k++) {
      const mass = survive * chances[k - 1]!;
      if (1 - survive + mass >= p && mass > 0) return { k, before: 1 - survive, mass };
      survive -= mass;
    }
    if (!(tail > 0) || survive <= 0) return null;
    if (tail >= 1) return { k: chances.length + 1, before: 1 - survive, mass: survive };
    // Past the listed draws every draw has chance `tail`: the closed form of the geometric tail.
    const lose = Math.log1p(-tail);
    const j = Math.max(1, Math.ceil(Math.log((1 - p) / survive) / lose - 1e-9));
    const before = 1 - survive * (1 - tail) ** (j - 1);
    return { k: chances.length + j, before, mass: survive * (1 - tail) ** (j - 1) * tail };
  };
  const at = (p: number): number | null => {
    const found = drawFor(p);
    if (found === null) return null;
    return waitAt(found.k, Math.min(1, Math.max(0, (p - found.before) / found.mass)));
  };
  const [p25, p50, p75] = [at(0.25), at(0.5), at(0.75)];
  // Nobody is admitted (or not three quarters ever): no wait to promise.
  if (p25 === null || p50 === null || p75 === null) return null;
  return { p25, p50, p75 };
}

/**
 * The wait a visitor holding a wait token can expect: due at `waitDueSec`, expiring at `waitExpirySec`
 * (epoch seconds). With no token (none could be signed), the visitor is back in one window as a new
 * visitor, whose token expires one to two windows on.
 */
export function estimateFor(
  config: Pick<Config, 'allowPercentage' | 'waitPeriodSeconds'> & Partial<Pick<Config, 'allowSchedule'>>,
  waitDueSec: number | null,
  waitExpirySec: number | null,
  nowMs: number,
): WaitEstimate | null {
  const d = config.waitPeriodSeconds;
  const nowSec = nowMs / 1000;
  // The chance of each coming draw, from the visitor's token's window on, as the draws will use them.
  const firstWindow = waitExpirySec ?? Math.floor(nowSec / d) * d + 2 * d;
  const schedule = config.allowSchedule ?? [];
  const last = schedule[schedule.length - 1];
  const chances: number[] = [];
  if (last !== undefined && config.allowPercentage > 0 && config.allowPercentage < 100) {
    for (let w = firstWindow; w < last.start && chances.length < 400; w += d)
      chances.push(chanceFor({ ...config, allowSchedule: schedule }, w));
  }
  const tail =
    config.allowPercentage <= 0 || config.allowPercentage >= 100
      ? config.allowPercentage
      : chanceFor({ ...config, allowSchedule: schedule }, Math.max(firstWindow, last?.start ?? 0));
  return estimateWait({
    allowPercentage: tail,
    chances,
    waitPeriodSeconds: d,
    secondsUntilFirstDraw: waitDueSec === null ? 2.5 * d + dueSpreadSeconds(config) / 2 : waitDueSec - nowSec,
    secondsUntilExpiry: waitExpirySec === null ? 2.5 * d : waitExpirySec - nowSec,
    spreadSeconds: dueSpreadSeconds(config),
    jitterSeconds: jitterSeconds(config),
  });
}
