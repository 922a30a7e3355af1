// The control model's state: one plain object holding everything the model decided or learned that
// is not in its ledger (ledger.ts) or the cursor's planner (cursor-plan.ts). Every part of the model
// reads and changes this object; save() turns it into JSON-safe data (no Map, no Infinity) and
// restore() back, so a restarted controller goes on where it stopped (docs/control/failover.md).
import type { ModelSnapshot, SettingWrites, Targets } from '../types.js';
import type { WindowPlan } from './plan.js';
import type { DrawShare } from './proof-share.js';
import type { Returning } from './returning.js';

/** proof_of_work and proof_seconds as the model needs them (the room's Config: src/core/config-proof.ts). */
export interface ProofSettings {
  /** proof_of_work = auto: the controller publishes the difficulty. */
  auto: boolean;
  /** proof_seconds: the most it may ask, seconds (within (0, 60] and at most the wait period, as the edge parsed it). */
  maxSeconds: number;
}

export interface ModelState {
  targets: Targets;
  /** queue_all as the operator set it. */
  queueAll: boolean;
  /** allow_percentage as the edge has it. */
  edgePct: number;
  /** The settings' problems that leave the model without a usable target. */
  problems: string[];
  mode: ModelSnapshot['mode'];
  /** One sentence on why the model is in its mode (the dashboard's). */
  why: string;
  /** Whether the store's schedule was read once (chances published before this run are honoured then). */
  adopted: boolean;
  /** The last second the pre-queue was draining (cohorts drawn before then tell nothing of returns). */
  drainSeenSec: number;
  /** The deny page's crowd coming back since the room last opened. */
  returning: Returning[];
  /** Chances fixed so far, by window start. */
  firm: Map<number, number>;
  /** What was planned for each firm window (expected admissions). */
  plannedAdmissions: Map<number, number>;
  /** The chance a ticket's holder comes back to draw, as learned from closed cohorts. */
  returnRate: number;
  /** The same for tickets no successor named, by their cohort's offset from the window they appear in (ledger.ts). */
  reissueReturnRates: Map<number, number>;
  /** The last queueing plan (its first window stands in for a next window not yet fixed). */
  lastPlan: WindowPlan[];
  /** proof_of_work and proof_seconds as the room has them (proof-schedule.ts). */
  proof: ProofSettings;
  /** Each window's proof of work once fixed (its tokens may carry the puzzle), seconds, by window start. */
  proofFirm: Map<number, number>;
  /** Whether the room asks a proof of work at all (proof_of_work fixed or auto), and proof_free_share. */
  proofAsked: boolean;
  proofFreeShare: number;
  /** The draws asked a proof, by the window they were made in: the share of the chance they got (proof-share.ts). */
  proofDraws: Map<number, DrawShare>;
  /** The share of the chance each firm window was planned with, by window start, when below 1 (draw-plan.ts). */
  firmShare: Map<number, number>;
  // Pacing (pacing.ts): what went out and when, and the last full pass.
  /** Every setting as last written. */
  lastWritten: SettingWrites;
  lastWriteMs: number;
  /** The newest firm window the last written schedule carried. */
  lastFirmWritten: number;
  /** When the last full pass over the tickets ran, ms. */
  lastPassMs: number;
  /** The schedule text of the last pass, written or not. */
  lastText: string | null;
}

export function initialState(): ModelState {
  return {
    targets: { newUsersPerMinute: null, totalActiveUsers: null, sessionDurationMinutes: 5 },
    queueAll: false,
    edgePct: 100,
    problems: [],
    mode: 'observing',
    why: 'waiting for the first decision line',
    adopted: false,
    drainSeenSec: Number.NEGATIVE_INFINITY,
    returning: [],
    firm: new Map(),
    plannedAdmissions: new Map(),
    returnRate: 0.95,
    reissueReturnRates: new Map(),
    lastPlan: [],
    proof: { auto: false, maxSeconds: 5 },
    proofFirm: new Map(),
    proofAsked: false,
    proofFreeShare: 0.2,
    proofDraws: new Map(),
    firmShare: new Map(),
    lastWritten: {},
    lastWriteMs: 0,
    lastFirmWritten: Number.NEGATIVE_INFINITY,
    lastPassMs: Number.NEGATIVE_INFINITY,
    lastText: null,
  };
}

/** ModelState as JSON-safe data: Maps as [key, value] pairs, -Infinity as null. */
export interface SavedState
  extends Omit<
    ModelState,
    | 'firm'
    | 'plannedAdmissions'
    | 'reissueReturnRates'
    | 'drainSeenSec'
    | 'lastFirmWritten'
    | 'lastPassMs'
    | 'proof'
    | 'proofFirm'
    | 'proofAsked'
    | 'proofFreeShare'
    | 'proofDraws'
    | 'firmShare'
  > {
  firm: [number, number][];
  plannedAdmissions: [number, number][];
  reissueReturnRates: [number, number][];
  drainSeenSec: number | null;
  lastFirmWritten: number | null;
  lastPassMs: number | null;
  /** Absent in a state saved before the proof of work (read as none fixed; the settings say the rest). */
  proof?: ProofSettings;
  proofFirm?: [number, number][];
  /** Absent in a state saved before the share of the chance was learned (read as none seen; the settings say the rest). */
  proofAsked?: boolean;
  proofFreeShare?: number;
  proofDraws?: [number, DrawShare][];
  firmShare?: [number, number][];
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
const orNever = (x: number | null): number => x ?? Number.NEGATIVE_INFINITY;

export function saveState(s: ModelState): SavedState {
  return {
    ...s,
    targets: { ...s.targets },
    problems: [...s.problems],
    returning: s.returning.map((r) => ({ ...r })),
    firm: [...s.firm],
    plannedAdmissions: [...s.plannedAdmissions],
    reissueReturnRates: [...s.reissueReturnRates],
    lastPlan: s.lastPlan.map((p) => ({ ...p })),
    proof: { ...s.proof },
    proofFirm: [...s.proofFirm],
    proofDraws: [...s.proofDraws].map(([w, x]) => [w, { ...x }]),
    firmShare: [...s.firmShare],
    lastWritten: { ...s.lastWritten },
    drainSeenSec: finite(s.drainSeenSec),
    lastFirmWritten: finite(s.lastFirmWritten),
    lastPassMs: finite(s.lastPassMs),
  };
}

export function restoreState(saved: SavedState): ModelState {
  return {
    ...saved,
    targets: { ...saved.targets },
    problems: [...saved.problems],
    returning: saved.returning.map((r) => ({ ...r })),
    firm: new Map(saved.firm),
    plannedAdmissions: new Map(saved.plannedAdmissions),
    reissueReturnRates: new Map(saved.reissueReturnRates),
    lastPlan: saved.lastPlan.map((p) => ({ ...p })),
    proof: { ...(saved.proof ?? initialState().proof) },
    proofFirm: new Map(saved.proofFirm ?? []),
    proofAsked: saved.proofAsked ?? false,
    proofFreeShare: saved.proofFreeShare ?? 0.2,
    proofDraws: new Map((saved.proofDraws ?? []).map(([w, x]) => [w, { ...x }])),
    firmShare: new Map(saved.firmShare ?? []),
    lastWritten: { ...saved.lastWritten },
    drainSeenSec: orNever(saved.drainSeenSec),
    lastFirmWritten: orNever(saved.lastFirmWritten),
    lastPassMs: orNever(saved.lastPassMs),
  };
}

/** How long after an admitted visitor's last request they still count as active, ms. */
export const idleMs = (s: Pick<ModelState, 'targets'>): number => s.targets.sessionDurationMinutes * 60_000;
