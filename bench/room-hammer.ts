// The hammering limit's cost (hammer_limit, src/core/answer/hammer.ts), in the same run: the room's own time
// inside the runtime for a wait token answered 429 (read without verifying, counted in the POP's rate
// counter and penalty box, a short answer) against the same token answered as before the limit, a
// verified token that is not due and its waiting page (wait_not_due): the path the 429 replaces.
import type { EchoOrigin } from '../lib/echo-origin.js';
import type { Settings } from '../lib/room-host.js';
import { cookieName } from '../src/core/request/index.js';
import { DEFAULT_ROOM } from '../src/core/settings/index.js';
import { roomTimes, type RoomTime } from './room-time.js';
import { round2 } from './room-figures.js';

export interface HammerCost {
  /** A token over the limit and not due: 429. */
  hammering: RoomTime;
  /** The same token with the limit off: its waiting page. */
  notDue: RoomTime;
  /** hammering / notDue, medians. */
  ratio: number;
}

/** `wait` must be a wait token that stays not due for the whole run (bench/room-scenarios.ts takes one). */
export async function hammerCost(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  wait: string,
  store: Record<string, string>,
  requests = 1500,
): Promise<HammerCost> {
  const headers = () => ({ cookie: `${cookieName(DEFAULT_ROOM)}=${wait}` });
  const run = async (name: string, hammerLimit: string, status: number): Promise<RoomTime> => {
    const scenario = { name, path: '/page', headers, expect: (s: number) => s === status };
    return (await roomTimes(origin, { ...settings, hammer_limit: hammerLimit }, keyBytes, [scenario], requests, store))[
      name
    ]!;
  };
  // Limit 1: every check after the first in a minute is over it.
  const hammering = await run('hammering', '1', 429);
  const notDue = await run('wait_not_due', '0', 200);
  return { hammering, notDue, ratio: round2(hammering.medianUs / notDue.medianUs) };
}

/** The comparison as printed. */
export function hammerLines(h: HammerCost): string[] {
  const lines = [
    `\nhammering (hammer_limit): a wait token over the limit answered 429 in ${h.hammering.medianUs} us median (p90 ${h.hammering.p90Us}) of the room's own time, ` +
      `against ${h.notDue.medianUs} us (p90 ${h.notDue.p90Us}) for the waiting page it replaces (wait_not_due): ${h.ratio}x`,
  ];
  // The run's first check is under the limit of 1: its waiting page is expected once.
  const unexpected = Math.max(0, (h.hammering.unexpected ?? 0) - 1) + (h.notDue.unexpected ?? 0);
  if (unexpected > 0)
    lines.push(
      `  WARNING: ${unexpected} answers had another status than the path measured: these figures measure something else`,
    );
  return lines;
}
