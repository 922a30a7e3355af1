// The plan: for each coming window, the chance its cohort's draws will use. A window's chance is
// decided once, `leadSeconds` before it opens, so that it has reached every POP when the first of its
// tickets falls due; later windows get a forecast, rewritten at every write, that the waiting page
// uses for its estimate and that holds the room if the controller stops.
import type { Ledger } from './ledger.js';
import { chanceForCount, expectedAdmissions, type Candidate, type CohortView } from './law.js';
import { scaledView } from './cohort-draws.js';
import { returnersBetween, type Returning } from './returning.js';
import { drawValueOfId } from './ticket-id.js';

/** How fast the forecast lets the current arrival rate fade, seconds. */
export const ARRIVAL_FADE_SECONDS = 30;

export interface PlanInput {
  ledger: Ledger;
  nowSec: number;
  d: number;
  /** Admissions wanted in this window (target share, corrected, capped). */
  wanted: (window: number) => number;
  /** Chance a ticket's holder comes back to draw. */
  returnRate: number;
  /** The same for reissued tickets, by offset (`returnRate` for an offset not measured yet). */
  reissueReturnRates?: ReadonlyMap<number, number>;
  /** New visitors a second, lately. */
  arrivalRate: number;
  /** Chances already fixed, by window start (0..100). */
  firm: ReadonlyMap<number, number>;
  /** The deny page's crowd coming back after an opening. */
  returning?: readonly Returning[];
  /**
   * Tickets no successor named, issued to waiting visitors a second lately, by cohort offset (in
   * windows from the window they appear in): holders back after their grace window (ledger.ts).
   */
  reissueRates?: ReadonlyMap<number, number>;
  /**
   * The chance a window without a firm one is drawn at: allow_percentage as the edge has it (100
   * when absent). It matters for the window before the first planned one, whose losers come next.
   */
  defaultChance?: number;
  /**
   * The share of the published chance window `c`'s draws get (proof-share.ts): below 1 while a proof
   * of work is asked and some draws bring none. 1 when absent.
   */
  share?: (window: number) => number;
  /**
   * How far each part of a cohort's view is scaled before its chance is chosen: the tickets it knows
   * and the mass it does not, by what came of them in the last closed cohorts (cohort-draws.ts). 1 when absent.
   */
  cohortScales?: { known: number; other: number };
}

/**
 * What the controller expects of cohort `c` (window start), seen from now: the tickets it knows and
 * the mass it does not, of three kinds. (1) Tickets already issued for `c`: new visitors of window
 * c - 2d and losers of cohort c - d who drew already. (2) Successors of cohort c - d's undrawn tickets
 * whose numbers lie above that cohort's chance: they will lose, and the ticket they then get is known
 * by id. (3) Unknown: new visitors still to come in window c - 2d (also kept apart as `fresh`), and losers whose successor was
 * never logged (tickets from before the controller started), and the crowd a sampled log's weighted
 * tickets stand for.
 */
export function cohortView(
  input: PlanInput,
  c: number,
  previousChance: number,
  previousView: CohortView | null,
): CohortView {
  const { ledger, returnRate: r, d, nowSec } = input;
  const known: Candidate[] = [];
  let unknown = 0;
  for (const id of ledger.cohorts.get(c) ?? []) {
    const t = ledger.tickets.get(id)!;
    if (t.drawn) continue;
    // A sampled ticket (weight w > 1) stands for w tickets whose numbers nobody knows: its own number
    // says little of theirs (a chance placed by it would admit 0 or w of them), so it counts as w of
    // the crowd with numbers spread evenly, as visitors not seen yet do.
    if (t.w > 1) unknown += t.w * r;
    else known.push({ u: t.u, weight: r, id });
  }
  const p = previousChance / 100;
  if (previousView !== null) {
    for (const parent of previousView.known) {
      if (parent.u < p) continue;
      const child = parent.id === undefined ? undefined : ledger.successors.get(parent.id);
      // A successor already issued is one of this cohort's tickets, counted above.
      if (child !== undefined && ledger.tickets.has(child)) continue;
      const u = child === undefined ? null : drawValueOfId(child);
      if (u === null) unknown += parent.weight * r;
      else known.push({ u, weight: parent.weight * r, id: child });
    }
    // Unknown parts of the previous cohort lose at the same rate and come back.
    unknown += previousView.unknown * (1 - p) * r;
  }
  // New visitors of window c - 2d not seen yet. A window that starts later is a forecast: crowds
  // come in waves, so the current rate is assumed to fade (time constant ARRIVAL_FADE_SECONDS)
  // rather than to last forever; the estimate a page shows is refreshed at every check anyway.
  const arrivalsFrom = c - 2 * d;
  const remaining = Math.max(0, c - d - Math.max(nowSec, arrivalsFrom));
  const fade = arrivalsFrom > nowSec ? Math.exp(-(arrivalsFrom - nowSec) / ARRIVAL_FADE_SECONDS) : 1;
  // Kept apart as `fresh` too: only these come as new visitors' tickets, told apart when the cohort is counted.
  const fresh = input.arrivalRate * remaining * r * fade;
  unknown += fresh;
  // Holders back after their grace window: tickets for this cohort from the part of the window they
  // appear in not read yet. They come from the crowd that waits, which is known to be there: no fade.
  for (const [k, rate] of input.reissueRates ?? []) {
    const from = c - k * d;
    unknown += rate * Math.max(0, from + d - Math.max(nowSec, from)) * (input.reissueReturnRates?.get(k) ?? r);
  }
  // The deny page's crowd, for the part of its return period in this cohort's arrival window not yet seen.
  if (input.returning) unknown += returnersBetween(input.returning, Math.max(arrivalsFrom, nowSec), c - d) * r;
  return { known, unknown, fresh };
}

export interface WindowPlan {
  start: number;
  /** The chance published (0..100). */
  pct: number;
  /** Expected admissions at that chance, as its draws get it (the published chance times the window's share). */
  expected: number;
  /** Expected tickets drawn (weighted cohort size). */
  drawing: number;
  /** The share of the chance its draws were expected to get (PlanInput.share). */
  share: number;
}

/**
 * Chances for windows `from` .. `to` (inclusive, window starts), in order, each from the views of the
 * ones before it: the firm ones as fixed, the others chosen for `wanted`. While the draws get only a
 * share f of the chance (a proof of work some do not bring), the chance the law needs is published
 * as needed / f (at most 100), and each window is expected, and its losers followed, at the chance
 * its draws get: published x f.
 */
export function planWindows(
  input: PlanInput,
  from: number,
  to: number,
  onView?: (c: number, view: CohortView) => void,
): WindowPlan[] {
  const out: WindowPlan[] = [];
  const d = input.d;
  const share = (c: number): number => Math.min(1, Math.max(0.001, input.share?.(c) ?? 1));
  const scales = input.cohortScales ?? { known: 1, other: 1 };
  // The cohort before `from`, for its losers: its own chance is firm or taken as the first decision.
  let prevChance = (input.firm.get(from - d) ?? input.defaultChance ?? 100) * share(from - d);
  let prevView: CohortView | null = cohortView(input, from - d, 100, null);
  for (let c = from; c <= to; c += d) {
    const view = cohortView(input, c, prevChance, prevView);
    onView?.(c, view);
    // The next cohort's view follows this one's as the return rates see it; the chance, the cohort as corrected.
    const seen = scaledView(view, scales);
    const f = share(c);
    const firm = input.firm.get(c);
    const pct = firm ?? Math.min(100, chanceForCount(seen, input.wanted(c)) / f);
    const got = pct * f;
    const drawing = seen.known.reduce((s, k) => s + k.weight, 0) + seen.unknown;
    out.push({ start: c, pct, expected: expectedAdmissions(seen, got / 100), drawing, share: f });
    prevChance = got;
    prevView = view;
  }
  return out;
}
