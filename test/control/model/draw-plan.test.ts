// The draw plan's correction: the admissions wanted of a coming window are the target's share,
// divided by how far the recent queueing windows came from what their chances were planned to admit.
import { describe, expect, it } from 'vitest';
import { correctedShare } from '../../../control/model/draw-plan.js';

const D = 30;
/** 60 a minute in windows of 30 s. */
const SHARE = 30;
/** The window the plan is made in: the six before it are the recent ones. */
const NOW = 100 * D;

/** Recent windows by index (0: the first of the six before NOW; -1 the one before it), each with a firm chance, its plan and what it admitted. */
function recent(windows: Array<{ at: number; pct?: number; planned?: number; got: number }>) {
  const firm = new Map<number, number>();
  const plannedAdmissions = new Map<number, number>();
  const admissions = new Map<number, number>();
  for (const w of windows) {
    const start = NOW - (6 - w.at) * D;
    if (w.pct !== undefined) firm.set(start, w.pct);
    if (w.planned !== undefined) plannedAdmissions.set(start, w.planned);
    admissions.set(start, w.got);
  }
  return { firm, plannedAdmissions, admissions: (w: number) => admissions.get(w) ?? 0 };
}

/**
 * The open room's last window, then the room engaged: the first queued window admits 1.5 times its
 * plan (the open room's late drawers), the four after it their plan.
 */
const engagedAfter = (last: { pct?: number; planned?: number }) =>
  recent([
    { ...last, at: 0, got: 40 },
    { at: 1, pct: 12, planned: SHARE, got: 1.5 * SHARE },
    { at: 2, pct: 10, planned: SHARE, got: SHARE },
    { at: 3, pct: 9, planned: SHARE, got: SHARE },
    { at: 4, pct: 9, planned: SHARE, got: SHARE },
    { at: 5, pct: 8, planned: SHARE, got: SHARE },
  ]);

describe('the correction of the draw plan', () => {
  it("after the room engages, the first queued window's extra admissions (the open room's late drawers) do not lower the windows after it", () => {
    // The open room's last window had no firm chance at all, or a chance of 100.
    for (const last of [{}, { pct: 100 }, { pct: 100, planned: 40 }]) {
      const wanted = correctedShare(engagedAfter(last), NOW, D, SHARE);
      // What the law planned came true since: the target's share, not a cut for an overshoot it did not make.
      expect(wanted, JSON.stringify(last)).toBeGreaterThan(0.97 * SHARE);
      expect(wanted, JSON.stringify(last)).toBeLessThan(1.03 * SHARE);
    }
  });

  it('still corrects a real overshoot of the law: a window after a planned one is counted', () => {
    // The room has queued for seven windows, and the last six admitted 1.2 times their plan: the next want a sixth less.
    const queued = [-1, 0, 1, 2, 3, 4, 5].map((at) => ({
      at,
      pct: 10,
      planned: SHARE,
      got: at < 0 ? SHARE : 1.2 * SHARE,
    }));
    expect(correctedShare(recent(queued), NOW, D, SHARE)).toBeCloseTo(SHARE / 1.2, 5);
  });

  it('reads a window planned before the share of the chance was known at that share: no error of the law to make up', () => {
    // Planned at the full chance, drawn at a fifth of it (nobody brought the proof): a fifth came.
    const fifth = recent([0, 1, 2, 3, 4, 5].map((at) => ({ at, pct: 40, planned: SHARE, got: SHARE / 5 })));
    expect(correctedShare(fifth, NOW, D, SHARE)).toBeCloseTo(SHARE / 0.67, 6);
    expect(correctedShare({ ...fifth, rescale: () => 0.2 }, NOW, D, SHARE)).toBeCloseTo(SHARE, 6);
  });

  it('makes up no shortfall of windows planned on the default return rates: a target is a rate, not a debt', () => {
    // The first three queued windows, planned before any cohort had closed, admitted 70% of their plan;
    // the three since, planned on the rates learned, their plan. Read together, the next windows were
    // asked 1.18 times the share, after the rates had already put the plan right.
    const early = recent(
      [-1, 0, 1, 2, 3, 4, 5].map((at) => ({ at, pct: 10, planned: SHARE, got: at < 3 ? 0.7 * SHARE : SHARE })),
    );
    expect(correctedShare(early, NOW, D, SHARE)).toBeGreaterThan(1.15 * SHARE);
    expect(correctedShare({ ...early, learnedFrom: NOW - 3 * D }, NOW, D, SHARE)).toBeCloseTo(SHARE, 6);
    // Before any window was planned on learned rates, the windows there are are read as before.
    expect(correctedShare({ ...early, learnedFrom: null }, NOW, D, SHARE)).toBeGreaterThan(1.15 * SHARE);
  });
});
