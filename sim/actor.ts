// What the simulator knows of each visitor (Actor) and of the run (Trace): the records population.ts
// keeps as it plays the crowd, and the figures read.
import type { WaitEstimate } from '../src/core/answer/index.js';
import type { RequestTally } from './requests.js';
import type { Group } from './visitors.js';

/** One person (or bot operator): one identity, one or more devices or cookie jars. */
export interface Actor {
  id: number;
  group: Group;
  identity: string;
  /** The POP this visitor's requests reach (index into the room's POPs). */
  pop: number;
  arrivalMs: number;
  patienceMs: number;
  /** First waiting page: patience counts from here (a deny page before an on-sale does not use it up). */
  queuedMs: number | null;
  /** What the first waiting page showed, and the allow_percentage at that moment. */
  predicted: WaitEstimate | null;
  allowAtQueue: number | null;
  admittedMs: number | null;
  abandonedMs: number | null;
  /** The last request this actor made (ms): an admitted visitor counts as active for a while after it. */
  lastRequestMs: number | null;
  /** Held back by a POP's ceiling after winning a draw, at least once. */
  heldWinner: boolean;
  /** Distinct tokens drawn, per window index: the room promises at most one per identity and window. */
  drawnTokens: Map<number, Set<string>>;
  draws: number;
  /** friend and replayer only: did the handed-over token reach the origin on their first request? */
  handoverAdmitted: boolean | null;
  done: boolean;
  jars: string[][];
  /** Per jar: when the wait token in it becomes drawable, as the last answer said. */
  dueMs: (number | null)[];
  nextJar: number;
  /** hoarder only: has presented its pile and now follows the page. */
  cashedIn: boolean;
  /** Saw the pre-queue's countdown page: was in the pre-queue when the event started. */
  prequeued: boolean;
  /** The position of the place this actor last held (docs/events.md), null without one. */
  pos: number | null;
  /** The first place in line a page showed this actor, with when and the turn it promised (s). */
  placeShown: { atMs: number; ahead: number; turnSeconds: number | null } | null;
  /** A background tab's timer phase within the minute (ms), null for a foreground page; unset until its first wait. */
  backgroundPhaseMs?: number | null;
  /** CPU-seconds this visitor's device spent solving proofs of work (bot-farm.ts). */
  solveSeconds?: number;
  /** Every request this visitor made, by kind (requests.ts): what the sale cost in requests. */
  requests: RequestTally;
  /** The priority lane this visitor's lane invitation puts them in (docs/lanes.md); absent: the general lane. */
  lane?: string;
}

export interface Trace {
  actors: Actor[];
  admissionsMs: number[];
  /** The POP of each admission in admissionsMs. */
  admissionPops: number[];
  drawsWon: number;
  drawsLost: number;
  /**
   * Every draw: when, won or not, by whom, and whether it came in a later window than the token's
   * expiry (the return overshot its window: that window's draw was lost).
   */
  drawLog: { atMs: number; won: boolean; group: Group; late: boolean }[];
  renewals: number;
  reasons: Map<string, number>;
}
