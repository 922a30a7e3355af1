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
  const known = [...view.known].sort((a, b) => a.u - b.u);
  const total = known.reduce((s, c) => s + c.weight, 0) + view.unknown;
  if (total <= wanted) return 100;
  let below = 0; // weight of known tickets under the current segment's start
  let from = 0;
  for (let i = 0; i <= known.length; i++) {
    const to = i < known.length ? known[i]!.u : 1;
    // Inside (from, to] only the unknown mass grows, continuously.
    const atTo = below + view.unknown * to;
    if (atTo >= wanted) {
      const p = view.unknown > 0 ? (wanted - below) / view.unknown : to;
      return 100 * Math.min(to, Math.max(from, p));
    }
    if (i === known.length) break;
    const next = atTo + known[i]!.weight;
    if (next >= wanted) {
      // The next ticket crosses the target: take it if that lands nearer, else stop just before it.
      const take = next - wanted <= wanted - atTo;
      const after = i + 1 < known.length ? known[i + 1]!.u : 1;
      return 100 * (take ? (to + after) / 2 : (from + to) / 2);
    }
    below += known[i]!.weight;
    from = to;
  }
  return 100;
}
