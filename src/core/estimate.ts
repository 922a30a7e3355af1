// How long a waiting visitor should expect to wait, as percentiles of the wait they will really see.
import { dueSpreadSeconds, jitterSeconds } from './draw.js';
import type { Config } from './types.js';

export interface WaitEstimate {
  p25: number;
  p50: number;
  p75: number;
}

export interface EstimateInput {
  /** 0..100 */
  allowPercentage: number;
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
 * When the draws happen: the first at the held token's due time plus the page jitter U ~ uniform(0, J);
 * a loser's next token expires at the next boundary, one window d later, and falls due at its own
 * offset O (a whole second in [0, S)), independent of the last, and the page is back at the first whole
 * second of Retry-After after that: O plus that rounding is uniform[0, S). So with E = time until the
 * held token's expiry and first = the held token's Retry-After,
 *   W = first + U_1                            (K = 1)
 *   W = E + (K - 1)·d + uniform[0, S) + U_K     (K >= 2)
 * Each piece lies inside its own window (S + J <= d), so the pieces do not overlap and a percentile is
 * exact: find the k whose probability mass holds p, then go the remaining fraction of the way through
 * that piece (uniform for k = 1, the sum of two uniforms after).
 */
export function estimateWait(input: EstimateInput): WaitEstimate | null {
  const P = input.allowPercentage / 100;
  if (!(P > 0)) return null; // nobody is admitted: no wait ends
  if (P >= 1) return { p25: 0, p50: 0, p75: 0 };
  const d = input.waitPeriodSeconds;
  const J = Math.max(0, Math.min(input.jitterSeconds, d));
  const S = Math.max(0, Math.min(input.spreadSeconds ?? dueSpreadSeconds({ waitPeriodSeconds: d }), d - J));
  const untilDue = Math.max(0, input.secondsUntilFirstDraw);
  // Retry-After is whole seconds, so the page is back at the first second boundary after the due time.
  const first = Math.ceil(untilDue - 1e-9);
  // The offset is floor(u * S): a whole second, mean (S - 1) / 2.
  const expiry = Math.min(untilDue, input.secondsUntilExpiry ?? untilDue - Math.max(0, (S - 1) / 2));
  const lose = Math.log1p(-P);
  const at = (p: number): number => {
    // Smallest k with Pr(K <= k) >= p.
    const k = Math.max(1, Math.ceil(Math.log1p(-p) / lose - 1e-9));
    const before = 1 - Math.pow(1 - P, k - 1); // Pr(K <= k - 1)
    const mass = Math.pow(1 - P, k - 1) * P; // Pr(K = k)
    const fraction = Math.min(1, Math.max(0, (p - before) / mass));
    const wait = k === 1 ? first + fraction * J : expiry + (k - 1) * d + sumOfUniformsQuantile(S, J, fraction);
    return Math.max(0, Math.round(wait));
  };
  return { p25: at(0.25), p50: at(0.5), p75: at(0.75) };
}

/**
 * The wait a visitor holding a wait token can expect: due at `waitUntil`, expiring at `waitExpiry`
 * (epoch seconds). With no token (none could be signed), the visitor is back in one window as a new
 * visitor, whose token expires one to two windows on.
 */
export function estimateFor(
  config: Pick<Config, 'allowPercentage' | 'waitPeriodSeconds'>,
  waitUntil: number | null,
  waitExpiry: number | null,
  nowMs: number,
): WaitEstimate | null {
  const d = config.waitPeriodSeconds;
  const nowSec = nowMs / 1000;
  return estimateWait({
    allowPercentage: config.allowPercentage,
    waitPeriodSeconds: d,
    secondsUntilFirstDraw: waitUntil === null ? 2.5 * d + dueSpreadSeconds(config) / 2 : waitUntil - nowSec,
    secondsUntilExpiry: waitExpiry === null ? 2.5 * d : waitExpiry - nowSec,
    spreadSeconds: dueSpreadSeconds(config),
    jitterSeconds: jitterSeconds(config),
  });
}
