// What a sale costs in requests (sim/costs.ts, sim/requests.ts, docs/production.md#what-a-sale-costs):
// every request counted once, under one kind, and the counts moving as an operator would see them move.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MINUTE, spread } from '../../sim/arrivals.js';
import { defaultBotSpec } from '../../sim/bot-farm.js';
import { costScenarios, findCostScenario, priced } from '../../sim/cost-scenarios.js';
import { costTables, type CostRow, scenarioCosts } from '../../sim/costs.js';
import { requestKinds } from '../../sim/requests.js';
import type { RunResult } from '../../sim/run.js';
import type { Scenario } from '../../sim/scenario-types.js';
import type { Group } from '../../sim/visitors.js';
import { run } from './support.js';

/** A room alone at a fixed chance: `n` visitors over the first minute, nobody gives up, brief visits. */
function sale(allow: number, waitPeriod: number, extra: Partial<Scenario> = {}): Scenario {
  return priced({
    name: `costs-test-${allow}-${waitPeriod}`,
    title: 'test',
    summary: 'test',
    settings: {
      allow_percentage: String(allow),
      wait_period_duration: String(waitPeriod),
      allow_period_duration: '600',
    },
    changes: [],
    durationMs: 40 * MINUTE,
    behaviour: { thinkSeconds: 60, sessionSecondsMedian: 30, jitter: true, horizonWindows: null },
    visitors: 300,
    arrivals: (rng, n) => spread(rng, n, 0, MINUTE).map((a) => ({ ...a, patienceMs: Infinity })),
    ...extra,
  });
}

async function costsOf(s: Scenario, visitors = s.visitors): Promise<{ result: RunResult; row: CostRow }> {
  const { result } = await run(s, visitors);
  return { result, row: scenarioCosts(result).rows[0]! };
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

describe('requests per visitor', () => {
  it('counts every visitor once and every request under one kind, and the figures add up', async () => {
    const { result, row } = await costsOf(sale(20, 30, { visitors: 200, durationMs: 20 * MINUTE }));
    const { actors } = result.trace;
    expect(actors.every((a) => a.requests.kinds.first === 1)).toBe(true);
    for (const a of actors) expect(sum(requestKinds.map((k) => a.requests.kinds[k]))).toBe(a.requests.total);
    // Every request the room decided is some visitor's, once: the solver, served before any decision, aside.
    const all = sum(actors.map((a) => a.requests.total));
    expect(all - sum(actors.map((a) => a.requests.kinds.solver))).toBe(result.decisions);
    expect(row.total).toBe(all);
    expect(row.visitors).toBe(actors.length);
    expect(sum(requestKinds.map((k) => row.kinds[k]))).toBeCloseTo(row.mean, 9);
    // The room answers the first visit, the checks it does not win and the solver; the origin the rest.
    const atEdge = sum(
      actors.map((a) => a.requests.total - a.requests.kinds.win - a.requests.kinds.reload - a.requests.kinds.origin),
    );
    expect(row.edgeShare * row.total).toBeCloseTo(atEdge, 6);
    expect(row.perAdmission! * row.admitted).toBeCloseTo(all, 6);
  });

  it('splits a mixed crowd into people, adversaries and bots, whose counts add up to everyone', async () => {
    const groups: Group[] = ['honest', 'refresher', 'farm'];
    const s = sale(20, 30, {
      visitors: 60,
      durationMs: 10 * MINUTE,
      arrivals: (rng, n) =>
        spread(rng, n, 0, MINUTE).map((a, i) => ({ ...a, group: groups[i % 3]!, patienceMs: Infinity })),
      bots: defaultBotSpec,
    });
    const rows = scenarioCosts((await run(s, 60)).result).rows;
    expect(rows.map((r) => r.crowd)).toEqual(['everyone', 'people', 'adversaries', 'bots']);
    const [everyone, ...parts] = rows;
    expect(sum(parts.map((r) => r.visitors))).toBe(everyone!.visitors);
    expect(sum(parts.map((r) => r.total))).toBe(everyone!.total);
    // Reloading every second is 60 requests a minute; a page checks about twice a minute.
    const byCrowd = (c: string) => rows.find((r) => r.crowd === c)!;
    expect(byCrowd('adversaries').checksPerMinute!).toBeGreaterThan(50);
    expect(byCrowd('people').checksPerMinute!).toBeLessThanOrEqual(2);
  });

  it('makes each admitted page one winning check and one reload, both to the origin', async () => {
    const { result } = await costsOf(sale(20, 30, { visitors: 200, durationMs: 20 * MINUTE }));
    const admitted = result.trace.actors.filter((a) => a.admittedMs !== null);
    expect(admitted.length).toBeGreaterThan(150);
    for (const a of admitted) {
      expect(a.requests.kinds.win, `visitor ${a.id}`).toBe(1);
      expect(a.requests.kinds.reload, `visitor ${a.id}`).toBe(1);
    }
    // Into an open room the first visit is the origin's own page: nothing to win, nothing to reload.
    const open = await costsOf(sale(100, 30, { visitors: 50, durationMs: 5 * MINUTE }));
    expect(open.row.kinds.win + open.row.kinds.reload + open.row.kinds.check).toBe(0);
    expect(open.row.edgeShare).toBe(0);
  });

  it('checks about once a draw: a quarter of the chance, four times the checks', async () => {
    const low = await costsOf(sale(5, 10));
    const high = await costsOf(sale(20, 10));
    const checks = (r: CostRow): number => (r.kinds.check + r.kinds.win) / (r.admitted / r.visitors);
    expect(low.row.admitted).toBe(300);
    expect(high.row.admitted).toBe(300);
    // A draw's chance P takes 1/P draws on average, each one check when the token falls due.
    expect(checks(low.row)).toBeGreaterThan(20 * 0.85);
    expect(checks(low.row)).toBeLessThan(20 * 1.15);
    expect(checks(high.row)).toBeGreaterThan(5 * 0.85);
    expect(checks(high.row)).toBeLessThan(5 * 1.15);
    expect(low.row.perAdmitted!).toBeGreaterThan(high.row.perAdmitted! + 10);
  });

  it('checks in proportion to the window: three times as often a minute with a third of wait_period_duration', async () => {
    const short = await costsOf(sale(10, 10));
    const long = await costsOf(sale(10, 30));
    // The same number of draws, so about the same checks a visitor, spread over three times the wait.
    const ratio = short.row.checksPerMinute! / long.row.checksPerMinute!;
    expect(ratio).toBeGreaterThan(2.6);
    expect(ratio).toBeLessThan(3.4);
    expect(long.row.admitMedianSeconds! / short.row.admitMedianSeconds!).toBeGreaterThan(2.4);
    expect(Math.abs(short.row.kinds.check - long.row.kinds.check) / long.row.kinds.check).toBeLessThan(0.2);
    // A page checks about once a window while it waits: 60 / 30 = 2 a minute at most.
    expect(long.row.checksPerMinute!).toBeLessThanOrEqual(2);
    expect(long.row.checksPerMinute!).toBeGreaterThan(1.5);
  });

  it('counts the solver once for a page that solves, never for one without JavaScript', async () => {
    const devices: Group[] = ['phone', 'laptop', 'nojs'];
    const s = sale(20, 30, {
      settings: { allow_percentage: '20', wait_period_duration: '30', proof_of_work: 'fixed', proof_seconds: '2' },
      visitors: 90,
      durationMs: 30 * MINUTE,
      arrivals: (rng, n) =>
        spread(rng, n, 0, MINUTE).map((a, i) => ({ ...a, group: devices[i % 3]!, patienceMs: Infinity })),
      bots: defaultBotSpec,
    });
    const { result } = await costsOf(s);
    const by = (g: Group) => result.trace.actors.filter((a) => a.group === g);
    for (const a of [...by('phone'), ...by('laptop')]) expect(a.requests.kinds.solver, a.group).toBe(1);
    for (const a of by('nojs')) expect(a.requests.kinds.solver).toBe(0);
    const all = sum(result.trace.actors.map((a) => a.requests.total));
    expect(all - sum(result.trace.actors.map((a) => a.requests.kinds.solver))).toBe(result.decisions);
    // Solving adds no check: the page checks once the solution is ready, at or after its due time.
    const checksPerDraw = (g: Group) =>
      sum(by(g).map((a) => a.requests.kinds.check + a.requests.kinds.win)) / sum(by(g).map((a) => a.draws));
    expect(checksPerDraw('phone')).toBeLessThan(1.1);
    // Without JavaScript a reload in the token's own window is held for its proof (proof_pending): two checks a draw.
    expect(checksPerDraw('nojs')).toBeGreaterThan(1.5);
  });
});

describe('npm run simulate -- --costs', () => {
  const cli = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'sim/cli.ts', ...args]).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('prints the table for the named sales, and refuses what it cannot count', async () => {
    const ok = await cli(['--costs', '--scenario', 'costs-short,nojitter', '--visitors', '40']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^\| costs-short +\| everyone +\| +40 \|/m);
    expect(ok.stdout).toMatch(/^\| nojitter +\| everyone +\| +40 \|/m);
    expect(ok.stdout).toContain('Mean requests per visitor, by kind:');
    const rooms = await cli(['--costs', '--scenario', 'two-rooms']);
    expect(rooms.code).toBe(2);
    expect(rooms.stderr).toContain('"two-rooms" is no scenario of one room');
    const update = await cli(['--costs', '--update']);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('--costs prints a table and writes no report');
  }, 60_000);

  it('offers the sales the production guide reports, each with the reload', () => {
    expect(costScenarios.map((s) => s.name)).toEqual([
      'costs-short',
      'costs-load-test',
      'costs-onsale',
      'costs-long',
      'costs-fifo',
      'costs-bots',
    ]);
    for (const s of costScenarios) expect(s.behaviour.reloadAfterWin, s.name).toBe(true);
    expect(findCostScenario('flash')?.behaviour.reloadAfterWin).toBe(true);
    expect(costTables([])).toContain('Requests per visitor');
  });
});
