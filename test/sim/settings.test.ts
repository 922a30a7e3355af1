// The operator's two levers: raising allow_percentage, and holding a crowd at 0 until an opening.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioFigures } from '../../sim/figures.js';
import type { RunResult } from '../../sim/run.js';
import { spearman } from '../../sim/stats.js';
import { briefSessions, run, scenario } from './support.js';

let change: ScenarioFigures;
let onsale: ScenarioFigures;
let onsaleRun: RunResult;

beforeAll(async () => {
  ({ figures: change } = await run(briefSessions(scenario('change')), 1500));
  ({ figures: onsale, result: onsaleRun } = await run(
    briefSessions(scenario('onsale', { durationMs: 25 * 60_000 })),
    1500,
  ));
}, 120_000);

describe('raising allow_percentage from 10 to 30 at minute 10', () => {
  it('raises the admission rate at once', () => {
    const [before, after] = change.phases;
    expect(before!.admissionsPerSecond).toBeGreaterThan(0);
    expect(after!.admissionsPerSecond).toBeGreaterThan(1.5 * before!.admissionsPerSecond);
  });

  it('moves the share of draws won to the new percentage', () => {
    const [before, after] = change.phases;
    expect(before!.drawWinShare!).toBeGreaterThan(0.06);
    expect(before!.drawWinShare!).toBeLessThan(0.14);
    expect(after!.drawWinShare!).toBeGreaterThan(0.25);
    expect(after!.drawWinShare!).toBeLessThan(0.35);
  });
});

describe('on-sale: crowd held at allow_percentage 0, opened at minute 10', () => {
  it('admits nobody before the opening', () => {
    const opening = onsale.changes[0]!.atMs / 1000;
    expect(onsale.series.admissionsPerSecond.slice(0, opening).every((n) => n === 0)).toBe(true);
    expect(onsale.reasons.deny_all).toBeGreaterThan(0);
  });

  it('gives early birds no head start once they are back in the queue', () => {
    // The deny page's own timer (300-360 s) brings the crowd back over the first minutes of the sale,
    // so when each came back does depend on when they arrived. Once back, arrival order says nothing
    // about how long the draws take.
    const opening = onsale.changes[0]!.atMs;
    const early = onsaleRun.trace.actors.filter(
      (a) => a.arrivalMs < opening && a.admittedMs !== null && a.queuedMs !== null,
    );
    expect(early.length).toBeGreaterThan(300);
    const rho = spearman(
      early.map((a) => a.arrivalMs),
      early.map((a) => a.admittedMs! - a.queuedMs!),
    );
    expect(Math.abs(rho!)).toBeLessThan(0.1);
    // Nobody came back before the opening reached them, and the deny page kept everyone out till then.
    expect(early.every((a) => a.queuedMs! >= opening)).toBe(true);
  });

  it('admits the crowd at the promised rate once open', () => {
    const after = onsale.phases[1]!;
    expect(after.admissionsPerSecond).toBeGreaterThan(0);
    expect(after.drawWinShare!).toBeGreaterThan(0.1);
    expect(after.drawWinShare!).toBeLessThan(0.2);
  });
});
