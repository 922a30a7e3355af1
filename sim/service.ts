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
import { cookieName, splitRoomCookie, requestFacts } from '../src/core/request/index.js';
import { jitterSeconds } from '../src/core/decision/index.js';
import { createKeyRing, type KeyRing } from '../src/core/tokens/index.js';
import { parseRouting, routeRequest, type Routing } from '../src/core/routing/index.js';
import type { Config } from '../src/core/types.js';
import { CrossRoomCheck, type ServiceAnswer } from './cross-room.js';
import { edgeDecision, PopCopy, type PopSpec, simulatedKey, type EdgeOptions, type Room } from './room.js';
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

/** A problem the edge would only log is a broken simulation: the run stops on it. */
const fail = (message: string): never => {
  throw new Error(`simulated service reported a problem: ${message}`);
};

/** Where a request went when the routing gave it no room: straight to the origin, as the edge sends it. */
function originAnswer(reason: 'rule_bypass' | 'no_room', pop: number): ServiceAnswer {
  return {
    room: null,
    outcome: 'origin',
    reason,
    pop,
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

/** The store, each POP's copy of it, each POP's rate counters and the visitors' browsers: the service one run drives. */
class SimulatedService implements Service {
  readonly check = new CrossRoomCheck();
  /** Each visitor's browser: every room cookie it holds, by name. */
  readonly browsers = new Map<string, Map<string, string>>();
  readonly diagnostics = new Set<string>();
  readonly specs: readonly PopSpec[];
  readonly pops: PopCopy<Edge>[];
  private readonly counters: Map<string, VirtualRateCounter>[];
  private readonly keys: KeyRing;
  private requests = 0;

  constructor(
    readonly store: Map<string, string>,
    seed: string,
    private readonly edge: EdgeOptions,
  ) {
    const keyStore = new Map([
      ['sim', simulatedKey(seed)],
      ['event-seed', simulatedKey(seed, 'event-seed')],
    ]);
    this.specs = edge.pops ?? [{ name: 'local', propagationMs: 0 }];
    this.pops = this.specs.map((spec) => new PopCopy(spec, store, loadEdge));
    // Each POP counts each room's admissions for that room's ceiling.
    this.counters = this.specs.map(() => new Map<string, VirtualRateCounter>());
    this.keys = createKeyRing(async (kid) => keyStore.get(kid) ?? null, fail);
  }

  publish(values: Readonly<Record<string, string>>, nowMs: number): void {
    for (const [k, v] of Object.entries(values)) {
      if (v === '') this.store.delete(k);
      else this.store.set(k, v);
    }
    loadEdge(this.store); // a bad value fails the run where it was published
    for (const pop of this.pops) pop.receive(values, nowMs);
  }

  central(): Record<string, string> {
    return Object.fromEntries(this.store);
  }

  get routing(): Routing {
    return this.pops[0]!.parsed.routing;
  }

  get decisions(): number {
    return this.requests;
  }

  async request(
    identity: string,
    path: string,
    cookieHeader: string | null,
    nowMs: number,
    popIndex: number,
  ): Promise<ServiceAnswer> {
    this.requests++;
    const pop = this.pops[popIndex]!;
    const { routing, configs } = pop.at(nowMs);
    const url = new URL(`https://${SIM_HOST}${path}`);
    const request = new Request(url, cookieHeader === null ? {} : { headers: { cookie: cookieHeader } });
    const target = await routeRequest(
      routing,
      requestFacts(request, url, cookieHeader, identity, null, (m) => void this.diagnostics.add(m)),
    );
    const room = target.kind === 'room' ? target.room : null;
    const rule = target.kind === 'none' ? null : target.rule;
    const config = room === null ? null : configs.get(room);
    if (config === undefined || config === null)
      return originAnswer(target.kind === 'bypass' ? 'rule_bypass' : 'no_room', popIndex);
    const where = { name: pop.spec.name, index: popIndex, counter: this.counter(popIndex, config.room!, nowMs) };
    const tokens = splitRoomCookie(cookieHeader, room).tokens;
    return {
      room,
      ...(await edgeDecision({
        config,
        keys: this.keys,
        identity,
        tokens,
        nowMs,
        pop: where,
        path,
        rule,
        edge: this.edge,
        diag: fail,
        diagnostics: this.diagnostics,
      })),
    };
  }

  room(id: string, paths: readonly string[]): Room {
    return new ServiceRoom(this, id, paths);
  }

  /** POP `popIndex`'s admission counter for `room`, at virtual time `nowMs`. */
  private counter(popIndex: number, room: string, nowMs: number): VirtualRateCounter {
    let counter = this.counters[popIndex]!.get(room);
    if (counter === undefined) this.counters[popIndex]!.set(room, (counter = new VirtualRateCounter()));
    counter.nowMs = nowMs;
    return counter;
  }
}

/**
 * Room `id` of the service as a room alone: its visitors ask for `paths` in turn, and their browsers
 * send every room's cookie, this room's being the ones its population keeps.
 */
class ServiceRoom implements Room {
  private turn = 0;
  private roomDecisions = 0;
  private readonly own: string;

  constructor(
    private readonly service: SimulatedService,
    private readonly id: string,
    private readonly paths: readonly string[],
  ) {
    this.own = cookieName(id);
  }

  get pops(): readonly PopSpec[] {
    return this.service.specs;
  }

  get diagnostics(): ReadonlySet<string> {
    return this.service.diagnostics;
  }

  /** The room's settings flat, as the edge merges them; a flat write goes where layout.ts puts it. */
  central(): Record<string, string> {
    const { store } = this.service;
    return mergeRoomSettings(
      this.id,
      readRoomRaws((k) => store.get(k) ?? null, this.id),
      [],
    ).values;
  }

  /** Only the controller's Writer writes the store, in its keys (Service.publish): a room's flat view is read-only. */
  publish(): void {
    throw new Error(
      `room ${this.id} of the simulated service is written through the store's keys (Service.publish), as the controller's Writer does`,
    );
  }

  async request(identity: string, tokens: readonly string[], nowMs: number, pop = 0): Promise<ServiceAnswer> {
    this.roomDecisions++;
    const path = this.paths[this.turn++ % this.paths.length]!;
    const { browsers, check } = this.service;
    const jar = browsers.get(identity) ?? new Map<string, string>();
    browsers.set(identity, jar);
    // The browser sends every room's cookie; this room's are the ones its population keeps.
    const pairs = [
      ...[...jar].filter(([name]) => name !== this.own).map(([name, value]) => `${name}=${value}`),
      ...tokens.map((t) => `${this.own}=${t}`),
    ];
    const answer = await this.service.request(identity, path, pairs.length === 0 ? null : pairs.join('; '), nowMs, pop);
    check.observe(this.id, identity, tokens, answer, nowMs);
    if (answer.setToken !== null) jar.set(this.own, answer.setToken);
    else if (answer.clearCookie) jar.delete(this.own);
    else if (tokens.length > 0) jar.set(this.own, tokens[0]!);
    return answer;
  }

  get jitterSeconds(): number {
    return jitterSeconds(this.config());
  }

  get waitPeriodSeconds(): number {
    return this.config().waitPeriodSeconds;
  }

  get decisions(): number {
    return this.roomDecisions;
  }

  private config(): Config {
    return this.service.pops[0]!.parsed.configs.get(this.id)!;
  }
}

export function createService(store: Record<string, string>, seed: string, edge: EdgeOptions = {}): Service {
  return new SimulatedService(new Map(Object.entries(store)), seed, edge);
}
