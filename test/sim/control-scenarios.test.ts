// `held-unsolved` (opt-in): held-steady with a proof of work asked that no simulated visitor brings,
// so every draw gets proof_free_share (0.2) of the chance published. What an operator would notice:
// admissions still sit on new_users_per_minute wherever a chance can reach it (a fifth of the queue
// per window), not at a fraction of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { controlSpec } from '../../sim/control-scenarios.js';
import type { ScenarioFigures } from '../../sim/figures.js';
import type { Scenario } from '../../sim/scenario-types.js';
import type { Arrival } from '../../sim/visitors.js';
import type { Random } from '../../lib/random.js';
import { briefSessions, run, scenario } from './support.js';

const MINUTE = 60_000;

function uniform(rng: Random, n: number, from: number, to: number): Arrival[] {
  return Array.from({ length: n }, () => ({
    atMs: from + (to - from) * rng.next(),
    group: 'honest' as const,
    patienceMs: Infinity,
  })).sort((a, b) => a.atMs - b.atMs);
}

describe('a steady crowd that brings no proof of work, held by the controller', () => {
  let f: ScenarioFigures;
  beforeAll(async () => {
    // 300 a minute arrive for 8 minutes; the origin takes 120 a minute; nobody sends a proof.
    const s: Scenario = briefSessions({
      ...scenario('held-unsolved'),
      settings: { ...scenario('held-unsolved').settings, new_users_per_minute: '120' },
      durationMs: 10 * MINUTE,
      arrivals: (rng, n) => uniform(rng, n, 0, 8 * MINUTE),
      control: { ...controlSpec, pops: 3 },
    });
    f = (await run(s, 2400)).figures;
  }, 120_000);

  it('admits within 10% of new_users_per_minute in every settled minute where a fifth of the queue can reach it', () => {
    // A window's share of the target is 60: at a fifth of the chance, 300 must wait for 100 to reach it.
    const reachable = f.control!.minutes.filter((m) => m.judged && m.fewestWaiting >= 60 / 0.2);
    expect(reachable.length).toBeGreaterThanOrEqual(4);
    for (const m of reachable)
      expect(Math.abs(m.error!), `minute ${m.minute}: ${m.admissions}`).toBeLessThanOrEqual(0.1);
  });
});
