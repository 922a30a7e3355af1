// Several rooms on one service, as the edge runs them (issue 21): the store holds `routing`,
// `settings` and each room's values (layout.ts); every request is put in its room by the real
// routing (parseRouting, routeRequest), decided with that room's settings as the edge merges them
// (parseRoomConfig), with the room's own cookie picked out of the browser's Cookie header
// (splitRoomCookie), and logged on one decision-line stream that names the room.
//
// Each room is also seen through the `Room` interface room.ts gives a single room, so the population
// drives a room of a service as it drives a room alone: the room's settings read flat, as the edge
// merges them. The store is written only in its own keys (`publish`): by the controller's Writer.
import {
  describeProblem,
  parseRoomConfig,
  mergeRoomSettings,
  readRoomRaws,
  ROUTING_KEY,
} from '../src/core/settings/index.js';
import { cookieName, splitRoomCookie } from '../src/core/request/index.js';
import { jitterSeconds } from '../src/core/decision/index.js';
import { createKeyRing } from '../src/core/tokens/index.js';
import { requestFacts } from '../src/core/request/index.js';
import { parseRouting, routeRequest, type Routing } from '../src/core/routing/index.js';
import type { Config } from '../src/core/types.js';
import { CrossRoomCheck, type ServiceAnswer } from './cross-room.js';
import { edgeDecision, PopCopy, simulatedKey, type EdgeOptions, type Room } from './room.js';
import { VirtualRateCounter } from './rate-counter.js';

/** What one POP made of its copy of the store: the routing and each room's settings. */
interface Edge {
  routing: Routing;
  configs: ReadonlyMap<string, Config>;
}

function loadEdge(values: ReadonlyMap<string, string>): Edge {
  const get = (key: string): string | null => values.get(key) ?? null;
  const { routing, problems } = parseRouting(get(ROUTING_KEY));
  if (routing === null || problems.length > 0) {
    throw new Error(
      `bad simulated routing: ${problems.map((p) => `${p.rule ?? p.room ?? ''} ${p.message}`).join('; ')}`,
    );
  }
  const configs = new Map<string, Config>();
  for (const id of routing.roomIds) {
    const parsed = parseRoomConfig(id, readRoomRaws(get, id));
    if (parsed.problems.length > 0)
      throw new Error(`bad simulated setting: ${parsed.problems.map(describeProblem).join('; ')}`);
    configs.set(id, parsed.config);
  }
  return { routing, configs };
}

export interface Service {
  /** Publish store values ('' removes a key); each POP sees them after its delay. */
  publish(values: Readonly<Record<string, string>>, nowMs: number): void;
  central(): Record<string, string>;
  /** One request for `path` with the browser's Cookie header, at virtual time `nowMs`, at POP `pop`. */
  request(
    identity: string,
    path: string,
    cookieHeader: string | null,
    nowMs: number,
    pop: number,
  ): Promise<ServiceAnswer>;
  /** Room `id` as a room alone: its visitors ask for `paths` (in turn) and keep their other rooms' cookies. */
  room(id: string, paths: readonly string[]): Room;
  /** The routing as an operator reads it (describeRouting), at POP 0. */
  readonly routing: Routing;
  readonly decisions: number;
  /** Whether a visitor admitted in one room got into another on it (cross-room.ts). */
  readonly check: CrossRoomCheck;
}

/** The host every simulated request names; routes here match on paths. */
export const SIM_HOST = 'shop.example.com';

export function createService(store: Record<string, string>, seed: string, edge: EdgeOptions = {}): Service {
  const central = new Map(Object.entries(store));
  const keyStore = new Map([
    ['sim', simulatedKey(seed)],
    ['event-seed', simulatedKey(seed, 'event-seed')],
  ]);
  const fail = (message: string): never => {
    throw new Error(`simulated service reported a problem: ${message}`);
  };
  const diagnostics = new Set<string>();
  const specs = edge.pops ?? [{ name: 'local', propagationMs: 0 }];
  const pops = specs.map((spec) => new PopCopy(spec, central, loadEdge));
  // Each POP counts each room's admissions for that room's ceiling.
  const counters = specs.map(() => new Map<string, VirtualRateCounter>());
  const keys = createKeyRing(async (kid) => keyStore.get(kid) ?? null, fail);
  // Each visitor's browser: every room cookie it holds, by name.
  const browsers = new Map<string, Map<string, string>>();
  const check = new CrossRoomCheck();
  let decisions = 0;

  const service: Service = {
    publish(values, nowMs) {
      for (const [k, v] of Object.entries(values)) {
        if (v === '') central.delete(k);
        else central.set(k, v);
      }
      loadEdge(central); // a bad value fails the run where it was published
      for (const pop of pops) pop.receive(values, nowMs);
    },
    central: () => Object.fromEntries(central),
    get routing() {
      return pops[0]!.parsed.routing;
    },
    get decisions() {
      return decisions;
    },
    check,

    async request(identity, path, cookieHeader, nowMs, popIndex) {
      decisions++;
      const pop = pops[popIndex]!;
      const { routing, configs } = pop.at(nowMs);
      const url = new URL(`https://${SIM_HOST}${path}`);
      const request = new Request(url, cookieHeader === null ? {} : { headers: { cookie: cookieHeader } });
      const target = await routeRequest(
        routing,
        requestFacts(request, url, cookieHeader, identity, null, (m) => void diagnostics.add(m)),
      );
      const room = target.kind === 'room' ? target.room : null;
      const rule = target.kind === 'none' ? null : target.rule;
      const config = room === null ? null : configs.get(room);
      if (config === undefined || config === null) {
        return {
          room: null,
          outcome: 'origin',
          reason: target.kind === 'bypass' ? 'rule_bypass' : 'no_room',
          pop: popIndex,
          allowPercentage: 100,
          setToken: null,
          usedToken: null,
          clearCookie: false,
          waitDueMs: null,
          pos: null,
          facts: null,
          puzzle: null,
          proofCheck: null,
          bot: false,
        };
      }
      let counter = counters[popIndex]!.get(config.room!);
      if (counter === undefined) counters[popIndex]!.set(config.room!, (counter = new VirtualRateCounter()));
      counter.nowMs = nowMs;
      const where = { name: pop.spec.name, index: popIndex, counter };
      const tokens = splitRoomCookie(cookieHeader, room).tokens;
      return {
        room,
        ...(await edgeDecision({
          config,
          keys,
          identity,
          tokens,
          nowMs,
          pop: where,
          path,
          rule,
          edge,
          diag: fail,
          diagnostics,
        })),
      };
    },

    room(id, paths) {
      let turn = 0;
      let roomDecisions = 0;
      const own = cookieName(id);
      const config = (): Config => pops[0]!.parsed.configs.get(id)!;
      return {
        pops: specs,
        // The room's settings flat, as the edge merges them; a flat write goes where layout.ts puts it.
        central: () =>
          mergeRoomSettings(
            id,
            readRoomRaws((k) => central.get(k) ?? null, id),
            [],
          ).values,
        // Only the controller's Writer writes the store, in its keys (Service.publish): a room's flat view is read-only.
        publish: () => {
          throw new Error(
            `room ${id} of the simulated service is written through the store's keys (Service.publish), as the controller's Writer does`,
          );
        },
        async request(identity, tokens, nowMs, pop = 0) {
          roomDecisions++;
          const path = paths[turn++ % paths.length]!;
          const jar = browsers.get(identity) ?? new Map<string, string>();
          browsers.set(identity, jar);
          // The browser sends every room's cookie; this room's are the ones its population keeps.
          const pairs = [
            ...[...jar].filter(([name]) => name !== own).map(([name, value]) => `${name}=${value}`),
            ...tokens.map((t) => `${own}=${t}`),
          ];
          const answer = await service.request(
            identity,
            path,
            pairs.length === 0 ? null : pairs.join('; '),
            nowMs,
            pop,
          );
          check.observe(id, identity, tokens, answer, nowMs);
          if (answer.setToken !== null) jar.set(own, answer.setToken);
          else if (answer.clearCookie) jar.delete(own);
          else if (tokens.length > 0) jar.set(own, tokens[0]!);
          return answer;
        },
        get jitterSeconds() {
          return jitterSeconds(config());
        },
        get waitPeriodSeconds() {
          return config().waitPeriodSeconds;
        },
        get decisions() {
          return roomDecisions;
        },
        diagnostics,
      };
    },
  };
  return service;
}
