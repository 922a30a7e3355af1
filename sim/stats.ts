// The few statistics the report needs. Each is a textbook formula; they live here so the figures and
// the tests compute them one way.

const Z95 = 1.959963984540054;

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Ranks with ties given their average rank (needed: many visitors share an admission second). */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k]![1]] = avg;
    i = j + 1;
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 2) return null;
  const mx = mean(x)!;
  const my = mean(y)!;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Spearman's rank correlation: 1 = strict first-come-first-served, 0 = order carries no information. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  return pearson(ranks(x), ranks(y));
}

export interface Interval {
  value: number;
  low: number;
  high: number;
}

/** Wilson score interval for a proportion: honest near 0 and 1, where the normal interval is not. */
export function wilson(successes: number, trials: number): Interval | null {
  if (trials === 0) return null;
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denom;
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Ratio of two proportions (group a over reference b) with the Katz log interval. When a has no
 * successes the ratio is 0 and the upper end falls back to Wilson's upper bound over b's rate.
 */
export function riskRatio(aWins: number, aTrials: number, bWins: number, bTrials: number): Interval | null {
  if (aTrials === 0 || bTrials === 0 || bWins === 0) return null;
  const pa = aWins / aTrials;
  const pb = bWins / bTrials;
  if (aWins === 0) return { value: 0, low: 0, high: wilson(0, aTrials)!.high / pb };
  const se = Math.sqrt(1 / aWins - 1 / aTrials + 1 / bWins - 1 / bTrials);
  const ratio = pa / pb;
  return { value: ratio, low: ratio * Math.exp(-Z95 * se), high: ratio * Math.exp(Z95 * se) };
}

/**
 * Kaplan-Meier quantiles of waiting time. Visitors who give up (or are still waiting when the run ends)
 * are censored, not dropped: dropping them would make the observed waits look shorter than they are.
 */
export function survivalQuantiles(
  samples: readonly { time: number; admitted: boolean }[],
  qs: readonly number[],
): (number | null)[] {
  const sorted = [...samples].sort((a, b) => a.time - b.time || Number(b.admitted) - Number(a.admitted));
  let atRisk = sorted.length;
  let survival = 1;
  const out: (number | null)[] = qs.map(() => null);
  let i = 0;
  while (i < sorted.length) {
    const t = sorted[i]!.time;
    let events = 0;
    let leaving = 0;
    while (i < sorted.length && sorted[i]!.time === t) {
      if (sorted[i]!.admitted) events++;
      leaving++;
      i++;
    }
    if (events > 0) {
      survival *= 1 - events / atRisk;
      qs.forEach((q, k) => {
        if (out[k] === null && 1 - survival >= q) out[k] = t;
      });
    }
    atRisk -= leaving;
  }
  return out;
}
