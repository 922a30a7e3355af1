// Visitors: who arrives when, how each one uses the room, and what happened to them. Honest visitors
// follow the page (Retry-After plus the page's jitter); adversaries bend one rule each.
import { DENY_PAGE_TIMER } from '../src/core/decision/index.js';
import type { Actor, Trace } from './actor.js';
import { patience, sessionMs, thinkMs } from './arrivals.js';
import type { VirtualClock } from './clock.js';
import type { Random } from '../lib/random.js';
import type { Room, RoomAnswer } from './room.js';
import type { ProofPlayer } from './bot-farm.js';
import { countRequest, emptyTally, reloadsAfterWin } from './requests.js';
import { farmGroups, type Arrival, type Behaviour } from './visitors.js';

/** A check from the built-in page when it cannot solve (no proof players in the scenario): docs/bots.md. */
const CANNOT_SOLVE = { header: 'none', json: true } as const;

/** The built-in page's reload once its check is let in: the moment the check's answer takes to arrive. */
const RELOAD_MS = 500;

export type { Actor, Trace } from './actor.js';

/** What a crowd of several rooms needs from each room's population (rooms.ts). */
export interface PopulationHooks {
  /** Identities shared by every room's population, so two visitors never share one. */
  newIdentity?: () => string;
  /** A visitor was admitted (their first request to reach the origin). */
  onAdmit?: (actor: Actor, t: number) => void;
  /** The proof of work: what each request carries, and when a solving page checks (bot-farm.ts). */
  proof?: ProofPlayer;
}

export class Population {
  readonly trace: Trace = {
    actors: [],
    admissionsMs: [],
    admissionPops: [],
    drawsWon: 0,
    drawsLost: 0,
    drawLog: [],
    renewals: 0,
    reasons: new Map(),
  };
  private nextIp = 0;
  /** When each admitted actor stops browsing (ms). */
  private readonly sessionEnd = new Map<number, number>();

  constructor(
    private readonly room: Room,
    private readonly clock: VirtualClock,
    private readonly rng: Random,
    private readonly behaviour: Behaviour,
    /** Each POP's share of visitors (sums to 1); one POP when absent. */
    private readonly popShares: readonly number[] = [1],
    private readonly hooks: PopulationHooks = {},
  ) {}

  /** A POP for a new visitor, by the POPs' shares. */
  private pickPop(): number {
    let u = this.rng.next();
    for (let i = 0; i < this.popShares.length - 1; i++) {
      u -= this.popShares[i]!;
      if (u < 0) return i;
    }
    return this.popShares.length - 1;
  }

  /** A distinct IPv4 address per identity, as honest visitors each have their own. */
  private newIdentity(): string {
    if (this.hooks.newIdentity) return this.hooks.newIdentity();
    const n = ++this.nextIp;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  add(arrival: Arrival, handedJar?: string[]): Actor {
    const actor: Actor = {
      id: this.trace.actors.length,
      group: arrival.group,
      identity: arrival.identity ?? this.newIdentity(),
      pop: arrival.pop ?? (this.popShares.length === 1 ? 0 : this.pickPop()),
      arrivalMs: arrival.atMs,
      patienceMs: arrival.patienceMs,
      queuedMs: null,
      predicted: null,
      allowAtQueue: null,
      admittedMs: null,
      abandonedMs: null,
      lastRequestMs: null,
      heldWinner: false,
      drawnTokens: new Map(),
      draws: 0,
      handoverAdmitted: null,
      done: false,
      jars: [handedJar ? [...handedJar] : []],
      dueMs: [],
      nextJar: 0,
      cashedIn: false,
      prequeued: false,
      pos: null,
      placeShown: null,
      requests: emptyTally(),
      ...(arrival.lane === undefined ? {} : { lane: arrival.lane }),
    };
    this.trace.actors.push(actor);
    if (arrival.group === 'devices5') {
      // The other four devices join within the next three windows: each starts in its own jar.
      const d = this.room.waitPeriodSeconds * 1000;
      for (let i = 1; i < 5; i++) {
        actor.jars.push([]);
        this.clock.at(arrival.atMs + this.rng.uniform(0, 3 * d), (t) => this.visit(actor, i, t));
      }
    }
    if (arrival.group === 'twojars') actor.jars.push([]);
    const start = this.behaviour.eventStartMs;
    if (arrival.group === 'sharer' && start !== undefined && arrival.atMs < start) {
      // A few seconds after the start, a friend on another identity tries the sharer's pre-queue token.
      this.clock.at(start + this.rng.uniform(1000, 10_000), (t) => {
        if (actor.prequeued && actor.jars[0]!.length > 0)
          this.add({ atMs: t, group: 'replayer', patienceMs: patience(this.rng) }, actor.jars[0]);
      });
    }
    this.clock.at(arrival.atMs, (t) => this.visit(actor, 0, t));
    return actor;
  }

  private windowOf(ms: number): number {
    return Math.floor(ms / (this.room.waitPeriodSeconds * 1000));
  }

  private pastHorizon(actor: Actor, t: number): boolean {
    const h = this.behaviour.horizonWindows;
    return h !== null && this.windowOf(t) > this.windowOf(actor.arrivalMs) + h;
  }

  /** `reload`: the built-in page's reload after its winning check (Behaviour.reloadAfterWin). */
  private async visit(actor: Actor, device: number, t: number, reload = false): Promise<void> {
    if (actor.done) return;
    if (actor.admittedMs === null && this.pastHorizon(actor, t)) {
      actor.done = true;
      return;
    }
    if (actor.group === 'hoarder' && !actor.cashedIn) return this.hoard(actor, t);
    const jarIndex = actor.group === 'twojars' ? actor.nextJar : device;
    const jar = actor.jars[jarIndex]!;
    if (actor.group === 'clearer') jar.length = 0;
    const answer = await this.send(actor, jarIndex, t, reload);
    if (
      (actor.group === 'friend' || actor.group === 'replayer' || actor.group === 'hopper') &&
      actor.handoverAdmitted === null
    )
      actor.handoverAdmitted = answer.outcome === 'origin';

    if (answer.outcome === 'origin') {
      if (actor.admittedMs === null) {
        this.admit(actor, device, t);
        if (this.behaviour.reloadAfterWin && reloadsAfterWin(actor.group, actor.requests)) {
          this.clock.at(t + RELOAD_MS, (now) => this.visit(actor, device, now, true));
          return;
        }
      }
      this.browse(actor, device, t);
      return;
    }
    if (actor.admittedMs !== null) {
      // Another device of an admitted actor, still on the waiting page: it has what it wanted elsewhere.
      return;
    }
    this.wait(actor, device, t, answer);
  }

  /** One request with one jar: the cookie handling every visitor shares, and the draw bookkeeping. */
  private async send(actor: Actor, jarIndex: number, t: number, reload = false): Promise<RoomAnswer> {
    const jar = actor.jars[jarIndex]!;
    const presented = jar[0] ?? null;
    // Without proof players every page is the built-in one that cannot solve: its checks send `none`.
    const proof = this.hooks.proof
      ? this.hooks.proof.request(actor, presented, t)
      : presented === null
        ? undefined
        : CANNOT_SOLVE;
    // A lane invitation comes with the first request (its link); the lane's token carries it after.
    const lane = jar.length === 0 ? actor.lane : undefined;
    const answer = await this.room.request(actor.identity, jar, t, actor.pop, proof, lane);
    this.hooks.proof?.answered(actor, answer, t);
    countRequest(actor.requests, actor.group, answer, reload);
    actor.lastRequestMs = t;
    if (answer.reason === 'ceiling_held') actor.heldWinner = true;
    this.count(actor, answer, t, actor.dueMs[jarIndex] ?? null);
    if (answer.waitDueMs !== null) actor.dueMs[jarIndex] = answer.waitDueMs;
    if (answer.outcome === 'prequeue') actor.prequeued = true;
    if (answer.pos !== null) actor.pos = answer.pos;
    const place = answer.facts?.place ?? null;
    if (actor.placeShown === null && place !== null && place.ahead !== null) {
      actor.placeShown = { atMs: t, ahead: place.ahead, turnSeconds: place.turnSeconds };
    }
    if (answer.clearCookie) jar.length = 0;
    if (answer.setToken !== null) jar.splice(0, jar.length, answer.setToken);
    if (answer.reason === 'draw_won' || answer.reason === 'draw_lost') {
      actor.draws++;
      const w = this.windowOf(t);
      const seen = actor.drawnTokens.get(w) ?? new Set<string>();
      // The ticket drawn: a token past its grace window is drawn as the one it stands for.
      const drawn = answer.usedToken ?? presented;
      if (drawn !== null) seen.add(drawn);
      actor.drawnTokens.set(w, seen);
    }
    return answer;
  }

  /**
   * Before the cash-in: a fresh jar every window, so a new token each time and no draw spent while the
   * chance is low. At the cash-in, late in the window so every kept token is due: all jars at once.
   */
  private async hoard(actor: Actor, t: number): Promise<void> {
    const d = this.room.waitPeriodSeconds * 1000;
    const cashIn = this.behaviour.cashInMs ?? Number.POSITIVE_INFINITY;
    if (t < cashIn) {
      actor.jars.push([]);
      const answer = await this.send(actor, actor.jars.length - 1, t);
      if (actor.queuedMs === null && answer.outcome !== 'deny') actor.queuedMs = t;
      // Each hoarder cashes in at its own moment in the last seconds of the raise window, once every
      // kept token is due (offsets are under d - J - 2 seconds).
      const next = t + d < cashIn ? t + d : cashIn + d - this.rng.uniform(1000, 4000);
      this.clock.at(next, (now) => this.visit(actor, 0, now));
      return;
    }
    actor.cashedIn = true;
    let last: RoomAnswer | null = null;
    let lastJar = 0;
    for (let j = 0; j < actor.jars.length && actor.admittedMs === null; j++) {
      if (actor.jars[j]!.length === 0) continue;
      last = await this.send(actor, j, t);
      lastJar = j;
      if (last.outcome === 'origin') this.admit(actor, j, t);
    }
    if (actor.admittedMs !== null || last === null) {
      actor.done = true;
      return;
    }
    // From here on an ordinary visitor with the jar it used last.
    actor.jars = [actor.jars[lastJar]!];
    actor.dueMs = [actor.dueMs[lastJar] ?? null];
    this.wait(actor, 0, t, last);
  }

  private count(actor: Actor, answer: RoomAnswer, t: number, dueMs: number | null): void {
    const r = this.trace.reasons;
    r.set(answer.reason, (r.get(answer.reason) ?? 0) + 1);
    if (answer.reason === 'draw_won') this.trace.drawsWon++;
    if (answer.reason === 'draw_lost') this.trace.drawsLost++;
    if (answer.reason === 'draw_won' || answer.reason === 'draw_lost') {
      const late = dueMs !== null && this.windowOf(t) > this.windowOf(dueMs);
      this.trace.drawLog.push({ atMs: t, won: answer.reason === 'draw_won', group: actor.group, late });
    }
    if (answer.reason === 'allow_renewed') this.trace.renewals++;
  }

  private admit(actor: Actor, device: number, t: number): void {
    actor.admittedMs = t;
    this.trace.admissionsMs.push(t);
    this.trace.admissionPops.push(actor.pop);
    this.sessionEnd.set(actor.id, t + sessionMs(this.rng, this.behaviour));
    if (actor.group === 'holder') {
      // The holder passes its fresh allow token to a friend on another identity, who tries it at once.
      this.add({ atMs: t, group: 'friend', patienceMs: Infinity }, actor.jars[device]);
    }
    this.hooks.onAdmit?.(actor, t);
  }

  private browse(actor: Actor, device: number, t: number): void {
    const next = t + thinkMs(this.rng, this.behaviour);
    if (
      next > (this.sessionEnd.get(actor.id) ?? t) ||
      this.behaviour.horizonWindows !== null ||
      farmGroups.includes(actor.group)
    ) {
      // Adversary runs and bot farms stop at admission: what follows it is not what they are compared on.
      actor.done = true;
      return;
    }
    this.clock.at(next, (now) => this.visit(actor, device, now));
  }

  /**
   * When a check due at `dueMs` really happens, for visitors who come back late: a background tab's
   * timer fires on its own once-a-minute phase; any other page after its network delay.
   */
  private late(actor: Actor, dueMs: number): number {
    const late = this.behaviour.lateReturns;
    if (late === undefined || actor.group !== 'honest') return dueMs;
    if (actor.backgroundPhaseMs === undefined)
      actor.backgroundPhaseMs = this.rng.next() < late.backgroundShare ? this.rng.uniform(0, 60_000) : null;
    if (actor.backgroundPhaseMs === null) return dueMs + this.rng.uniform(0, late.delayMs);
    return dueMs + ((((actor.backgroundPhaseMs - dueMs) % 60_000) + 60_000) % 60_000);
  }

  private wait(actor: Actor, device: number, t: number, answer: RoomAnswer): void {
    // Patience counts from the first waiting page: a deny page or a countdown before a sale does not use it up.
    if (answer.outcome !== 'deny' && answer.outcome !== 'prequeue' && actor.queuedMs === null) {
      actor.queuedMs = t;
      actor.predicted = answer.facts?.estimate ?? null;
      actor.allowAtQueue = answer.allowPercentage;
    }
    // The deny page's own timer (pages/parts/deny.js) checks far less often: at least 300 s, plus a
    // jitter of at least 60 s, so a closed room is not polled by its whole crowd every window.
    const deny = answer.outcome === 'deny';
    const retryAfterSeconds = answer.facts?.retryAfterSeconds ?? this.room.waitPeriodSeconds;
    const retryAfterMs = (deny ? Math.max(retryAfterSeconds, DENY_PAGE_TIMER.seconds) : retryAfterSeconds) * 1000;
    const pageJitter = this.behaviour.jitterSeconds ?? this.room.jitterSeconds;
    const J = deny ? Math.max(pageJitter, DENY_PAGE_TIMER.jitterSeconds) : pageJitter;
    const jitterMs = this.behaviour.jitter ? this.rng.uniform(0, J * 1000) : 0;
    let next: number;
    switch (actor.group) {
      case 'refresher':
        next = t + 1000;
        break;
      case 'twojars':
        // Each jar comes back once a window, the two half a window apart: if windows could be
        // multiplied by jars, this is how.
        next = t + (this.room.waitPeriodSeconds * 1000) / 2;
        actor.nextJar = 1 - actor.nextJar;
        break;
      case 'farm':
      case 'farm-naive':
        next = t + retryAfterMs; // an app: on Retry-After exactly
        break;
      default:
        next = this.late(actor, t + retryAfterMs + jitterMs);
    }
    // A page that solves a proof of work checks once it is solved; a farm queues the work.
    next = this.hooks.proof?.nextCheck(actor, next) ?? next;
    // A winner the ceiling holds back has been told they are in: nobody leaves a second before that.
    if (answer.reason !== 'ceiling_held' && actor.queuedMs !== null && next > actor.queuedMs + actor.patienceMs) {
      if (actor.group === 'devices5' && device !== 0) return; // the owner's main device decides to leave
      actor.abandonedMs = actor.queuedMs + actor.patienceMs;
      actor.done = true;
      return;
    }
    this.clock.at(next, (now) => this.visit(actor, device, now));
  }
}
