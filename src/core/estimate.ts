// How long a waiting visitor should expect to wait, as percentiles of the wait they will really see.
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
  /** Seconds from now until the visitor's wait token expires (their first draw). */
  secondsUntilFirstDraw: number;
  /** The page comes back uniform(0, J) seconds after Retry-After. */
  jitterSeconds: number;
}

/** J = min(d, 30): spreads one window's returns without ever pushing a return into the next window. */
export function jitterSeconds(config: Pick<Config, 'waitPeriodSeconds'>): number {
  return Math.min(config.waitPeriodSeconds, 30);
}

/**
 * The model. Each draw wins with P = allow_percentage / 100, independently (each token's signature is
 * a fresh number), so the number of draws K is geometric: Pr(K <= k) = 1 - (1 - P)^k, which gives the
 * random-queue formula n = ln(1 - p) / ln(1 - P) for the draws needed with chance p.
 * When the draws happen: the visitor comes back at its token's expiry plus U ~ uniform(0, J); a loser's
 * new token expires at the next boundary, one window d after the last one (J <= d keeps the return
 * inside that window), so the k-th draw happens at  first + (k - 1)·d + U_k.
 * The wait W = first + (K - 1)·d + U_K is a mixture of non-overlapping uniform pieces, one per k, and its
 * percentile is exact: find the k whose probability mass holds p, then go the remaining fraction of
 * the way through that piece's jitter. (A plain ceil(n) would overstate short waits by up to a window.)
 */
export function estimateWait(input: EstimateInput): WaitEstimate | null {
  const P = input.allowPercentage / 100;
  if (!(P > 0)) return null; // nobody is admitted: no wait ends
  if (P >= 1) return { p25: 0, p50: 0, p75: 0 };
  const first = Math.max(0, input.secondsUntilFirstDraw);
  const d = input.waitPeriodSeconds;
  const J = Math.max(0, Math.min(input.jitterSeconds, d));
  const lose = Math.log1p(-P);
  const at = (p: number): number => {
    // Smallest k with Pr(K <= k) >= p.
    const k = Math.max(1, Math.ceil(Math.log1p(-p) / lose - 1e-9));
    const before = 1 - Math.pow(1 - P, k - 1); // Pr(K <= k - 1)
    const mass = Math.pow(1 - P, k - 1) * P; // Pr(K = k)
    const fraction = Math.min(1, Math.max(0, (p - before) / mass));
    return Math.round(first + (k - 1) * d + fraction * J);
  };
  return { p25: at(0.25), p50: at(0.5), p75: at(0.75) };
}
