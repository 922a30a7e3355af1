// The place in line a page shows (src/core/decision/position.ts, docs/events.md): never more visitors ahead
// than the controller's published counts hold, whatever the target rate over the turn says.
import { describe, expect, it } from 'vitest';
import { countBelow, shownPlace } from '../../../src/core/decision/position.js';
import type { Config, QueueCount } from '../../../src/core/types.js';

const START = Date.UTC(2026, 11, 1, 10, 0, 0) / 1000;

function config(
  counts: QueueCount[],
  speed: number,
  newUsersPerMinute: number | null,
): Pick<Config, 'queueCursor' | 'queueCounts' | 'waitPeriodSeconds' | 'control'> {
  return {
    queueCursor: { at: START, pos: START - 1, speed },
    queueCounts: counts,
    waitPeriodSeconds: 10,
    control: {
      newUsersPerMinute,
      totalActiveUsers: null,
      sessionDurationMinutes: 10,
      fallbackPercentage: null,
      pace: { mode: 'manual', floorPerMinute: null, objective: { latencyMs: 800, percentile: 90, errorShare: 0.01 } },
    },
  };
}

describe('the place in line', () => {
  it('tells the only visitor of a pre-queue that nobody is ahead, not the target rate over the turn', () => {
    // Just after the start, target 600 a minute: the cursor crosses the pre-queue's second in 10 s,
    // and the controller's counts hold one visitor, this one.
    const c = config(
      [
        { pos: START - 1, count: 0 },
        { pos: START, count: 1 },
      ],
      0.1,
      600,
    );
    const shown = shownPlace({ pos: START - 1 + 0.9, cursor: START - 1 + 0.05 }, c, 5)!;
    expect(shown.turnSeconds).toBeGreaterThan(8);
    expect(shown.ahead).toBe(0);
  });

  it('counts the visitors placed ahead, not the visitor themself', () => {
    // Three known places: the third has two ahead of it.
    const counts = [
      { pos: START - 1, count: 0 },
      { pos: START - 0.7, count: 1 },
      { pos: START - 0.4, count: 2 },
      { pos: START - 0.1, count: 3 },
    ];
    const c = config(counts, 0.01, 600);
    expect(shownPlace({ pos: START - 0.1, cursor: START - 1 }, c, 5)!.ahead).toBe(2);
    expect(shownPlace({ pos: START - 0.7, cursor: START - 1 }, c, 5)!.ahead).toBe(0);
    // Without a target, the same counts.
    expect(shownPlace({ pos: START - 0.1, cursor: START - 1 }, config(counts, 0.01, null), 5)!.ahead).toBe(2);
  });

  it('keeps the target rate over the turn when fewer will come in than are counted', () => {
    // 4,000 counted ahead, but at 60 a minute only about the turn's worth come in first.
    const c = config(
      [
        { pos: START - 1, count: 0 },
        { pos: START, count: 4000 },
      ],
      0.01,
      60,
    );
    const shown = shownPlace({ pos: START - 0.5, cursor: START - 1 }, c, 5)!;
    expect(shown.ahead).toBe(Math.round((shown.turnSeconds! * 60) / 60));
    expect(shown.ahead).toBeLessThan(countBelow(c.queueCounts, START - 0.5));
  });
});
