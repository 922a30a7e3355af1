// The control law's one calculation: the chance that admits a wanted number of a cohort's tickets.
// Tickets the controller knows come with their draw numbers, so the chance is a threshold through a
// sorted list, not a share of a crowd: a cohort of 10,000 with 300 wanted admits about 300, give or
// take the ones who do not come back, not 300 ± 17 by the luck of the draw.

export interface Candidate {
  /** Draw number in [0, 1). */
  u: number;
  /** Chance the holder comes back to draw (0..1). */
  weight: number;
  /** The ticket's id, when known. */
  id?: string;
}

export interface CohortView {
  known: Candidate[];
  /** Expected number of tickets whose numbers are not known yet (uniform in [0, 1)), weighted already. */
  unknown: number;
  /**
   * Of `unknown`, the new visitors still to come (a forecast from the arrival rate), when the view
   * keeps it apart: the correction by cohort (cohort-draws.ts) leaves it unscaled. 0 when absent.
   */
  fresh?: number;
}

/** Expected admissions at chance p (0..1). */
export function expectedAdmissions(view: CohortView, p: number): number {
  let sum = view.unknown * p;
  for (const c of view.known) if (c.u < p) sum += c.weight;
  return sum;
}

/**
 * The chance (0..100) whose expected admissions come nearest `wanted`: 100 when the whole cohort is
 * fewer, 0 when nothing is wanted. Between two known numbers the threshold sits halfway, so rounding
 * the published percentage cannot move a ticket across it.
 */
export function chanceForCount(view: CohortView, wanted: number): number {
  if (!(wanted > 0)) return 0;
  const total = view.known.reduce((s, c) => s + c.weight, 0) + view.unknown;
  if (total <= wanted) return 100;
  // A million tickets cannot be sorted every second: bucket the numbers first, then sort only the
  // bucket where the target falls. The answer is the one a full sort gives.
  const B = Math.max(1, Math.min(65_536, view.known.length >> 4));
  const weights = new Float64Array(B);
  for (const c of view.known) weights[Math.min(B - 1, Math.floor(c.u * B))]! += c.weight;
  let below = 0;
  let b = 0;
  for (; b < B - 1; b++) {
    const end = below + weights[b]! + (view.unknown * (b + 1)) / B;
    if (end >= wanted) break;
    below += weights[b]!;
  }
  const from = b / B;
  const inBucket = view.known.filter((c) => Math.min(B - 1, Math.floor(c.u * B)) === b).sort((x, y) => x.u - y.u);
  return walk(inBucket, view.unknown, wanted, below, from, b === B - 1 ? 1 : (b + 1) / B);
}

/**
 * Through `known` (sorted, all in [from, to)), with `below` weight of known tickets under `from`:
 * the threshold nearest `wanted`. Between two known numbers the threshold sits halfway, so rounding
 * the published percentage cannot move a ticket across it.
 */
function walk(known: Candidate[], unknown: number, wanted: number, below: number, from: number, to: number): number {
  let lo = from;
  for (let i = 0; i <= known.length; i++) {
    const hi = i < known.length ? known[i]!.u : to;
    // Inside (lo, hi] only the unknown mass grows, continuously.
    const atHi = below + unknown * hi;
    if (atHi >= wanted) {
      const p = unknown > 0 ? (wanted - below) / unknown : hi;
      return 100 * Math.min(hi, Math.max(lo, p));
    }
    if (i === known.length) break;
    const next = atHi + known[i]!.weight;
    if (next >= wanted) {
      // The next ticket crosses the target: take it if that lands nearer, else stop just before it.
      const take = next - wanted <= wanted - atHi;
      const after = i + 1 < known.length ? known[i + 1]!.u : to;
      return 100 * (take ? (hi + after) / 2 : (lo + hi) / 2);
    }
    below += known[i]!.weight;
    lo = hi;
  }
  return 100 * to;
}
