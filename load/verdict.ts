// Did the room hold the target? Each minute's admissions against new_users_per_minute, as a
// percentage, and whether it is within the tolerance (±10% by default). The first minutes are left
// out: until the controller engages, an open room admits whoever comes (docs/control/README.md, "What it cannot do").
import type { MinuteRow } from './tally.js';

export interface MinuteVerdict {
  minute: number;
  admissions: number;
  target: number | null;
  /** admissions / target x 100; null without a target. */
  percent: number | null;
  /** null without a target. */
  within: boolean | null;
}

export interface VerdictOptions {
  /** Minutes at the start left out (default 2). */
  skipMinutes?: number;
  /** Allowed relative deviation (default 0.1). */
  tolerance?: number;
}

export function minuteVerdicts(rows: readonly MinuteRow[], options: VerdictOptions = {}): MinuteVerdict[] {
  const skip = options.skipMinutes ?? 2;
  const tolerance = options.tolerance ?? 0.1;
  return rows
    .filter((r) => r.minute > skip)
    .map((r) => {
      if (r.target === null || !(r.target > 0))
        return { minute: r.minute, admissions: r.admissions, target: r.target, percent: null, within: null };
      const ratio = r.admissions / r.target;
      // A tiny epsilon so exactly 90% or 110% (e.g. 108 or 132 against 120) counts as within.
      return {
        minute: r.minute,
        admissions: r.admissions,
        target: r.target,
        percent: ratio * 100,
        within: Math.abs(ratio - 1) <= tolerance + 1e-9,
      };
    });
}

/** "7 of 8 minutes within ±10%", or null when no minute had a target. */
export function verdictSummary(verdicts: readonly MinuteVerdict[], tolerance = 0.1): string | null {
  const judged = verdicts.filter((v) => v.within !== null);
  if (judged.length === 0) return null;
  const ok = judged.filter((v) => v.within).length;
  return `${ok} of ${judged.length} minute${judged.length === 1 ? '' : 's'} within ±${Math.round(tolerance * 100)}% of the target`;
}
