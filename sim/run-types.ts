// What a run of the simulator takes and gives (run.ts runs one room, rooms.ts several): apart from
// both, so neither imports the other for its types.
import type { FarmTrace, ProofCounts } from './bot-farm.js';
import type { ControlTrace } from './control.js';
import type { CrossRoomFigures } from './cross-room.js';
import type { OriginRun } from './origin-run.js';
import type { Trace } from './population.js';
import type { PopSpec } from './room.js';
import type { Scenario } from './scenario-types.js';

export interface RunOptions {
  seed: string;
  /** Population size; the scenario's default when absent. */
  visitors?: number;
  /** With an origin: also run the same crowd under a clairvoyant operator (origin-run.ts); default true. */
  clairvoyant?: boolean;
  /** Every decision line the room logs, as it logs it (the tests read them). */
  onLine?: (text: string) => void;
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
  /** The proof of work's scenarios: what the farm did, and how each group's draws were judged. */
  bots?: { farm: FarmTrace; checks: ProofCounts; wins: ProofCounts };
  /** With an origin behind the room: what it answered, its real capacity, the clairvoyant operator's run. */
  origin?: OriginRun;
}

/** What a run of several rooms adds to a run: each room's own result, and the check between them. */
export interface RoomsRun {
  rooms: { id: string; result: RunResult }[];
  crossRoom: CrossRoomFigures;
  /** The routing as the tools describe it. */
  routing: string[];
}
