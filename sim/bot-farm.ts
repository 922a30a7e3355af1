// The proof of work's players (docs/bots.md): honest pages that solve on the visitor's device before
// they check, and a bot farm: ONE operator with many identities (distinct IPs), each an app that
// follows the JSON answer exactly, all sharing the farm's CPU.
//
// Nothing here hashes. The room's answer carries the puzzle's solution (room.ts: the simulator holds
// the key, and proof.ts's own functions give the secret counters), and a solver's work is exact: it
// tries counters 0..N_i of each of the 8 sub-challenges, so sum(N_i) + 8 SHA-256 digests. That work is
// charged against the device's rate (an honest page) or the farm's budget, on the virtual clock.
import { PHONE_RATE } from '../src/core/tokens/index.js';
import type { ProofInput } from '../src/core/decision/index.js';
import type { Actor } from './actor.js';
import type { RoomAnswer, SimPuzzle } from './room.js';
import type { Group } from './visitors.js';
import { MinHeap } from './min-heap.js';

/** What each request of an actor carries for the proof, and when its next check really happens. */
export interface ProofPlayer {
  /** The `waiting-room-proof` header (null: none sent) and whether the request asks for JSON. */
  request(actor: Actor, presented: string | null, t: number): ProofInput | undefined;
  /** What the answer brought: a puzzle to solve, and how its draw was judged. */
  answered(actor: Actor, answer: RoomAnswer, t: number): void;
  /** When the actor's next check happens, planned for `plannedMs`: not before its solution is ready. */
  nextCheck(actor: Actor, plannedMs: number): number;
}

/** The devices and the farm of a scenario. */
export interface BotSpec {
  /** The farm's native cores, and each one's SHA-256 digests a second (`openssl speed sha256`, 64-byte blocks). */
  cores: number;
  coreRate: number;
  /** Digests a second of the built-in solver on a phone (PHONE_RATE) and on a laptop. */
  phoneRate: number;
  laptopRate: number;
}

/** ~6 million SHA-256 a second a core: `openssl speed sha256` on one core of this machine, small blocks. */
export const NATIVE_CORE_RATE = 6_000_000;

export const defaultBotSpec: BotSpec = {
  cores: 8,
  coreRate: NATIVE_CORE_RATE,
  phoneRate: PHONE_RATE,
  laptopRate: 4 * PHONE_RATE,
};

/** A solver's exact work for a puzzle: every counter up to the secret one, in each sub-challenge. */
export const workOf = (p: SimPuzzle): number => p.counters.reduce((a, n) => a + n + 1, 0);

const solutionOf = (p: SimPuzzle): string => p.counters.join('.');

/** One token's solution the farm works on: due when its identity comes back. */
interface Job {
  actor: number;
  token: string;
  solution: string;
  dueMs: number;
  /** Digests still to compute. */
  left: number;
  doneMs: number | null;
  /** Given up (its identity came back, or it could not be ready in time): skipped in the heap. */
  dropped: boolean;
}

/** What the farm did: the run's figures come from here. */
export interface FarmTrace {
  cores: number;
  coreRate: number;
  /** Puzzles handed to the farm's identities, and solutions it completed in time. */
  tokens: number;
  solutions: number;
  /** Puzzles given up unstarted or half done because they could not be ready when due. */
  givenUp: number;
  /** Digests computed (solved or not), and the first and last moment the farm had work (ms). */
  digests: number;
  firstJobMs: number | null;
  lastJobMs: number | null;
}

/**
 * The farm's CPU: C cores at R digests a second each, one budget for all its identities. Solutions are
 * worked in order of their tokens' due times (the earliest first, preempting a later one); a solution
 * that cannot be ready by its due time is not started (or not finished): it would be sent too late.
 */
export class Farm {
  readonly trace: FarmTrace;
  private readonly rate: number;
  /** Jobs by due time. */
  private readonly heap = new MinHeap<Job>((a, b) => a.dueMs < b.dueMs);
  private readonly jobs = new Map<number, Job>();
  /** The farm has worked up to this moment (ms). */
  private clockMs = 0;

  constructor(spec: BotSpec) {
    this.rate = spec.cores * spec.coreRate;
    this.trace = {
      cores: spec.cores,
      coreRate: spec.coreRate,
      tokens: 0,
      solutions: 0,
      givenUp: 0,
      digests: 0,
      firstJobMs: null,
      lastJobMs: null,
    };
  }

  /** A new puzzle for identity `actor`, whose solution is wanted at `dueMs`. */
  add(actor: number, puzzle: SimPuzzle, t: number, dueMs: number): void {
    this.advance(t);
    const old = this.jobs.get(actor);
    if (old !== undefined && old.token === puzzle.token) return;
    if (old !== undefined) old.dropped = true;
    const job: Job = {
      actor,
      token: puzzle.token,
      solution: solutionOf(puzzle),
      dueMs,
      left: workOf(puzzle),
      doneMs: null,
      dropped: false,
    };
    this.jobs.set(actor, job);
    this.heap.push(job);
    this.trace.tokens++;
    this.trace.firstJobMs ??= t;
  }

  /** Identity `actor` comes back at `t` holding `token`: its solution if the farm has it ready. */
  collect(actor: number, token: string | null, t: number): string | null {
    this.advance(t);
    const job = this.jobs.get(actor);
    if (job === undefined || job.token !== token) return null;
    this.jobs.delete(actor);
    if (job.doneMs !== null) return job.solution;
    if (!job.dropped) this.trace.givenUp++;
    job.dropped = true;
    return null;
  }

  /** Work from the farm's clock up to `t`: the earliest-due job first. */
  private advance(t: number): void {
    for (let job = this.heap.peek(); this.clockMs < t && job !== undefined; job = this.heap.peek()) {
      if (job.dropped) {
        this.heap.pop();
        continue;
      }
      const finishMs = this.clockMs + (job.left / this.rate) * 1000;
      if (finishMs > job.dueMs) {
        // It cannot be ready in time: the farm spends nothing more on it.
        job.dropped = true;
        this.trace.givenUp++;
        this.heap.pop();
        continue;
      }
      if (finishMs <= t) {
        this.trace.digests += job.left;
        job.left = 0;
        job.doneMs = finishMs;
        this.clockMs = finishMs;
        this.trace.solutions++;
        this.trace.lastJobMs = finishMs;
        this.heap.pop();
      } else {
        const done = ((t - this.clockMs) / 1000) * this.rate;
        job.left -= done;
        this.trace.digests += done;
        this.clockMs = t;
      }
    }
    if (this.clockMs < t) this.clockMs = t;
  }
}

/** How each group's draws were judged (valid, failed, skipped, missing), for the figures. */
export type ProofCounts = Partial<Record<Group, Record<string, number>>>;

/**
 * The players of a scenario with a proof of work: honest pages (phone, laptop: solve at the device's
 * rate as soon as the page has the puzzle, and check once both the Retry-After and the solve are
 * over; nojs: never a proof) and the farm's identities (smart: `none` when the farm has no solution
 * ready; naive: no header at all).
 */
export class ProofPlayers implements ProofPlayer {
  readonly farm: Farm;
  readonly checks: ProofCounts = {};
  /** The draws of `checks` that won. */
  readonly wins: ProofCounts = {};
  /** Per actor: the puzzle of its last answer, and for a page the solution it holds and when it is ready. */
  private readonly puzzles = new Map<number, SimPuzzle>();
  private readonly solved = new Map<number, { token: string; solution: string; readyMs: number }>();

  constructor(private readonly spec: BotSpec) {
    this.farm = new Farm(spec);
  }

  request(actor: Actor, presented: string | null, t: number): ProofInput | undefined {
    switch (actor.group) {
      case 'farm':
      case 'farm-naive': {
        const solution = this.farm.collect(actor.id, presented, t);
        if (solution !== null) return { header: solution, json: true };
        return { header: actor.group === 'farm' ? 'none' : null, json: true };
      }
      case 'phone':
      case 'laptop': {
        // As the built-in page: its first load carries no cookie and no header; every check after is its
        // script's JSON fetch with the header, the solution of the token it holds or `none` without one.
        if (presented === null) return { header: null, json: false };
        const s = this.solved.get(actor.id);
        return { header: s !== undefined && s.token === presented && s.readyMs <= t ? s.solution : 'none', json: true };
      }
      default:
        return undefined;
    }
  }

  answered(actor: Actor, answer: RoomAnswer, t: number): void {
    if (answer.proofCheck !== null) {
      const counts = (this.checks[actor.group] ??= {});
      counts[answer.proofCheck] = (counts[answer.proofCheck] ?? 0) + 1;
      if (answer.reason === 'draw_won') {
        const won = (this.wins[actor.group] ??= {});
        won[answer.proofCheck] = (won[answer.proofCheck] ?? 0) + 1;
      }
    }
    if (answer.puzzle === null) {
      this.puzzles.delete(actor.id);
      return;
    }
    this.puzzles.set(actor.id, answer.puzzle);
    const rate = actor.group === 'phone' ? this.spec.phoneRate : actor.group === 'laptop' ? this.spec.laptopRate : null;
    if (rate === null || this.solved.get(actor.id)?.token === answer.puzzle.token) return;
    // The page's Web Worker starts at once; its CPU time is the visitor's battery.
    const seconds = workOf(answer.puzzle) / rate;
    actor.solveSeconds = (actor.solveSeconds ?? 0) + seconds;
    this.solved.set(actor.id, {
      token: answer.puzzle.token,
      solution: solutionOf(answer.puzzle),
      readyMs: t + seconds * 1000,
    });
  }

  nextCheck(actor: Actor, plannedMs: number): number {
    const puzzle = this.puzzles.get(actor.id);
    if (puzzle === undefined) return plannedMs;
    if (actor.group === 'farm' || actor.group === 'farm-naive') {
      this.farm.add(actor.id, puzzle, actor.lastRequestMs ?? plannedMs, plannedMs);
      return plannedMs;
    }
    const s = this.solved.get(actor.id);
    return s !== undefined && s.token === puzzle.token ? Math.max(plannedMs, s.readyMs) : plannedMs;
  }
}
