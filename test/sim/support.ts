// Small fixed-seed runs shared by the simulator's tests. Sizes buy the statistical power each
// assertion needs and no more: every request is a real HS512 sign or verify.
import { computeFigures, type GroupFigures, type ScenarioFigures } from '../../sim/figures.js';
import type { Arrival } from '../../sim/visitors.js';
import { runScenario, type RunOptions, type RunResult } from '../../sim/run.js';
import type { Scenario } from '../../sim/scenario-types.js';
import { findScenario } from '../../sim/scenarios.js';

export const SEED = 'test-1';

export function scenario(name: string, patch: Partial<Scenario> = {}): Scenario {
  const found = findScenario(name);
  if (!found) throw new Error(`no scenario ${name}`);
  return { ...found, ...patch };
}

/** Same arrivals, but nobody gives up: waits are then observed in full, not censored. */
export function patient(s: Scenario): Scenario {
  return { ...s, arrivals: (rng, n) => s.arrivals(rng, n).map((a: Arrival) => ({ ...a, patienceMs: Infinity })) };
}

/** Admitted visitors browse only briefly: their requests cost time and are not what these tests judge. */
export function briefSessions(s: Scenario): Scenario {
  return { ...s, behaviour: { ...s.behaviour, sessionSecondsMedian: 30, thinkSeconds: 60 } };
}

/** One visitor group's figures; a group the run did not have is an error that names it. */
export function group(figures: ScenarioFigures, name: string): GroupFigures {
  const g = figures.groups.find((x) => x.group === name);
  if (!g) throw new Error(`no group ${name} in the run`);
  return g;
}

export async function run(
  s: Scenario,
  visitors: number,
  seed = SEED,
  options: Omit<RunOptions, 'seed' | 'visitors'> = {},
): Promise<{ result: RunResult; figures: ScenarioFigures }> {
  const result = await runScenario(s, { ...options, seed, visitors });
  return { result, figures: computeFigures(result) };
}
