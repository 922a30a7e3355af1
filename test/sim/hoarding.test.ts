// A pile of kept tokens after a raise: tokens are drawable only until two windows after their expiry,
// so hoarding while the chance is low buys at most one extra draw when it goes up.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupFigures, ScenarioFigures } from '../../sim/figures.js';
import { group as groupOf, run, scenario } from './support.js';

let figures: ScenarioFigures;
const group = (name: string): GroupFigures => groupOf(figures, name);

beforeAll(async () => {
  ({ figures } = await run(scenario('raise'), 1000));
}, 120_000);

describe('hoarders against a raise from 1% to 50%', () => {
  it('lets a pile of tokens draw at most twice in one window', () => {
    const hoarder = group('hoarder');
    expect(hoarder.actors).toBeGreaterThan(300);
    expect(hoarder.maxDrawsPerWindow).toBeLessThanOrEqual(2);
  });

  it('keeps the hoarders’ edge at the raise to that one extra draw', () => {
    // Two windows from the raise: an honest visitor has 2 draws at 50% (75%), a hoarder at most 3
    // (87.5%): 1.17x at most. Without the two-window limit the pile would be every window's token.
    expect(group('honest').chance!.value).toBeGreaterThan(0.65);
    expect(group('hoarder').ratio!.value).toBeLessThanOrEqual(1.25);
  });
});
