// The deny page's crowd when a closed room opens: they come back at their page's next check, and the
// draw plan forecasts them from the denials counted by window.
import { describe, expect, it } from 'vitest';
import { denyPageReturns, returnersBetween } from '../../../control/model/returning.js';
import { DENY_PAGE_TIMER } from '../../../src/core/decision/draw.js';

const D = 30;
const WAIT = DENY_PAGE_TIMER.seconds;
const JITTER = DENY_PAGE_TIMER.jitterSeconds;

describe('the deny page crowd', () => {
  it('brings each window of denials back over its page timer, all of them', () => {
    const returning = denyPageReturns(new Map([[0, 300]]), D, 10);
    expect(returning).toEqual([{ fromSec: WAIT, toSec: D + WAIT + JITTER, count: 300 }]);
    expect(returnersBetween(returning, 0, 10_000)).toBeCloseTo(300);
    // Spread evenly: a third of the span brings a third of them.
    const span = D + JITTER;
    expect(returnersBetween(returning, WAIT, WAIT + span / 3)).toBeCloseTo(100);
    expect(returnersBetween(returning, 0, WAIT)).toBe(0);
  });

  it('counts only the share still to come of a window whose returns have begun, and none of one that is over', () => {
    const span = D + JITTER;
    const halfway = WAIT + span / 2;
    const returning = denyPageReturns(
      new Map([
        [0, 200],
        [-1000, 50],
      ]),
      D,
      halfway,
    );
    expect(returning).toHaveLength(1);
    expect(returning[0]!.fromSec).toBe(halfway);
    expect(returning[0]!.count).toBeCloseTo(100);
  });

  it('adds up several windows where they overlap', () => {
    const returning = denyPageReturns(
      new Map([
        [0, 90],
        [D, 90],
      ]),
      D,
      0,
    );
    expect(returnersBetween(returning, 0, 10_000)).toBeCloseTo(180);
    // [WAIT + D, WAIT + D + JITTER) lies in both windows' spans.
    const both = returnersBetween(returning, WAIT + D, WAIT + D + 10);
    const first = returnersBetween([returning[0]!], WAIT + D, WAIT + D + 10);
    expect(both).toBeCloseTo(2 * first);
  });
});
