// One scenario, start to finish, on the virtual clock.
import { ProofPlayers } from './bot-farm.js';
import { VirtualClock } from './clock.js';
import { popLayout, roomStore, SimController } from './control.js';
import { Population } from './population.js';
import { createRandom } from '../lib/random.js';
import { createRoom } from './room.js';
import { clairvoyantOf, objectiveOf, type OriginRun, originFor, spansOf } from './origin-run.js';
import { runRooms } from './rooms.js';
import { useSyncHmac } from './sync-hmac.js';
import type { RunOptions, RunResult } from './run-types.js';
import type { Scenario } from './scenario-types.js';

export type { RunOptions, RunResult } from './run-types.js';

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<RunResult> {
  // Same bytes as WebCrypto, without a thread-pool hop per HMAC (sync-hmac.ts).
  useSyncHmac();
  if (scenario.rooms) return runRooms(scenario, scenario.rooms, options);
  const started = performance.now();
  const visitors = options.visitors ?? scenario.visitors;
  const rng = createRandom(`${options.seed}/${scenario.name}`);
  const clock = new VirtualClock();
  const layout = scenario.control ? popLayout(scenario.control, rng.fork('pops')) : null;
  let controller: SimController | null = null;
  const origin = originFor(scenario, rng.fork('origin'));
  // The key depends on the seed only: scenarios with one seed share a lottery, like one deployment.
  const room = createRoom(scenario.settings, options.seed, {
    ...(layout ? { pops: layout.pops } : {}),
    onLine: (pop, text, nowMs) => {
      options.onLine?.(text);
      controller?.line(pop, text, nowMs);
    },
    ...(origin ? { origin: origin.answer } : {}),
  });
  if (scenario.control && layout) {
    controller = new SimController(roomStore(room), clock, scenario.control, layout.logDelays);
    controller.start(0, scenario.durationMs);
  }
  const players = scenario.bots ? new ProofPlayers(scenario.bots) : null;
  const population = new Population(
    room,
    clock,
    rng.fork('behaviour'),
    scenario.behaviour,
    layout?.shares,
    players ? { proof: players } : {},
  );
  for (const arrival of scenario.arrivals(rng.fork('arrivals'), visitors)) population.add(arrival);
  // An operator's change goes to the central store, and from there to each POP after its delay.
  for (const change of scenario.changes) {
    clock.at(change.atMs, (t) => room.publish({ [change.key]: change.value }, t));
  }
  const waitPeriodSeconds = room.waitPeriodSeconds;
  await clock.run(scenario.durationMs);
  const elapsedMs = performance.now() - started;
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
    elapsedMs,
    diagnostics: [...room.diagnostics],
    ...(origin ? { origin: await originRun(scenario, options, origin.requests) } : {}),
    ...(players ? { bots: { farm: players.farm.trace, checks: players.checks, wins: players.wins } } : {}),
  };
}

/** The origin's side of a run: its answers, its real capacity, and the clairvoyant operator's run of the same crowd. */
async function originRun(scenario: Scenario, options: RunOptions, requests: OriginRun['requests']): Promise<OriginRun> {
  const spans = spansOf(scenario);
  let clairvoyant: OriginRun['clairvoyant'] = null;
  if (options.clairvoyant !== false) {
    const other = await runScenario(clairvoyantOf(scenario, spans), { ...options, clairvoyant: false });
    clairvoyant = { admissionsMs: other.trace.admissionsMs, requests: other.origin?.requests ?? [] };
  }
  return { objective: objectiveOf(scenario.settings), requests, spans, clairvoyant };
}
