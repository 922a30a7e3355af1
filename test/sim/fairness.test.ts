// The room's promise to honest visitors: no trick with devices, cookies, refreshes or shared tokens
// buys a better chance than following the page. Judged on the real decide() with real tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupFigures, ScenarioFigures } from '../../sim/figures.js';
import { adversaries } from '../../sim/scenarios.js';
import { group as groupOf, run } from './support.js';

let figures: ScenarioFigures;
const group = (name: string): GroupFigures => groupOf(figures, name);

beforeAll(async () => {
  // Many honest visitors and five-device owners: theirs is the ratio bounded at 1.1x, so it gets the
  // samples (standard error about 0.045). The other groups are judged on exact counts first and on
  // their ratio only loosely: at their sizes, one standard error of the ratio is 0.06-0.1.
  const mix = { honest: 0.42, devices5: 0.28, clearer: 0.03, refresher: 0.04, holder: 0.07, twojars: 0.16 };
  ({ figures } = await run(adversaries(mix), 3500));
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
    expect(g.actors).toBeGreaterThan(900);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.1);
  });

  it('never gives any identity more draws than an honest visitor has had in the same time', () => {
    // The mechanism behind the ratios: one token per identity and window boundary, each drawn once.
    for (const g of figures.groups) expect(g.maxExtraDraws, g.group).toBeLessThanOrEqual(0);
  });

  it('admits nobody who clears cookies before every visit', () => {
    const g = group('clearer');
    expect(g.actors).toBeGreaterThan(80);
    expect(g.admittedInHorizon).toBe(0);
  });

  it('gives a visitor who refreshes every second no better chance, nor a head start in time', () => {
    const g = group('refresher');
    expect(g.maxDrawsPerWindow).toBe(1);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.3);
    expect(g.ratioBySeconds!.value).toBeLessThanOrEqual(1.3);
  });

  it('makes refreshers draw when their token falls due, not in the boundary second', () => {
    // Every-second reloads would all hit the first second of a window if the room let a token be drawn
    // at its expiry; its due offset spreads them instead.
    expect(figures.drawsNearBoundary.refresher!).toBeLessThan(0.3);
  });

  it('lets no handed-over allow token through for another identity, nor improves the friend’s chance', () => {
    const g = group('friend');
    expect(g.actors).toBeGreaterThan(80);
    expect(g.handoverAdmitted).toBe(0);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.35);
  });

  it('gives two cookie jars kept in turn no better chance than one', () => {
    // A jar may hold a token from the window before (drawable for one window of grace), so two draws
    // can fall in one window; never more draws in total than the windows elapsed (tested above).
    const g = group('twojars');
    expect(g.actors).toBeGreaterThan(400);
    expect(g.ratio!.value).toBeLessThanOrEqual(1.2);
  });
});
