// The correction by cohort: what came of the draws the plan expected of each closed cohort, late ones
// included, scales the cohorts planned next, part by part (the tickets it knows, the mass it does not).
import { describe, expect, it } from 'vitest';
import {
  cohortScales,
  countCohort,
  initialCohortDraws,
  planCohort,
  restoreCohortDraws,
  saveCohortDraws,
  scaledView,
} from '../../../control/model/cohort-draws.js';
import type { Candidate } from '../../../control/model/law.js';
import { Ledger, type ClosedCohort } from '../../../control/model/ledger.js';
import { planWindows } from '../../../control/model/plan.js';

const D = 20;
const C = 1_800_000_000 - (1_800_000_000 % D);

/** A cohort the plan knows 200 tickets of (each expected back at 0.8) and 300 more it does not. */
const known: Candidate[] = Array.from({ length: 200 }, (_, i) => ({ u: (i + 0.5) / 200, weight: 0.8, id: `k${i}` }));
const view = { known, unknown: 300 };

/** The cohort closed: `fromKnown` of the known tickets drew, and `others` draws besides. */
const closed = (exp: number, fromKnown: number, others: number): ClosedCohort => ({
  exp,
  size: 0,
  drawn: fromKnown + others,
  drawnWeight: fromKnown + others,
  drawnIds: [...known.slice(0, fromKnown).map((k) => k.id!), ...Array.from({ length: others }, (_, i) => `o${i}`)],
  drawnArrivals: new Map(),
  reissued: new Map(),
});

/** The correction's state once the return rates have been learned from a closed cohort. */
function learned() {
  const state = initialCohortDraws();
  state.ratesLearned = true;
  return state;
}

describe('the correction by cohort', () => {
  it('scales each part of the next cohorts by what came of it: 190 of 160 known, 150 of 300 others', () => {
    const state = learned();
    planCohort(state, C, view, 0);
    countCohort(state, closed(C, 190, 150));
    const scales = cohortScales(state);
    expect(scales.known).toBeCloseTo(190 / 160, 6);
    expect(scales.other).toBeCloseTo(0.5, 6);
  });

  it('leaves new visitors still to come out of it, expected and drawn: a surge over says nothing of the crowd that waits', () => {
    const state = learned();
    // 300 unknown, 200 of them new visitors still to come when it was planned (at 1,000 ms).
    planCohort(state, C, { known, unknown: 300, fresh: 200 }, 1_000);
    // 150 others drew: 100 new visitors issued after the plan, one issued before it (its number was
    // known: a known ticket), and 49 more (late holders, successors nobody named): 50 of the 100 expected.
    const c = closed(C, 160, 150);
    for (let i = 0; i < 100; i++) c.drawnArrivals.set(`o${i}`, { ms: 1_000 + i, w: 1 });
    c.drawnArrivals.set('k0', { ms: 500, w: 1 });
    countCohort(state, c);
    expect(cohortScales(state).other).toBeCloseTo(0.5, 6);
    expect(cohortScales(state).known).toBeCloseTo(1, 6);
    // Scaled, the new visitors to come stay as forecast; the rest of the unknown mass is halved.
    const seen = scaledView({ known, unknown: 300, fresh: 200 }, cohortScales(state));
    expect(seen.unknown).toBeCloseTo(250, 6);
    expect(seen.fresh).toBe(200);
  });

  it('publishes a higher chance for a crowd that draws half as often as its return rate says, and expects the target of it', () => {
    // 1,000 holders back late a window still to come (reissued tickets), of whom the plan would expect every one to draw.
    const input = {
      ledger: new Ledger(),
      nowSec: C - 2 * D,
      d: D,
      wanted: () => 40,
      returnRate: 1,
      arrivalRate: 0,
      reissueRates: new Map([[2, 50]]),
      firm: new Map(),
    };
    const [plain] = planWindows(input, C, C);
    const [halved] = planWindows({ ...input, cohortScales: { known: 1, other: 0.5 } }, C, C);
    expect(plain!.pct).toBeCloseTo(4, 6);
    expect(halved!.pct).toBeCloseTo(8, 6);
    expect(halved!.expected).toBeCloseTo(40, 6);
    expect(halved!.drawing).toBeCloseTo(500, 6);
  });

  it('counts no cohort planned before the return rates were learned, and corrects nothing until one is counted', () => {
    const state = initialCohortDraws();
    planCohort(state, C, view, 0);
    countCohort(state, closed(C, 50, 50));
    expect(cohortScales(state)).toEqual({ known: 1, other: 1 });
    expect(state.learnedFrom).toBeNull();
    state.ratesLearned = true;
    planCohort(state, C + D, view, 0);
    expect(state.learnedFrom).toBe(C + D);
  });

  it('reads the newest cohorts first, as many as it takes for 150 expected draws of a part', () => {
    const state = learned();
    // An old cohort that drew half, then a newer one that drew all it was expected to.
    planCohort(state, C, view, 0);
    planCohort(state, C + D, view, 0);
    countCohort(state, closed(C, 80, 150));
    countCohort(state, closed(C + D, 160, 300));
    expect(cohortScales(state).known).toBeCloseTo(1, 6);
    expect(cohortScales(state).other).toBeCloseTo(1, 6);
  });

  it('keeps its counts across a restart, and a state saved before it reads as nothing counted', () => {
    const state = learned();
    planCohort(state, C, view, 0);
    planCohort(state, C + D, view, 0);
    countCohort(state, closed(C, 100, 200));
    const again = restoreCohortDraws(JSON.parse(JSON.stringify(saveCohortDraws(state))));
    expect(cohortScales(again)).toEqual(cohortScales(state));
    countCohort(again, closed(C + D, 100, 200));
    expect(cohortScales(again).known).toBeCloseTo((100 + 100) / 320, 6);
    expect(cohortScales(restoreCohortDraws(undefined))).toEqual({ known: 1, other: 1 });
  });
});
