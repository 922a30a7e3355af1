// The only file of the simulator that touches the room's core. Everything else talks to `Room`, so an
// API change in src/core is absorbed here. The simulator drives the REAL decision code: the same
// token signing, identity hashing, draw, ceiling and decision line a Fastly edge runs, and the same
// answer (answer.ts): the Retry-After, estimate and place in line the handler's page shows.
//
// A room is one or more POPs. Each has its own copy of the settings: a change published to the
// central store reaches a POP after that POP's delay, as Fastly's Config Store does, and each POP
// counts its own admissions for the ceiling.
import { createHash } from 'node:crypto';
import { answerFacts, type AnswerFacts } from '../src/core/answer/index.js';
import { createCeiling, decide, jitterSeconds, type ProofInput } from '../src/core/decision/index.js';
import { parseConfig, problemText } from '../src/core/settings/index.js';
import { createKeyRing, type KeyRing, proofSolution, type ProofClass } from '../src/core/tokens/index.js';
import { decisionLine, logWeight } from '../src/core/log/index.js';
import type { Config, Outcome, ReasonCode } from '../src/core/types.js';
import type { OriginAnswer } from './origin.js';
import { VirtualRateCounter } from './rate-counter.js';

export interface RoomAnswer {
  outcome: Outcome;
  reason: ReasonCode;
  /** The POP that answered (index into the room's POPs). */
  pop: number;
  /** allow_percentage in force at that POP when it answered. */
  allowPercentage: number;
  /** The cookie the response sets, if any. */
  setToken: string | null;
  /** The token the room used: the one presented, or for a holder back after its grace window the one it stands for. */
  usedToken: string | null;
  clearCookie: boolean;
  /** When the visitor's wait token falls due, i.e. can be drawn (ms), when known. */
  waitDueMs: number | null;
  /** The visitor's position in line (docs/events.md), null without a place. */
  pos: number | null;
  /**
   * What the waiting, countdown or deny page tells the visitor (Retry-After, estimate, place in line):
   * the handler's own answer, from the settings this POP has. Null when admitted.
   */
  facts: AnswerFacts | null;
  /**
   * The proof of work the answer asks for (docs/bots.md): the puzzle of the token the visitor now holds,
   * with its solution, which the simulator holds the key to know (it charges the work, it does not hash).
   */
  puzzle: SimPuzzle | null;
  /** What this request's draw brought when it asked for a proof, else null. */
  proofCheck: ProofClass | null;
  /** The answer is about a token of the infinite queue. */
  bot: boolean;
}

/** A puzzle and its solution: the 8 secret counters (a solver's work is their sum plus 8 digests). */
export interface SimPuzzle {
  token: string;
  seconds: number;
  counters: number[];
}

export interface PopSpec {
  name: string;
  /** How long a setting published to the central store takes to reach this POP, ms. */
  propagationMs: number;
}

export interface EdgeOptions {
  /** Default: one POP, "local", that sees every change at once. */
  pops?: readonly PopSpec[];
  /** Every decision line a POP logs (only while `log_endpoint` is set there), at virtual time `nowMs`. */
  onLine?: (pop: number, text: string, nowMs: number) => void;
  /**
   * The origin behind the room (origin-run.ts): every request the room forwards goes to it, at virtual
   * time `nowMs`, and its line, logged once the origin answered, says how. Absent: the origin answers
   * 200 at once and the lines say nothing of it.
   */
  origin?: (nowMs: number) => OriginAnswer;
}

export interface Room {
  /** Publish settings to the central store ('' removes a key); each POP sees them after its delay. */
  publish(values: Readonly<Record<string, string>>, nowMs: number): void;
  /** The central store's values now (what an operator or the controller reads). */
  central(): Record<string, string>;
  /** One request at virtual time `nowMs` (ms since the run began), answered by POP `pop`. */
  request(
    identity: string,
    tokens: readonly string[],
    nowMs: number,
    pop?: number,
    proof?: ProofInput,
    /** The lane of a valid lane invitation the request carries (the handler checks its signature: docs/lanes.md). */
    lane?: string,
  ): Promise<RoomAnswer>;
  readonly pops: readonly PopSpec[];
  /** J: the page's uniform jitter range, seconds (POP 0's settings). */
  readonly jitterSeconds: number;
  readonly waitPeriodSeconds: number;
  /** Number of decide() calls made, for the run's speed figure. */
  readonly decisions: number;
  /** Each distinct diagnostic the room's decisions reported (a first-come queue with no cursor yet). */
  readonly diagnostics: ReadonlySet<string>;
}

/**
 * Virtual time 0 is this instant (2026-01-01T00:00:00Z): a real-looking epoch for the tokens, and a
 * multiple of every window length the scenarios use, so simulated minute 0 starts a window.
 */
export const EPOCH_MS = Date.UTC(2026, 0, 1);

/**
 * Key bytes derived from the seed: a run's tokens (and so its draws) are reproducible, and a new seed
 * is a new key, i.e. an independent lottery. The event seed (the pre-queue's shuffle) likewise.
 */
export function simulatedKey(seed: string, use = 'key'): string {
  return createHash('sha512').update(`waiting-room-sim-${use}:${seed}`).digest('base64');
}

function load(values: ReadonlyMap<string, string>): Config {
  const { config, problems } = parseConfig((key) => values.get(key) ?? null);
  if (problems.length > 0) throw new Error(`bad simulated setting: ${problems.map(problemText).join('; ')}`);
  return config;
}

/**
 * One POP: its copy of the store, the changes on their way to it, its rate counter, and what it
 * parsed from the copy (`parse`: a room's settings here, the routing and every room's in service.ts).
 */
export class PopCopy<T> {
  readonly values: Map<string, string>;
  parsed: T;
  readonly counter = new VirtualRateCounter();
  private readonly pending: { atMs: number; values: Readonly<Record<string, string>> }[] = [];

  constructor(
    readonly spec: PopSpec,
    initial: ReadonlyMap<string, string>,
    private readonly parse: (values: ReadonlyMap<string, string>) => T,
  ) {
    this.values = new Map(initial);
    this.parsed = parse(this.values);
  }

  receive(values: Readonly<Record<string, string>>, publishedMs: number): void {
    this.pending.push({ atMs: publishedMs + this.spec.propagationMs, values });
  }

  /** What is in force at `nowMs`: changes arrive in the order they were published. */
  at(nowMs: number): T {
    let changed = false;
    while (this.pending.length > 0 && this.pending[0]!.atMs <= nowMs) {
      for (const [k, v] of Object.entries(this.pending.shift()!.values)) {
        if (v === '') this.values.delete(k);
        else this.values.set(k, v);
      }
      changed = true;
    }
    if (changed) this.parsed = this.parse(this.values);
    return this.parsed;
  }
}

/** What one request at one POP needs for the edge's decision (room.ts's room, service.ts's rooms). */
export interface EdgeDecisionInput {
  config: Config;
  keys: KeyRing;
  identity: string;
  tokens: string[];
  /** Virtual time, ms since the run began. */
  nowMs: number;
  pop: { name: string; index: number; counter: VirtualRateCounter };
  path: string;
  rule: string | null;
  edge: EdgeOptions;
  diag: (message: string) => void;
  diagnostics: Set<string>;
  /** The request's `waiting-room-proof` header and whether it asked for JSON; absent: neither. */
  proof?: ProofInput;
  /** The lane of a valid lane invitation the request carries; absent: none. */
  lane?: string;
}

/** The real decision, its decision line (while the POP logs), and the answer as the visitor sees it. */
export async function edgeDecision(input: EdgeDecisionInput): Promise<RoomAnswer> {
  const { config, edge, pop } = input;
  const epochMs = EPOCH_MS + input.nowMs;
  const ceiling =
    config.popAdmissionsPerSecond === null
      ? null
      : createCeiling(config.popAdmissionsPerSecond, pop.counter, input.diag);
  const logging = config.logEndpoint !== null && edge.onLine !== undefined;
  const result = await decide({
    config,
    keys: input.keys,
    identity: input.identity,
    tokens: input.tokens,
    nowMs: epochMs,
    ceiling,
    successors: logging,
    diag: (m) => void input.diagnostics.add(m),
    ...(input.proof ? { proof: input.proof } : {}),
    // As the handler passes a lane invitation it checked, against the room's lanes (docs/lanes.md).
    ...(input.lane !== undefined && config.lanes.some((l) => l.id === input.lane) ? { lane: input.lane } : {}),
  });
  const forwarded = result.outcome === 'origin' && edge.origin !== undefined ? edge.origin(input.nowMs) : null;
  // As the edge: a waiting decision is logged only for tokens in the sample (log_sample_rate), weighted.
  const weight = logging ? logWeight(result, config.logSampleRate) : null;
  if (weight !== null) {
    const line = decisionLine({
      nowMs: epochMs,
      pop: pop.name,
      room: config.room,
      rule: input.rule,
      waitPeriodSeconds: config.waitPeriodSeconds,
      decision: result.decision,
      outcome: result.outcome,
      reason: result.reason,
      kid: result.kid,
      method: 'GET',
      path: input.path,
      identity: 'ip',
      status: result.outcome === 'origin' ? originStatusOf(forwarded) : 429,
      ...originFields(forwarded),
      result,
      weight,
    });
    // The edge logs a forwarded request once the origin's headers came (or its failure).
    edge.onLine!(pop.index, line, input.nowMs + (forwarded?.ms ?? 0));
  }
  return {
    outcome: result.outcome,
    reason: result.reason,
    pop: pop.index,
    allowPercentage: config.allowPercentage,
    setToken: result.setToken,
    usedToken: result.used?.token ?? null,
    clearCookie: result.clearCookie,
    // The core speaks whole epoch seconds; the simulator, milliseconds since the run began.
    waitDueMs: result.waitDueSec === null ? null : result.waitDueSec * 1000 - EPOCH_MS,
    pos: result.place?.pos ?? null,
    // The simulated page times its return with its own jitter (population.ts), so the refresh
    // interval's share of it is left at 0.
    facts: result.outcome === 'origin' ? null : answerFacts(config, result, epochMs, () => 0),
    puzzle: await puzzleOf(input.keys, result),
    proofCheck: result.proofCheck,
    bot: result.bot,
  };
}

/** The status the visitor got for a forwarded request: the origin's, 502 when none came (the edge's own page). */
const originStatusOf = (forwarded: OriginAnswer | null): number =>
  forwarded === null ? 200 : typeof forwarded.status === 'number' ? forwarded.status : 502;

/** What a forwarded request's line says of the origin; nothing without one. */
function originFields(forwarded: OriginAnswer | null): {
  originMs?: number;
  originStatus?: OriginAnswer['status'];
  originError?: boolean;
} {
  if (forwarded === null) return {};
  return {
    originMs: forwarded.ms,
    originStatus: forwarded.status,
    ...(typeof forwarded.status === 'number' ? {} : { originError: true }),
  };
}

/** The puzzle of the token held after `result` (as decision/challenge.ts's withChallenge picks it), solved. */
async function puzzleOf(keys: KeyRing, result: Awaited<ReturnType<typeof decide>>): Promise<SimPuzzle | null> {
  const token = result.setToken ?? result.used?.token ?? null;
  if (result.proof === null || token === null || result.kid === null) return null;
  const key = await keys.verifyingKey(result.kid);
  if (key === null) return null;
  return { token, seconds: result.proof.seconds, counters: await proofSolution(token, key, result.proof.seconds) };
}

export function createRoom(settings: Record<string, string>, seed: string, edge: EdgeOptions = {}): Room {
  const central = new Map(Object.entries(settings));
  if (!central.has('active_key')) central.set('active_key', 'sim');
  const keyStore = new Map([
    [central.get('active_key')!, simulatedKey(seed)],
    ['event-seed', simulatedKey(seed, 'event-seed')],
  ]);
  const diagnostics = new Set<string>();
  const diag = (message: string): void => {
    throw new Error(`simulated room reported a problem: ${message}`);
  };
  const specs = edge.pops ?? [{ name: 'local', propagationMs: 0 }];
  const pops = specs.map((spec) => new PopCopy(spec, central, load));
  // A key ring memoises per request on the edge; the simulated store never changes, so one is reused.
  const keys = createKeyRing(async (kid) => keyStore.get(kid) ?? null, diag);
  let decisions = 0;

  return {
    pops: specs,
    publish(values, nowMs) {
      for (const [k, v] of Object.entries(values)) {
        if (v === '') central.delete(k);
        else central.set(k, v);
      }
      load(central); // a bad value fails the run where it was published, not at some POP later
      for (const pop of pops) pop.receive(values, nowMs);
    },
    central: () => Object.fromEntries(central),
    async request(identity, tokens, nowMs, popIndex = 0, proof, lane) {
      decisions++;
      const pop = pops[popIndex]!;
      const config = pop.at(nowMs);
      pop.counter.nowMs = nowMs;
      const where = { name: pop.spec.name, index: popIndex, counter: pop.counter };
      return edgeDecision({
        config,
        keys,
        identity,
        tokens: [...tokens],
        nowMs,
        pop: where,
        path: '/',
        rule: null,
        edge,
        diag,
        diagnostics,
        ...(proof ? { proof } : {}),
        ...(lane === undefined ? {} : { lane }),
      });
    },
    get jitterSeconds() {
      return jitterSeconds(pops[0]!.parsed);
    },
    get waitPeriodSeconds() {
      return pops[0]!.parsed.waitPeriodSeconds;
    },
    get decisions() {
      return decisions;
    },
    diagnostics,
  };
}
