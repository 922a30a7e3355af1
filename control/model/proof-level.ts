// The difficulty law (proof_of_work = auto, docs/control/model.md#the-difficulty-proof-of-work): a window's proof of work,
// in expected seconds on a low-end phone, from the pressure the model already knows for that window.
//
// The pressure is the queue the window's draws leave behind: the crowd drawing in it, in minutes of
// the target (waiting / new_users_per_minute), times the share of it that loses (1 - chance). The law
// asks one second of work for each such minute, rounded UP to the next of a few steps (PROOF_STEPS)
// and capped at proof_seconds: anyone waiting asks at least the least step, nobody waiting (or a
// chance of 100: every draw wins) asks none. A step is left downwards only once the pressure is a
// quarter below the step under it, so a crowd hovering at a boundary does not flip the published
// value from window to window. Pure: it reads nothing but its arguments.

/** The difficulties the law publishes, seconds (the last one, 60, is proof_seconds' own ceiling). */
export const PROOF_STEPS: readonly number[] = [1, 2, 3, 5, 8, 13, 20, 30, 60];

/** How far under a step's boundary the pressure must fall before the law steps down (a quarter). */
const STEP_DOWN_MARGIN = 1.25;

export interface ProofPressure {
  /** Tickets drawing in the window (weighted): the crowd that waits. */
  waiting: number;
  /** new_users_per_minute: admissions a minute the target allows. */
  perMinute: number;
  /** The window's chance, 0..100. */
  chance: number;
  /** proof_seconds: the most the controller may ask. */
  maxSeconds: number;
  /** The level of the window before, when one was decided: the law keeps it while the pressure hovers. */
  previous?: number;
}

/** The least step at or above `raw` seconds (the last step past them all). */
function stepAtOrAbove(raw: number): number {
  for (const s of PROOF_STEPS) if (s >= raw) return s;
  return PROOF_STEPS[PROOF_STEPS.length - 1]!;
}

/** A window's difficulty, seconds: 0 when nobody waits or every draw wins, else a step up to maxSeconds. */
export function proofLevel(p: ProofPressure): number {
  if (!(p.waiting > 0) || !(p.chance < 100) || !(p.maxSeconds > 0)) return 0;
  // Minutes of queue behind the window's draws; with no usable target the queue never drains: the most.
  const queueMinutes = p.perMinute > 0 ? p.waiting / p.perMinute : Number.POSITIVE_INFINITY;
  const raw = queueMinutes * (1 - Math.max(0, p.chance) / 100);
  let level = stepAtOrAbove(raw);
  const previous = p.previous ?? 0;
  if (level < previous) level = Math.min(previous, stepAtOrAbove(raw * STEP_DOWN_MARGIN));
  return Math.min(level, p.maxSeconds);
}
