// How `npm run tune` names where a value lives and the commands it suggests: every refusal says the
// scope it judged (service-wide, or a room's own) and, where another scope is the fix, the command
// for it, ready to paste.
import { SETTINGS_KEY } from '../src/core/settings/index.js';
import { shellQuote } from '../lib/fastly-cli.js';

/** `settings` -> `service-wide`; `room.shop`, `room.shop.allow_percentage` -> `room shop's own`; `room.shop.live` -> the controller's. */
export function scopeLabel(storeKey: string): string {
  if (storeKey === SETTINGS_KEY) return 'service-wide';
  const room = /^room\.([^.]+)(\.allow_percentage|\.live)?$/.exec(storeKey);
  if (room === null) return storeKey;
  return room[2] === '.live' ? `room ${room[1]}'s live value (the controller's)` : `room ${room[1]}'s own`;
}

/** `rooms shop, checkout` / `room shop`. */
export const roomsText = (rooms: readonly string[]): string =>
  `room${rooms.length === 1 ? '' : 's'} ${rooms.join(', ')}`;

/**
 * The tune command that writes `updates` in `room` (null: service-wide), after `prefix`
 * (`npm run tune --`, or with `--service ID` on a service).
 */
export function tuneCommand(prefix: string, room: string | null, updates: Iterable<readonly [string, string]>): string {
  const args = [...updates].map(([k, v]) => shellQuote(`${k}=${v}`));
  return [prefix, ...(room === null ? [] : ['--room', room]), ...args].join(' ');
}

/** The command line tune was started with, up to its settings: what the suggested commands start with. */
export const LOCAL_TUNE = 'npm run tune --';
