// The operator's two levers: raising allow_percentage, and holding a crowd at 0 until an opening.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioFigures } from '../../sim/figures.js';
import { briefSessions, run, scenario } from './support.js';

let change: ScenarioFigures;
let onsale: ScenarioFigures;

beforeAll(async () => {
  ({ figures: change } = await run(briefSessions(scenario('change')), 1500));
  ({ figures: onsale } = await run(briefSessions(scenario('onsale', { durationMs: 25 * 60_000 })), 1500));
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
    expect(onsale.reasons['deny_all']).toBeGreaterThan(0);
  });

  it('gives early birds no head start over visitors who came just before opening', () => {
    // Everyone held before the opening starts queuing at it: arrival order says nothing.
    expect(Math.abs(onsale.spearmanBeforeChange!)).toBeLessThan(0.1);
  });

  it('admits the crowd at the promised rate once open', () => {
    const after = onsale.phases[1]!;
    expect(after.admissionsPerSecond).toBeGreaterThan(0);
    expect(after.drawWinShare!).toBeGreaterThan(0.1);
    expect(after.drawWinShare!).toBeLessThan(0.2);
  });
});
