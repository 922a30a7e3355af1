// A scenario with several rooms on one service (issue 21), start to finish on the virtual clock: one
// store (routing, service-wide settings, each room's), one edge that routes every request (service.ts),
// a population per room sharing the visitors' identities and browsers, visitors who go on from one
// room to another, and the one controller of every room (rooms-control.ts). The run is reported per room, each
// room's figures computed as a room alone's (figures.ts), plus the cross-room check.
import { storeFromSettings, mergeRoomSettings, readRoomRaws } from '../src/core/settings/index.js';
import { describeRouting } from '../lib/routing-describe.js';
import { patience } from './arrivals.js';
import { VirtualClock } from './clock.js';
import { popLayout } from './control.js';
import { Population, type Trace } from './population.js';
import { createRandom, type Random } from '../lib/random.js';
import type { Room } from './room.js';
import { roomControllers, type RoomControllers } from './rooms-control.js';
import type { RunOptions, RunResult } from './run-types.js';
import type { RoomsSpec, Scenario } from './scenario-types.js';
import { createService, type Service } from './service.js';

/** The store an operator's tools would write for these rooms (layout.ts). */
export function roomsStore(spec: RoomsSpec): Record<string, string> {
  const store: Record<string, string> = { routing: JSON.stringify(spec.routing), ...storeFromSettings(spec.service) };
  for (const room of spec.rooms) Object.assign(store, storeFromSettings(room.settings, room.id));
  return store;
}

/** Room `id`'s settings flat, as the edge merges them: what its section of the report shows. */
export function roomSettings(spec: RoomsSpec, id: string): Record<string, string> {
  const store = roomsStore(spec);
  return mergeRoomSettings(
    id,
    readRoomRaws((k) => store[k] ?? null, id),
    [],
  ).values;
}

/** Every room's traces as one (a visitor of two rooms counts in each): the scenario's own line. */
function mergedTrace(traces: readonly Trace[]): Trace {
  const reasons = new Map<string, number>();
  for (const t of traces) for (const [k, v] of t.reasons) reasons.set(k, (reasons.get(k) ?? 0) + v);
  return {
    actors: traces.flatMap((t) => t.actors),
    admissionsMs: traces.flatMap((t) => t.admissionsMs),
    admissionPops: traces.flatMap((t) => t.admissionPops),
    drawsWon: traces.reduce((s, t) => s + t.drawsWon, 0),
    drawsLost: traces.reduce((s, t) => s + t.drawsLost, 0),
    drawLog: traces.flatMap((t) => t.drawLog),
    renewals: traces.reduce((s, t) => s + t.renewals, 0),
    reasons,
  };
}

/** The service, its rooms as rooms alone and, in a controlled scenario, the one controller of them all, started. */
function startService(
  scenario: Scenario,
  spec: RoomsSpec,
  seed: string,
  clock: VirtualClock,
  layout: ReturnType<typeof popLayout> | null,
): { service: Service; rooms: Map<string, Room>; controllers: RoomControllers | null } {
  let controllers: RoomControllers | null = null;
  const service = createService(roomsStore(spec), seed, {
    ...(layout ? { pops: layout.pops } : {}),
    onLine: (pop, text, nowMs) => controllers?.line(pop, text, nowMs),
  });
  const rooms = new Map<string, Room>(spec.rooms.map((r) => [r.id, service.room(r.id, r.paths)]));
  if (scenario.control && layout) {
    controllers = roomControllers(service, [...rooms.keys()], clock, scenario.control, layout.logDelays, service.check);
    controllers.start(0, scenario.durationMs);
  }
  return { service, rooms, controllers };
}

/**
 * A population per room, sharing the visitors' identities: a visitor admitted to one room goes on to
 * the next of its journeys as the spec's shares say, a hopper with the token it holds.
 */
function populationsOf(
  scenario: Scenario,
  spec: RoomsSpec,
  rooms: ReadonlyMap<string, Room>,
  clock: VirtualClock,
  rng: Random,
  shares: number[] | undefined,
): Map<string, Population> {
  let nextIp = 0;
  const newIdentity = (): string => {
    const n = ++nextIp;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  };
  const journeyRng = rng.fork('journeys');
  const populations = new Map<string, Population>();
  for (const r of spec.rooms) {
    const onAdmit = (actor: { identity: string; pop: number; jars: string[][] }, t: number): void => {
      for (const j of spec.journeys.filter((x) => x.from === r.id)) {
        if (journeyRng.next() >= j.share) continue;
        const hopper = journeyRng.next() < j.hopperShare;
        const at = t + journeyRng.uniform(j.afterMs[0], j.afterMs[1]);
        const patienceMs = patience(journeyRng);
        // A hopper copies the token it holds in `from` at that moment into `to`'s cookie.
        clock.at(
          at,
          (now) =>
            void populations.get(j.to)!.add(
              {
                atMs: now,
                group: hopper ? 'hopper' : 'honest',
                patienceMs,
                identity: actor.identity,
                pop: actor.pop,
              },
              hopper ? [...actor.jars[0]!] : undefined,
            ),
        );
      }
    };
    populations.set(
      r.id,
      new Population(rooms.get(r.id)!, clock, rng.fork(`behaviour/${r.id}`), scenario.behaviour, shares, {
        newIdentity,
        onAdmit,
      }),
    );
  }
  return populations;
}

/** Room `r`'s run as a room alone's, for its own section of the report. */
function roomResult(
  scenario: Scenario,
  spec: RoomsSpec,
  r: RoomsSpec['rooms'][number],
  base: Omit<RunResult, 'scenario' | 'visitors' | 'trace' | 'waitPeriodSeconds' | 'control' | 'decisions'>,
  run: { room: Room; trace: Trace; controllers: RoomControllers | null },
): RunResult {
  const roomScenario: Scenario = {
    ...scenario,
    name: `${scenario.name}-${r.id}`,
    title: `${scenario.title}: room ${r.id}`,
    summary: r.summary,
    settings: roomSettings(spec, r.id),
    changes: [],
    rooms: undefined,
  };
  return {
    ...base,
    scenario: roomScenario,
    visitors: run.trace.actors.length,
    trace: run.trace,
    waitPeriodSeconds: run.room.waitPeriodSeconds,
    control: run.controllers?.traces.get(r.id) ?? null,
    decisions: run.room.decisions,
  };
}

export async function runRooms(scenario: Scenario, spec: RoomsSpec, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const visitors = options.visitors ?? scenario.visitors;
  const rng = createRandom(`${options.seed}/${scenario.name}`);
  const clock = new VirtualClock();
  const layout = scenario.control ? popLayout(scenario.control, rng.fork('pops')) : null;
  const { service, rooms, controllers } = startService(scenario, spec, options.seed, clock, layout);
  const populations = populationsOf(scenario, spec, rooms, clock, rng, layout?.shares);
  for (const arrival of scenario.arrivals(rng.fork('arrivals'), visitors))
    populations.get(spec.rooms[0]!.id)!.add(arrival);
  for (const d of spec.direct)
    for (const arrival of d.arrivals(rng.fork(`arrivals/${d.room}`), visitors)) populations.get(d.room)!.add(arrival);
  await clock.run(scenario.durationMs);
  controllers?.finish();

  const elapsedMs = performance.now() - started;
  const base = {
    seed: options.seed,
    pops: rooms.get(spec.rooms[0]!.id)!.pops,
    popShares: layout?.shares ?? [1],
    logDelaysMs: layout?.logDelays ?? [0],
    elapsedMs,
    diagnostics: [...rooms.get(spec.rooms[0]!.id)!.diagnostics],
  };
  const perRoom = spec.rooms.map((r) => ({
    id: r.id,
    result: roomResult(scenario, spec, r, base, {
      room: rooms.get(r.id)!,
      trace: populations.get(r.id)!.trace,
      controllers,
    }),
  }));
  return {
    ...base,
    scenario,
    visitors,
    trace: mergedTrace(perRoom.map((r) => r.result.trace)),
    waitPeriodSeconds: perRoom[0]!.result.waitPeriodSeconds,
    control: null,
    decisions: service.decisions,
    rooms: { rooms: perRoom, crossRoom: service.check.figures, routing: describeRouting(service.routing) },
  };
}
