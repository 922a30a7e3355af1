// The room's promise to honest visitors: no trick with devices, cookies, refreshes or shared tokens
// buys a better chance than following the page. Judged on the real decide() with real tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupFigures, ScenarioFigures } from '../../sim/figures.js';
import { adversaries } from '../../sim/scenarios.js';
import { run } from './support.js';

let figures: ScenarioFigures;
const group = (name: string): GroupFigures => {
  const g = figures.groups.find((x) => x.group === name);
  if (!g) throw new Error(`no group ${name} in the run`);
  return g;
};

beforeAll(async () => {
  // Many honest visitors and five-device owners: their ratio is the one the brief bounds at 1.1x.
  const mix = { honest: 0.38, devices5: 0.25, clearer: 0.04, refresher: 0.08, holder: 0.1, twojars: 0.15 };
  ({ figures } = await run(adversaries(mix), 4000));
}, 120_000);

describe('adversaries against honest visitors (allow_percentage 10, 7-window horizon)', () => {
  it('gives honest visitors the chance the draw promises', () => {
    // About 6 draws at 10% within the horizon: 1 - 0.9^6 = 0.47, less the odd late return.
    const honest = group('honest');
    expect(honest.actors).toBeGreaterThan(1000);
    expect(honest.chance!.value).toBeGreaterThan(0.38);
    expect(honest.chance!.value).toBeLessThan(0.5);
  });

  it('gives five devices behind one identity no more than 1.1x an honest chance', () => {
    const g = group('devices5');
    expect(g.actors).toBeGreaterThan(800);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.1);
  });

  it('never gives any identity more draws than an honest visitor has had in the same time', () => {
    // The mechanism behind the ratios: one token per identity and window boundary, each drawn once.
    for (const g of figures.groups) expect(g.maxExtraDraws, g.group).toBeLessThanOrEqual(0);
  });

  it('admits nobody who clears cookies before every visit', () => {
    const g = group('clearer');
    expect(g.actors).toBeGreaterThan(100);
    expect(g.admittedInHorizon).toBe(0);
  });

  it('gives a visitor who refreshes every second no better chance per window', () => {
    const g = group('refresher');
    expect(g.ratio!.value).toBeLessThanOrEqual(1.15);
    expect(g.maxDrawsPerWindow).toBe(1);
  });

  it('lets no handed-over allow token through for another identity, nor improves the friend’s chance', () => {
    const g = group('friend');
    expect(g.actors).toBeGreaterThan(100);
    expect(g.handoverAdmitted).toBe(0);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.15);
  });

  it('gives two cookie jars kept in turn no more than one draw per window', () => {
    const g = group('twojars');
    expect(g.maxDrawsPerWindow).toBe(1);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.15);
  });
});
