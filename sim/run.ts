// One scenario, start to finish, on the virtual clock.
import { VirtualClock } from './clock.js';
import { popLayout, roomStore, SimController, type ControlTrace } from './control.js';
import { Population, type Trace } from './population.js';
import { createRandom } from '../lib/random.js';
import { createRoom, type PopSpec } from './room.js';
import { runRooms, type RoomsRun } from './rooms.js';
import type { Scenario } from './scenario-types.js';

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
  /** The POPs, their delays and shares of visitors (one POP unless the scenario is controlled). */
  pops: readonly PopSpec[];
  popShares: readonly number[];
  logDelaysMs: readonly number[];
  /** What the controller did, for controlled scenarios. */
  control: ControlTrace | null;
  /** decide() calls made and the wall-clock time the run took: the simulator's own cost. */
  decisions: number;
  elapsedMs: number;
  /** Distinct diagnostics the edge reported (a first-come queue with no cursor yet, say). */
  diagnostics: string[];
  /** Several rooms on one service (rooms.ts): each room's own result and the check between them. */
  rooms?: RoomsRun;
}

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<RunResult> {
  if (scenario.rooms) return runRooms(scenario, scenario.rooms, options);
  const started = performance.now();
  const visitors = options.visitors ?? scenario.visitors;
  const rng = createRandom(`${options.seed}/${scenario.name}`);
  const clock = new VirtualClock();
  const layout = scenario.control ? popLayout(scenario.control, rng.fork('pops')) : null;
  let controller: SimController | null = null;
  // The key depends on the seed only: scenarios with one seed share a lottery, like one deployment.
  const room = createRoom(scenario.settings, options.seed, {
    ...(layout ? { pops: layout.pops } : {}),
    onLine: (pop, text, nowMs) => controller?.line(pop, text, nowMs),
  });
  if (scenario.control && layout) {
    controller = new SimController(roomStore(room), clock, scenario.control, layout.logDelays);
    controller.start(0, scenario.durationMs);
  }
  const population = new Population(room, clock, rng.fork('behaviour'), scenario.behaviour, layout?.shares);
  for (const arrival of scenario.arrivals(rng.fork('arrivals'), visitors)) population.add(arrival);
  // An operator's change goes to the central store, and from there to each POP after its delay.
  for (const change of scenario.changes) {
    clock.at(change.atMs, (t) => room.publish({ [change.key]: change.value }, t));
  }
  const waitPeriodSeconds = room.waitPeriodSeconds;
  await clock.run(scenario.durationMs);
  return {
    scenario,
    seed: options.seed,
    visitors,
    trace: population.trace,
    waitPeriodSeconds,
    pops: room.pops,
    popShares: layout?.shares ?? [1],
    logDelaysMs: layout?.logDelays ?? [0],
    control: controller?.trace ?? null,
    decisions: room.decisions,
    elapsedMs: performance.now() - started,
    diagnostics: [...room.diagnostics],
  };
}
