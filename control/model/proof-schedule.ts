// proof_schedule (docs/control/model.md#the-difficulty-proof-of-work): with proof_of_work = auto, each window's proof of
// work, published in room.ID.live beside allow_schedule, for the same windows and in the same writes:
// it is added to a write that carries allow_schedule and never makes one of its own, so it costs no
// API call. The level of each window comes from the law (proof-level.ts) and the pressure the plan
// already has for it (the crowd drawing, the chance).
//
// A window's level is kept once its tokens may carry the puzzle: the edge hands each waiting page the
// puzzle of the token it holds at the difficulty published for that token's window, and checks the
// solution at the draw at the difficulty published then, so the two must agree. Tokens of cohort c
// are issued from window c - 2d on (new visitors), so c's level is fixed by the write that goes out
// before c - 2d - lead (pacing's horizon, as a chance is fixed by the write before its deadline).
// A window whose tokens were already issued while no level was published for it stays at 0: its
// pages were given no puzzle.
import type { ProofScheduleEntry } from '../../src/core/types.js';
import type { SettingWrites } from '../types.js';
import { planRate } from './pace.js';
import { firmHorizonSec } from './pacing.js';
import { proofLevel } from './proof-level.js';
import { parseScheduleText } from './schedule-text.js';
import type { ModelState } from './state.js';
import type { DrawShares } from './proof-share.js';

/** proof_of_work and proof_seconds as the model needs them (the room's Config: src/core/config-proof.ts). */
export interface ProofSettings {
  /** proof_of_work = auto: the controller publishes the difficulty. */
  auto: boolean;
  /** proof_seconds: the most it may ask, seconds (within (0, 60] and at most the wait period, as the edge parsed it). */
  maxSeconds: number;
}

/** What the proof of work owns of the model's state: its settings, each window's difficulty, the share the draws got. */
export interface ProofState {
  /** proof_of_work and proof_seconds as the room has them. */
  settings: ProofSettings;
  /** Each window's proof of work once fixed (its tokens may carry the puzzle), seconds, by window start. */
  firm: Map<number, number>;
  /** Whether the room asks a proof of work at all (proof_of_work fixed or auto), and proof_free_share. */
  asked: boolean;
  freeShare: number;
  /** The draws asked a proof, by the window they were made in: the share of the chance they got (proof-share.ts). */
  draws: DrawShares;
}

export const initialProof = (): ProofState => ({
  settings: { auto: false, maxSeconds: 5 },
  firm: new Map(),
  asked: false,
  freeShare: 0.2,
  draws: new Map(),
});

/** The last second window `start`'s level may change: its first tokens are issued at start - 2d, reaching POPs `lead` s after a write. */
export const proofDecisionSec = (start: number, d: number, lead: number): number => start - 2 * d - lead;

/** Levels an earlier run published whose decision time has passed: the edge may have handed out their puzzles. */
export function adoptProofSchedule(
  s: ModelState,
  published: readonly ProofScheduleEntry[],
  nowSec: number,
  d: number,
  lead: number,
): void {
  for (const e of published) if (proofDecisionSec(e.start, d, lead) <= nowSec) s.proof.firm.set(e.start, e.seconds);
}

export interface ProofContext {
  nowMs: number;
  writeIntervalMs: number;
  d: number;
  lead: number;
  /** The crowd drawing in window `w` (weighted tickets), as the plan expects it. */
  crowdAt: (w: number) => number;
}

/**
 * The chance a window's draws really get: the published one times the share it was planned with
 * (draws without a valid proof get proof_free_share of it), so a high chance published to make up for
 * a crowd that does not solve does not read as little pressure.
 */
export function effectiveChance(s: ModelState, w: number, pct: number): number {
  return pct * (s.draws.firmShare.get(w) ?? 1);
}

/** `writes` with proof_schedule added when it carries allow_schedule (only then: it rides that write). */
export function withProofSchedule(s: ModelState, writes: SettingWrites | null, c: ProofContext): SettingWrites | null {
  if (writes === null || writes.allow_schedule === undefined) return writes;
  if (!s.proof.settings.auto) {
    // A schedule left from when the room was auto: removed at the next write (the edge ignores it anyway).
    return s.pacing.lastWritten.proof_schedule ? { ...writes, proof_schedule: '' } : writes;
  }
  if (writes.allow_schedule === '') return { ...writes, proof_schedule: '' };
  const nowSec = Math.floor(c.nowMs / 1000);
  const horizon = firmHorizonSec(c.nowMs, c.writeIntervalMs);
  const allow = parseScheduleText(writes.allow_schedule)
    .map((e): [number, number] => [e.start, Number(e.pct)])
    .filter(([, pct]) => Number.isFinite(pct));
  let previous = allow.length > 0 ? s.proof.firm.get(allow[0]![0] - c.d) : undefined;
  const text: string[] = [];
  for (const [w, pct] of allow) {
    let level = s.proof.firm.get(w);
    if (level === undefined) {
      const decision = proofDecisionSec(w, c.d, c.lead);
      level =
        decision < nowSec
          ? 0
          : proofLevel({
              waiting: c.crowdAt(w),
              perMinute: planRate(s) ?? 0,
              chance: effectiveChance(s, w, pct),
              maxSeconds: s.proof.settings.maxSeconds,
              ...(previous === undefined ? {} : { previous }),
            });
      if (decision <= horizon) s.proof.firm.set(w, level);
    }
    text.push(`${w}=${level}`);
    previous = level;
  }
  return { ...writes, proof_schedule: text.join(',') };
}

/** The difficulty of the draws now (window `current`): null unless auto, 0 when none was fixed. */
export function currentProofSeconds(s: ModelState, current: number | null): number | null {
  if (!s.proof.settings.auto) return null;
  return current === null ? 0 : (s.proof.firm.get(current) ?? 0);
}
