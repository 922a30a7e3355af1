// The controller inside the simulator: several POPs that see its writes late, decision lines that
// reach it late, and the same Controller, model and Writer `npm run control` runs. What an operator
// would notice: admissions follow new_users_per_minute rather than the crowd, a stopped controller
// leaves the ceiling holding every POP, and no winner the ceiling holds back is lost.
import { beforeAll, describe, expect, it } from 'vitest';
import { roomStore } from '../../sim/control.js';
import { controlSpec } from '../../sim/control-scenarios.js';
import { createRoom } from '../../sim/room.js';
import type { ScenarioFigures } from '../../sim/figures.js';
import type { Arrival } from '../../sim/visitors.js';
import type { Random } from '../../lib/random.js';
import type { Scenario } from '../../sim/scenario-types.js';
import { briefSessions, run, scenario } from './support.js';
import type { RunResult } from '../../sim/run.js';

const MINUTE = 60_000;

function uniform(rng: Random, n: number, from: number, to: number): Arrival[] {
  return Array.from({ length: n }, () => ({
    atMs: from + (to - from) * rng.next(),
    group: 'honest' as const,
    patienceMs: Infinity,
  })).sort((a, b) => a.atMs - b.atMs);
}

describe('a steady crowd above the target, held by the controller on four POPs', () => {
  let f: ScenarioFigures;
  beforeAll(async () => {
    // 200 a minute arrive for 10 minutes; the origin takes 120 a minute.
    const s: Scenario = briefSessions({
      ...scenario('held-steady'),
      settings: { ...scenario('held-steady').settings, new_users_per_minute: '120' },
      durationMs: 14 * MINUTE,
      arrivals: (rng, n) => uniform(rng, n, 0, 10 * MINUTE),
      control: { ...controlSpec, pops: 4 },
    });
    f = (await run(s, 2000)).figures;
  }, 120_000);

  it('admits within 10% of new_users_per_minute in every settled minute while visitors wait', () => {
    const c = f.control!;
    expect(c.judged).toBeGreaterThanOrEqual(6);
    for (const m of c.minutes.filter((x) => x.judged))
      expect(Math.abs(m.error!), `minute ${m.minute}: ${m.admissions}`).toBeLessThanOrEqual(0.1);
  });

  it('keeps the busiest 10 seconds within its bound', () => {
    const b = f.control!.busiest!;
    expect(b.ratio).toBeLessThanOrEqual(b.limit);
  });

  it('spreads visitors over the POPs unevenly, the largest first', () => {
    const pops = f.control!.pops;
    expect(pops).toHaveLength(4);
    expect(pops[0]!.admissions).toBeGreaterThan(pops[3]!.admissions * 2);
    for (const p of pops) expect(p.propagationMs).toBeGreaterThanOrEqual(5000);
  });

  it('reads every decision line and writes far inside the API limit', () => {
    const c = f.control!;
    expect(c.badLines).toBe(0);
    expect(c.linesDelivered).toBeGreaterThan(f.decisions * 0.95);
    expect(c.writesPerHour).toBeLessThanOrEqual(180);
  });
});

describe('the controller stopped mid-flash with a per-POP ceiling', () => {
  let f: ScenarioFigures;
  beforeAll(async () => {
    // 1,500 in the first minute held to 300 a minute; the controller stops at minute 3 and 1,000 more
    // arrive at minute 4, when only the ceiling (2 a second per POP) holds the room.
    const s: Scenario = briefSessions({
      ...scenario('held-ceiling'),
      settings: { ...scenario('held-ceiling').settings, new_users_per_minute: '300', pop_admissions_per_second: '2' },
      durationMs: 14 * MINUTE,
      arrivals: (rng, n) => [
        ...uniform(rng, Math.round(n * 0.6), 0, MINUTE),
        ...uniform(rng, n - Math.round(n * 0.6), 4 * MINUTE, 5 * MINUTE),
      ],
      control: { ...controlSpec, pops: 3, stopAtMs: 3 * MINUTE },
    });
    f = (await run(s, 2500)).figures;
  }, 120_000);

  it('never lets a POP past its ceiling over any 10 seconds', () => {
    const g = f.control!.ceiling!;
    expect(g.worst10s).toBeLessThanOrEqual(g.limit10s);
    // The ceiling did bind: the busiest POP reached it.
    expect(g.worst10s).toBe(g.limit10s);
  });

  it('admits every winner it held back', () => {
    const g = f.control!.ceiling!;
    expect(g.heldWinners).toBeGreaterThan(0);
    expect(g.lostWins).toBe(0);
  });

  it('stopped writing when the controller stopped', () => {
    const c = f.control!;
    expect(c.stoppedAtMs).toBe(3 * MINUTE);
  });
});

describe('visitors who come back late, held to the target (the README load test)', () => {
  // Every check comes up to 45 s late in a room of 20-second windows, so most draws happen in the
  // window of grace or past it; before the controller counted for that it admitted 6 times the target.
  let late: ScenarioFigures;
  // A third of the waiting pages are background tabs whose timer fires once a minute.
  let tabs: ScenarioFigures;
  let tabActors: RunResult['trace']['actors'];
  beforeAll(async () => {
    const base = scenario('held-late');
    late = (
      await run(
        { ...base, behaviour: { ...base.behaviour, lateReturns: { backgroundShare: 0, delayMs: 45_000 } } },
        2000,
      )
    ).figures;
    const tabRun = await run(base, 2000);
    tabs = tabRun.figures;
    tabActors = tabRun.result.trace.actors;
  }, 240_000);

  it('holds new_users_per_minute within 5% over the judged minutes, and no minute 40% above it', () => {
    for (const f of [late, tabs]) {
      const judged = f.control!.minutes.filter((m) => m.judged);
      const shown = judged.map((m) => m.admissions).join(', ');
      expect(judged.length, f.name).toBeGreaterThanOrEqual(6);
      const total = judged.reduce((s, m) => s + m.admissions, 0);
      const target = judged.reduce((s, m) => s + m.target!, 0);
      // Before the correction by cohort the tabs' run fell 7.7% short (997 of 1,080): the plan expected
      // more draws than a crowd of late returners growing impatient makes. Now 1,061 (-1.8%).
      expect(Math.abs(total / target - 1), `${f.name}: ${total} of ${target} (${shown})`).toBeLessThanOrEqual(0.05);
      // Over the target is what hurts the origin. With every check up to 45 s late, the first judged
      // minutes still run up to 16% over (139 of 120): the first holders back after their grace window
      // draw before their rate has been measured. Before the fix: 6 times the target. Under it, a
      // minute can fall short as the queue's last, mostly background tabs, check only once a minute.
      for (const m of judged) expect(m.error!, `${f.name} minute ${m.minute}: ${shown}`).toBeLessThanOrEqual(0.4);
      for (const m of judged) expect(m.error!, `${f.name} minute ${m.minute}: ${shown}`).toBeGreaterThanOrEqual(-0.5);
    }
    // Minute by minute: 6 of the tabs' 9 within ±10% (2 before). What is left is mostly the luck of the
    // draw among tickets whose numbers nobody knew when the chance was fixed (docs/control/model.md).
    const shown = tabs.control!.minutes.filter((m) => m.judged).map((m) => m.admissions);
    expect(tabs.control!.withinTenPercent, shown.join(', ')).toBeGreaterThanOrEqual(6);
  });

  it('lets background tabs in too, at least half as often as pages that check on time', () => {
    // A tab that checks once a minute draws once a minute, a third as often as the others in 20-second
    // windows. Before, it never drew at all (3% got in, against 73%): its token was always past its
    // window of grace when it came, and it only got a new one.
    const share = (background: boolean) => {
      const group = tabActors.filter(
        (a) => a.group === 'honest' && (a.backgroundPhaseMs != null) === background && a.queuedMs !== null,
      );
      return group.filter((a) => a.admittedMs !== null).length / group.length;
    };
    expect(share(true), `background ${share(true)}, foreground ${share(false)}`).toBeGreaterThan(0.5 * share(false));
  });
});

describe("the simulated store, as the controller's writes reach the room", () => {
  it('carries proof_schedule from room.default.live to the room, beside allow_schedule, and removes it with the live value', () => {
    const room = createRoom({ allow_percentage: '50', wait_period_duration: '30' }, 's');
    const store = roomStore(room);
    store.write(
      { 'room.default.live': JSON.stringify({ allow_schedule: '1800000030=12', proof_schedule: '1800000030=13' }) },
      0,
    );
    expect(room.central()).toMatchObject({ allow_schedule: '1800000030=12', proof_schedule: '1800000030=13' });
    // Read back as the controller reads the store: its own live value again.
    expect(JSON.parse(store.read()['room.default.live']!)).toEqual({
      allow_schedule: '1800000030=12',
      proof_schedule: '1800000030=13',
    });
    store.write({ 'room.default.live': '' }, 1000);
    expect(room.central()).not.toHaveProperty('proof_schedule');
  });
});
