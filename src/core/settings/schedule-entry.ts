// Which entry of a schedule setting (a chance or a proof difficulty by window) governs a moment: read by
// the decision and by the proof of work alike, so it lives with the settings the schedules come from.
/**
 * The entry of an ascending schedule (by window start) for the window of `exp`: the entry for exactly
 * that window, else the one before it (a gap keeps the last value); null before the first entry.
 */
export function scheduleEntryAt<T extends { start: number }>(schedule: readonly T[], exp: number): T | null {
  const last = schedule[schedule.length - 1];
  if (last === undefined || exp < schedule[0]!.start) return null;
  if (exp >= last.start) return last;
  let lo = 0;
  let hi = schedule.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (schedule[mid]!.start <= exp) lo = mid;
    else hi = mid - 1;
  }
  return schedule[lo]!;
}
