// The correction by cohort. When a cohort's chance is fixed, the plan expects so many draws of it: of
// the tickets whose draw numbers it knows (issued, or named as successors in the log), and of the
// mass it does not know yet (new visitors still to come, holders back late, successors nobody named).
// When the cohort closes, after its window of grace, the ledger says how many of each came, late ones
// included. The cohorts now being planned are scaled, part by part, by what came of the last closed
// ones: a crowd of late returners growing impatient draws less than the return rates say, and a
// cohort's own count, hundreds of draws, says it with less noise than a window's few dozen admissions.
// New visitors still to come are kept out of it, expected and drawn: how many come is a forecast of
// the arrival rate, whose error changes with every surge, not a trait of the crowd that waits; scaled
// by what came of the last cohorts' arrivals, a checkout fed by a sale's admissions was planned on a
// surge already over (two-rooms, seed 1: a minute 19% over).
import type { CohortView } from './law.js';
import type { ClosedCohort } from './ledger.js';

/** What the plan expected of a firm cohort, before this correction. */
export interface PlannedCohort {
  /** The ids of the tickets whose numbers it knew. */
  known: Set<string>;
  /** Their expected draws, and those of the rest (new visitors still to come left out). */
  knownDraws: number;
  otherDraws: number;
  /** When it was planned (ms): a new visitor's ticket issued since was not in the plan's view by number. */
  atMs: number;
}

/** A closed cohort: the draws expected of each part, and the draws that came. */
export interface CountedCohort {
  knownDraws: number;
  knownDrawn: number;
  otherDraws: number;
  otherDrawn: number;
}

export interface CohortDrawsState {
  /** Firm cohorts not closed yet, by window start. */
  planned: Map<number, PlannedCohort>;
  /** The last closed cohorts, by window start. */
  counted: Map<number, CountedCohort>;
  /**
   * Whether a closed cohort has taught the return rates yet. A cohort planned before then was planned
   * on the rates' defaults: held against the learned ones, its shortfall would be corrected twice.
   */
  ratesLearned: boolean;
  /** The first window fixed once they were (null before): windows before it were planned on the defaults. */
  learnedFrom: number | null;
}

export const initialCohortDraws = (): CohortDrawsState => ({
  planned: new Map(),
  counted: new Map(),
  ratesLearned: false,
  learnedFrom: null,
});

/** The most closed cohorts kept, and the expected draws a part's correction reads at least (newest cohorts first). */
const KEPT = 6;
const ENOUGH = 150;
/** Fewer expected draws than this, over every cohort kept, correct nothing. */
const TOO_FEW = 30;

/** Keeps what the plan expected of cohort `c` (its view before this correction) as its chance is fixed. */
export function planCohort(state: CohortDrawsState, c: number, view: CohortView, atMs: number): void {
  if (!state.ratesLearned) return;
  state.learnedFrom ??= c;
  const known = new Set<string>();
  let knownDraws = 0;
  for (const k of view.known) {
    if (k.id !== undefined) known.add(k.id);
    knownDraws += k.weight;
  }
  state.planned.set(c, { known, knownDraws, otherDraws: view.unknown - (view.fresh ?? 0), atMs });
}

/** Counts a closed cohort against what was expected of it. */
export function countCohort(state: CohortDrawsState, closed: ClosedCohort): void {
  const planned = state.planned.get(closed.exp);
  if (planned === undefined) return;
  state.planned.delete(closed.exp);
  let knownDrawn = 0;
  for (const id of closed.drawnIds) if (planned.known.has(id)) knownDrawn++;
  // New visitors who came after the plan: neither part (above).
  let freshDrawn = 0;
  for (const [id, a] of closed.drawnArrivals) if (a.ms >= planned.atMs && !planned.known.has(id)) freshDrawn += a.w;
  state.counted.set(closed.exp, {
    knownDraws: planned.knownDraws,
    knownDrawn,
    otherDraws: planned.otherDraws,
    otherDrawn: Math.max(0, closed.drawnWeight - knownDrawn - freshDrawn),
  });
  for (const w of [...state.counted.keys()].sort((a, b) => b - a).slice(KEPT)) state.counted.delete(w);
}

/**
 * The scale of each part of a cohort's view: what came of that part lately over what was expected,
 * within 0.3 to 2. Not 0.5: in held-late's last minutes the queue's background tabs drew 0.4 to 0.5
 * of what was expected of them, and a floor of 0.5 left the last minute short.
 */
export function cohortScales(state: CohortDrawsState): { known: number; other: number } {
  const newestFirst = [...state.counted].sort((a, b) => b[0] - a[0]).map(([, c]) => c);
  const scale = (expected: (c: CountedCohort) => number, drawn: (c: CountedCohort) => number): number => {
    let e = 0;
    let n = 0;
    for (const c of newestFirst) {
      if (e >= ENOUGH) break;
      e += expected(c);
      n += drawn(c);
    }
    return e >= TOO_FEW ? Math.min(2, Math.max(0.3, n / e)) : 1;
  };
  return {
    known: scale(
      (c) => c.knownDraws,
      (c) => c.knownDrawn,
    ),
    other: scale(
      (c) => c.otherDraws,
      (c) => c.otherDrawn,
    ),
  };
}

/** The view as the correction sees it: its known tickets' weights and its unknown mass but new visitors to come, scaled. */
export function scaledView(view: CohortView, scales: { known: number; other: number }): CohortView {
  if (scales.known === 1 && scales.other === 1) return view;
  const fresh = view.fresh ?? 0;
  return {
    known: view.known.map((k) => ({ ...k, weight: k.weight * scales.known })),
    unknown: (view.unknown - fresh) * scales.other + fresh,
    fresh,
  };
}

/** Forgets cohorts that can no longer close (window start before `beforeSec`). */
export function pruneCohortDraws(state: CohortDrawsState, beforeSec: number): void {
  for (const w of state.planned.keys()) if (w < beforeSec) state.planned.delete(w);
}

/** The state file's form: planned cohorts with their known ids, counted ones as numbers. */
export interface CohortDrawsSaved {
  /** [window, known ids, known draws, other draws, planned at ms (absent in an older file)]. */
  planned: [number, string[], number, number, number?][];
  counted: [number, number, number, number, number][];
  ratesLearned: boolean;
  learnedFrom: number | null;
}

export const saveCohortDraws = (s: CohortDrawsState): CohortDrawsSaved => ({
  planned: [...s.planned].map(([w, p]) => [w, [...p.known], p.knownDraws, p.otherDraws, p.atMs]),
  counted: [...s.counted].map(([w, c]) => [w, c.knownDraws, c.knownDrawn, c.otherDraws, c.otherDrawn]),
  ratesLearned: s.ratesLearned,
  learnedFrom: s.learnedFrom,
});

/** Back from the state file; a state saved before the correction reads as none planned or counted. */
export const restoreCohortDraws = (saved: CohortDrawsSaved | undefined): CohortDrawsState =>
  saved === undefined
    ? initialCohortDraws()
    : {
        planned: new Map(
          // Planned before new visitors were kept apart: none counted as such.
          saved.planned.map(([w, known, knownDraws, otherDraws, atMs]) => [
            w,
            { known: new Set(known), knownDraws, otherDraws, atMs: atMs ?? Number.POSITIVE_INFINITY },
          ]),
        ),
        counted: new Map(
          saved.counted.map(([w, knownDraws, knownDrawn, otherDraws, otherDrawn]) => [
            w,
            { knownDraws, knownDrawn, otherDraws, otherDrawn },
          ]),
        ),
        ratesLearned: saved.ratesLearned,
        learnedFrom: saved.learnedFrom,
      };
