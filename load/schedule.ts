// When each virtual visitor arrives, as offsets in ms from the start of the run. Pure: the caller hands
// in the random stream, so a seed gives the same crowd every time.
//
//   flash   every visitor within the first `flashSeconds` (default 60): the on-sale opening, the crowd
//           the controller has to hold back from the first minute
//   steady  arrivals at `ratePerMinute` (default: the visitors spread evenly over the whole run) until
//           all of them have come or the run ends
import type { Random } from '../lib/random.js';

export type Shape = 'flash' | 'steady';

export interface ScheduleOptions {
  visitors: number;
  shape: Shape;
  /** Length of the run (ms); no arrival is scheduled at or after it. */
  durationMs: number;
  /** steady only: new visitors a minute; null spreads `visitors` over the run. */
  ratePerMinute: number | null;
  /** flash only: the crowd arrives within this many seconds. */
  flashSeconds: number;
}

/**
 * Sorted arrival offsets. Within its span the crowd is uniform at random (a Poisson process with the
 * count fixed), not evenly spaced, so arrivals bunch and gap as real ones do.
 */
export function arrivalSchedule(options: ScheduleOptions, rng: Random): number[] {
  const { visitors, durationMs } = options;
  if (visitors <= 0 || durationMs <= 0) return [];
  let spanMs: number;
  let count = visitors;
  if (options.shape === 'flash') {
    spanMs = Math.min(options.flashSeconds * 1000, durationMs);
  } else if (options.ratePerMinute === null) {
    spanMs = durationMs;
  } else {
    // At the asked rate the crowd needs visitors / rate minutes; the run may end first.
    const needMs = (visitors / options.ratePerMinute) * 60_000;
    spanMs = Math.min(needMs, durationMs);
    count = Math.min(visitors, Math.round((spanMs / 60_000) * options.ratePerMinute));
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(Math.floor(rng.next() * spanMs));
  return out.sort((a, b) => a - b);
}
