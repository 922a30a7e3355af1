// The control model's state: everything it decided or learned that is not in its ledger (ledger.ts)
// or the cursor's planner (cursor-plan.ts), as the parts that own it: the room's settings as read, the
// mode, the return rates (returning.ts), the draw plan's fixed chances (draw-plan.ts), the proof of
// work (proof-schedule.ts) and the pacing of the writes (pacing.ts). save() turns it into JSON-safe
// data (no Map, no Infinity) in one flat object, the state file's format, and restore() back, so a
// restarted controller goes on where it stopped (docs/control/failover.md).
import type { PaceSettings } from '../../src/core/types.js';
import type { ModelSnapshot, Targets } from '../types.js';
import { type CohortDrawsSaved, restoreCohortDraws, saveCohortDraws } from './cohort-draws.js';
import { type DrawState, initialDraws } from './draw-plan.js';
import { initialPace, type PaceState } from './pace.js';
import { initialPacing, type PacingState } from './pacing.js';
import type { WindowPlan } from './plan.js';
import { initialProof, type ProofSettings, type ProofState } from './proof-schedule.js';
import type { DrawShare } from './proof-share.js';
import { initialReturns, type Returning, type ReturnsState } from './returning.js';
import { initialLanes, type LaneState } from './lanes.js';

export type { ProofSettings } from './proof-schedule.js';

/** The room's settings as the model last read them. */
export interface RoomSettings {
  targets: Targets;
  /** queue_all as the operator set it. */
  queueAll: boolean;
  /** allow_percentage as the edge has it. */
  edgePct: number;
  /** The settings' problems that leave the model without a usable target. */
  problems: string[];
  /** Whether the store's schedule was read once (chances published before this run are honoured then). */
  adopted: boolean;
  /** target_mode, the floor and the origin's objective. */
  pace: PaceSettings;
}

/** The model's mode, and one sentence on why it is in it (the dashboard's). */
export interface ModelStatus {
  mode: ModelSnapshot['mode'];
  why: string;
}

export interface ModelState {
  settings: RoomSettings;
  status: ModelStatus;
  returns: ReturnsState;
  draws: DrawState;
  proof: ProofState;
  pacing: PacingState;
  /** The autopilot's rate and what it last read (pace.ts). */
  pace: PaceState;
  /** The priority lanes' crowd and fixed chances (lanes.ts). */
  lanes: LaneState;
}

/** A room in manual mode with the default objective: what the settings say until they are read. */
export const MANUAL_PACE: PaceSettings = {
  mode: 'manual',
  floorPerMinute: null,
  objective: { latencyMs: 800, percentile: 90, errorShare: 0.01 },
};

export function initialState(): ModelState {
  return {
    settings: {
      targets: { newUsersPerMinute: null, totalActiveUsers: null, sessionDurationMinutes: 5 },
      queueAll: false,
      edgePct: 100,
      problems: [],
      adopted: false,
      pace: MANUAL_PACE,
    },
    status: { mode: 'observing', why: 'waiting for the first decision line' },
    returns: initialReturns(),
    draws: initialDraws(),
    proof: initialProof(),
    pacing: initialPacing(),
    pace: initialPace(),
    lanes: initialLanes(),
  };
}

/**
 * ModelState as the state file keeps it: one flat object, Maps as [key, value] pairs, -Infinity as
 * null, its keys in this order (a restart reads the files older controllers saved).
 */
export interface SavedState {
  targets: Targets;
  queueAll: boolean;
  edgePct: number;
  problems: string[];
  mode: ModelSnapshot['mode'];
  why: string;
  adopted: boolean;
  drainSeenSec: number | null;
  returning: Returning[];
  firm: [number, number][];
  plannedAdmissions: [number, number][];
  returnRate: number;
  reissueReturnRates: [number, number][];
  lastPlan: WindowPlan[];
  /** Absent in a state saved before the proof of work (read as none fixed; the settings say the rest). */
  proof?: ProofSettings;
  proofFirm?: [number, number][];
  /** Absent in a state saved before the share of the chance was learned (read as none seen; the settings say the rest). */
  proofAsked?: boolean;
  proofFreeShare?: number;
  proofDraws?: [number, DrawShare][];
  firmShare?: [number, number][];
  /** Absent in a state saved before the correction by cohort (read as no cohort planned or counted). */
  cohortDraws?: CohortDrawsSaved;
  lastWritten: Record<string, string>;
  lastWriteMs: number;
  lastFirmWritten: number | null;
  lastPassMs: number | null;
  lastText: string | null;
  /** Absent in a state saved before the autopilot (read as not started: it starts at the floor). */
  pace?: SavedPace;
  /** Each window's fixed lane chances; absent in a state saved before lanes (read as none fixed; the crowd's mix is read again from the log). */
  laneFirm?: [number, Record<string, number>][];
}

/** The autopilot's state as saved: its rate and what it remembers of a storm and a breach. */
export interface SavedPace {
  rate: number | null;
  state: PaceState['state'];
  why: string;
  changedMs: number | null;
  beforeStorm: number | null;
  breach: PaceState['breach'];
  /** Absent in a state saved before it (read as none seen). */
  carried?: number | null;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
const orNever = (x: number | null): number => x ?? Number.NEGATIVE_INFINITY;

export function saveState(s: ModelState): SavedState {
  const { settings, status, returns, draws, proof, pacing } = s;
  return {
    targets: { ...settings.targets },
    queueAll: settings.queueAll,
    edgePct: settings.edgePct,
    problems: [...settings.problems],
    mode: status.mode,
    why: status.why,
    adopted: settings.adopted,
    drainSeenSec: finite(returns.drainSeenSec),
    returning: returns.returning.map((r) => ({ ...r })),
    firm: [...draws.firm],
    plannedAdmissions: [...draws.plannedAdmissions],
    returnRate: returns.returnRate,
    reissueReturnRates: [...returns.reissueReturnRates],
    lastPlan: draws.lastPlan.map((p) => ({ ...p })),
    proof: { ...proof.settings },
    proofFirm: [...proof.firm],
    proofAsked: proof.asked,
    proofFreeShare: proof.freeShare,
    proofDraws: [...proof.draws].map(([w, x]) => [w, { ...x }]),
    firmShare: [...draws.firmShare],
    cohortDraws: saveCohortDraws(draws.cohorts),
    lastWritten: { ...pacing.lastWritten },
    lastWriteMs: pacing.lastWriteMs,
    lastFirmWritten: finite(pacing.lastFirmWritten),
    lastPassMs: finite(pacing.lastPassMs),
    lastText: pacing.lastText,
    pace: {
      rate: s.pace.rate,
      state: s.pace.state,
      why: s.pace.why,
      changedMs: finite(s.pace.changedMs),
      beforeStorm: s.pace.beforeStorm,
      breach: s.pace.breach === null ? null : { ...s.pace.breach },
      carried: s.pace.carried,
    },
    laneFirm: [...s.lanes.firm].map(([w, x]) => [w, { ...x }]),
  };
}

export function restoreState(saved: SavedState): ModelState {
  const proof = initialProof();
  return {
    settings: {
      targets: { ...saved.targets },
      queueAll: saved.queueAll,
      edgePct: saved.edgePct,
      problems: [...saved.problems],
      adopted: saved.adopted,
      pace: MANUAL_PACE,
    },
    status: { mode: saved.mode, why: saved.why },
    returns: {
      drainSeenSec: orNever(saved.drainSeenSec),
      returning: saved.returning.map((r) => ({ ...r })),
      returnRate: saved.returnRate,
      reissueReturnRates: new Map(saved.reissueReturnRates),
    },
    draws: {
      firm: new Map(saved.firm),
      plannedAdmissions: new Map(saved.plannedAdmissions),
      lastPlan: saved.lastPlan.map((p) => ({ ...p })),
      firmShare: new Map(saved.firmShare ?? []),
      cohorts: restoreCohortDraws(saved.cohortDraws),
    },
    proof: {
      settings: { ...(saved.proof ?? proof.settings) },
      firm: new Map(saved.proofFirm ?? []),
      asked: saved.proofAsked ?? proof.asked,
      freeShare: saved.proofFreeShare ?? proof.freeShare,
      draws: new Map((saved.proofDraws ?? []).map(([w, x]) => [w, { ...x }])),
    },
    pacing: {
      lastWritten: { ...saved.lastWritten },
      lastWriteMs: saved.lastWriteMs,
      lastFirmWritten: orNever(saved.lastFirmWritten),
      lastPassMs: orNever(saved.lastPassMs),
      lastText: saved.lastText,
    },
    pace: restorePace(saved.pace),
    lanes: { ...initialLanes(), firm: new Map((saved.laneFirm ?? []).map(([w, x]) => [w, { ...x }])) },
  };
}

function restorePace(saved: SavedPace | undefined): PaceState {
  const pace = initialPace();
  if (saved === undefined) return pace;
  return {
    ...pace,
    rate: saved.rate,
    state: saved.state,
    why: saved.why,
    changedMs: orNever(saved.changedMs),
    beforeStorm: saved.beforeStorm,
    breach: saved.breach === null ? null : { ...saved.breach },
    carried: saved.carried ?? null,
  };
}
