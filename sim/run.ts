// One scenario, start to finish, on the virtual clock.
import { VirtualClock } from './clock.js';
import { Population, type Trace } from './population.js';
import { createRandom } from './random.js';
import { createRoom } from './room.js';
import type { Scenario } from './scenarios.js';

export interface RunOptions {
  seed: string;
  /** Population size; the scenario's default when absent. */
  visitors?: number;
}

export interface RunResult {
  scenario: Scenario;
  seed: string;
  visitors: number;
  trace: Trace;
  waitPeriodSeconds: number;
  /** decide() calls made and the wall-clock time the run took: the simulator's own cost. */
  decisions: number;
  elapsedMs: number;
}

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const visitors = options.visitors ?? scenario.visitors;
  const rng = createRandom(`${options.seed}/${scenario.name}`);
  // The key depends on the seed only: scenarios with one seed share a lottery, like one deployment.
  const room = createRoom(scenario.settings, options.seed);
  const clock = new VirtualClock();
  const population = new Population(room, clock, rng.fork('behaviour'), scenario.behaviour);
  for (const arrival of scenario.arrivals(rng.fork('arrivals'), visitors)) population.add(arrival);
  for (const change of scenario.changes) {
    clock.at(change.atMs, () => room.set(change.key, change.value));
  }
  const waitPeriodSeconds = room.waitPeriodSeconds;
  await clock.run(scenario.durationMs);
  return {
    scenario,
    seed: options.seed,
    visitors,
    trace: population.trace,
    waitPeriodSeconds,
    decisions: room.decisions,
    elapsedMs: performance.now() - started,
  };
}
