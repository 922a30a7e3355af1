// The statistics of an A/B comparison, each deterministic (no resampling, nothing random), 95% by default:
//
// - a share (visitors who left, visitors admitted): Wilson's score interval;
// - the difference of two shares: Newcombe's hybrid score interval (his method 10, from the two Wilson
//   intervals; Newcombe 1998, Statistics in Medicine 17:873-890);
// - a median: the distribution-free order-statistic interval, the sorted values at ranks
//   round((n - z sqrt(n)) / 2) and n + 1 minus it;
// - the difference of two medians: Bonett and Price's interval (2002, Psychological Methods 7:370-383),
//   the difference plus or minus z times a standard error each median takes from two of its order statistics.
//
// test/report/ab-stats.test.ts holds each to the published values.

export interface Interval {
  low: number;
  high: number;
}

/** The standard normal's two-sided 95% point. */
export const Z95 = 1.959963984540054;

// Acklam's rational approximation of the normal quantile (relative error under 1.2e-9).
const A = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
];
const B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const C = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
const P_LOW = 0.02425;

const poly = (coefficients: readonly number[], x: number): number => coefficients.reduce((sum, c) => sum * x + c, 0);

/** The standard normal's quantile: the z with P(Z <= z) = p, for 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p <= 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (p < P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(C, q) / (poly(D, q) * q + 1);
  }
  if (p > 1 - P_LOW) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(A, r) * q) / (poly(B, r) * r + 1);
}

/** P(X <= k) for X binomial with n trials of chance 1/2, summed in logs (n up to millions). */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  const log2n = n * Math.LN2;
  let logChoose = 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += Math.exp(logChoose - log2n);
    logChoose += Math.log((n - i) / (i + 1));
  }
  return Math.min(1, sum);
}

/** Wilson's score interval for `x` of `n`; null when n is 0. */
export function wilson(x: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  const z2 = z * z;
  const centre = (x + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt((x * (n - x)) / n + z2 / 4)) / (n + z2);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Newcombe's hybrid score interval for x1/n1 - x2/n2; null when either n is 0. */
export function shareDifference(x1: number, n1: number, x2: number, n2: number, z = Z95): Interval | null {
  const w1 = wilson(x1, n1, z);
  const w2 = wilson(x2, n2, z);
  if (w1 === null || w2 === null) return null;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const d = p1 - p2;
  return {
    low: d - Math.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2),
    high: d + Math.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2),
  };
}

/** The median of values sorted ascending (the mean of the middle two for an even count); null when none. */
export function median(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The 1-based rank `r` of values sorted ascending, clamped to those there are. */
const at = (sorted: readonly number[], r: number): number => sorted[Math.min(sorted.length, Math.max(1, r)) - 1]!;

/** The distribution-free interval of a median (values sorted ascending); null when none. */
export function medianInterval(sorted: readonly number[], z = Z95): Interval | null {
  const n = sorted.length;
  if (n === 0) return null;
  const c = Math.max(1, Math.round((n - z * Math.sqrt(n)) / 2));
  return { low: at(sorted, c), high: at(sorted, n - c + 1) };
}

/** Bonett and Price's standard error of a median, from the sorted values' ranks round(n/2 - sqrt(n)) and n + 1 minus it. */
export function medianStandardError(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const a = Math.max(1, Math.round(n / 2 - Math.sqrt(n)));
  const z0 = normalQuantile(1 - binomialHalfCdf(a - 1, n));
  return (at(sorted, n - a + 1) - at(sorted, a)) / (2 * z0);
}

/** The difference of two medians (values sorted ascending) with Bonett and Price's interval; null when either has none. */
export function medianDifference(
  sorted1: readonly number[],
  sorted2: readonly number[],
  z = Z95,
): { difference: number; standardError: number; interval: Interval } | null {
  const m1 = median(sorted1);
  const m2 = median(sorted2);
  const se1 = medianStandardError(sorted1);
  const se2 = medianStandardError(sorted2);
  if (m1 === null || m2 === null || se1 === null || se2 === null) return null;
  const difference = m1 - m2;
  const standardError = Math.sqrt(se1 ** 2 + se2 ** 2);
  return {
    difference,
    standardError,
    interval: { low: difference - z * standardError, high: difference + z * standardError },
  };
}
