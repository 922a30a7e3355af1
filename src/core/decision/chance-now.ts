// The chance a draw uses now, and where it comes from. `allow_percentage` is only one of three
// sources: while a controller's `allow_schedule` covers the current window its entry decides, and
// past the schedule's last entry that entry (the controller's fallback) holds for good, whether or not
// any controller still runs. The start banner, the JSON answer and `npm run tune` all say the chance
// in force through this one function, so none of them shows `allow_percentage` while draws use another.
import { scheduleEntryAt } from '../settings/index.js';
import { chanceFor } from './draw.js';
import type { Config } from '../types.js';

/**
 * - `allow_percentage`: no schedule, the window is before its first entry, or `allow_percentage` is 0
 *   or 100 (the master switch: nobody drawn in, everybody let in);
 * - `schedule`: an entry of the controller's `allow_schedule` for the current window;
 * - `fallback`: the window is at or past the schedule's last entry, which holds from then on.
 */
export type ChanceSource = 'allow_percentage' | 'schedule' | 'fallback';

export interface ChanceNow {
  /** The chance (0..100) of a draw of the current window's tokens. */
  percentage: number;
  source: ChanceSource;
  /** The room's own `allow_percentage`, which the source may override. */
  allowPercentage: number;
  /** The current window's start, epoch seconds. */
  windowStart: number;
  /** The start of the schedule's last entry (from then on its chance holds); null without a schedule. */
  fallbackFrom: number | null;
  /** The start of the schedule's entry in force; null when the source is `allow_percentage`. */
  entryStart: number | null;
}

/** The chance a draw uses at `nowSec`, with its source (the window's start is `nowSec` rounded down to the window). */
export function chanceNow(
  config: Pick<Config, 'allowPercentage' | 'allowSchedule' | 'waitPeriodSeconds'>,
  nowSec: number,
): ChanceNow {
  const d = config.waitPeriodSeconds;
  const windowStart = Math.floor(nowSec / d) * d;
  const last = config.allowSchedule[config.allowSchedule.length - 1];
  const fallbackFrom = last?.start ?? null;
  const base = { allowPercentage: config.allowPercentage, windowStart, fallbackFrom };
  // 0 and 100 decide before any draw (decision/decide.ts): no schedule entry is ever looked at.
  const master = config.allowPercentage <= 0 || config.allowPercentage >= 100;
  const entry = master ? null : scheduleEntryAt(config.allowSchedule, windowStart);
  if (entry === null)
    return { ...base, percentage: config.allowPercentage, source: 'allow_percentage', entryStart: null };
  return {
    ...base,
    percentage: chanceFor(config, windowStart),
    source: entry === last ? 'fallback' : 'schedule',
    entryStart: entry.start,
  };
}

/** A chance as people read it: 50, 2.56, 0.35 (two decimals at most, no trailing zeros). */
export function chanceText(percentage: number): string {
  return String(Math.round(percentage * 100) / 100);
}

/** Where the chance comes from, in a few words for an operator: "allow_percentage", "the controller's schedule", ... */
export function chanceSourceText(chance: ChanceNow): string {
  switch (chance.source) {
    case 'allow_percentage':
      return 'allow_percentage';
    case 'schedule':
      return `the controller's allow_schedule (allow_percentage ${chanceText(chance.allowPercentage)} is not used while it covers the window)`;
    case 'fallback':
      return `the last entry of a controller's allow_schedule, its fallback, which holds once the schedule has run out (allow_percentage ${chanceText(chance.allowPercentage)} is not used)`;
  }
}
