// `status_basis` (docs/status.md): what a room's public status needs of the settings a visitor's request
// reads from four store values, copied into the one value the controller already writes for the room
// (`room.ID.live`), so that a status request reads two values, not five. The controller and `npm run
// tune` write it (lib/status-basis.ts); the edge reads it only for the status.
import type { Reader } from './config-reader.js';
import type { SettingName } from './declared.js';
import type { StatusBasis } from '../types.js';

/**
 * The settings a room's status is worked out from, besides those the status reads where they live
 * (`room.ID.allow_percentage`, and the controller's `allow_schedule`, `queue_cursor` and `queue_counts`
 * in `room.ID.live`).
 */
export const STATUS_SETTINGS: readonly string[] = [
  'enabled',
  'allow_percentage',
  'wait_period_duration',
  'queueing_method',
  'event_prequeue_start',
  'event_start',
  'event_end',
  'event_end_action',
  'queue_all',
  'invite_only',
  'new_users_per_minute',
  'total_active_users',
] satisfies readonly SettingName[];

/** The most characters of one value the basis copies: every setting it copies is short. */
const MAX_VALUE_CHARS = 100;

/** The basis as stored: `{"at":EPOCH_S,"settings":{NAME:VALUE,...}}`, names in STATUS_SETTINGS order. */
export function statusBasisText(basis: StatusBasis): string {
  const settings: Record<string, string> = {};
  for (const name of STATUS_SETTINGS) {
    const value = basis.settings[name];
    if (value !== undefined) settings[name] = value;
  }
  return JSON.stringify({ at: basis.at, settings });
}

/** The basis in `text`, or null when it is not one (why, for the problem, in `why`). */
export function readStatusBasis(text: string, why: (reason: string) => void = () => {}): StatusBasis | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    why('is not valid JSON');
    return null;
  }
  const o = parsed as { at?: unknown; settings?: unknown } | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    why('must be a JSON object');
    return null;
  }
  if (typeof o.at !== 'number' || !Number.isSafeInteger(o.at) || o.at < 0) {
    why('must have "at", whole epoch seconds');
    return null;
  }
  if (typeof o.settings !== 'object' || o.settings === null || Array.isArray(o.settings)) {
    why('must have "settings", an object of setting names and values');
    return null;
  }
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(o.settings as Record<string, unknown>)) {
    if (!STATUS_SETTINGS.includes(name) || typeof value !== 'string' || value.length > MAX_VALUE_CHARS) {
      why(`"settings" may hold only ${STATUS_SETTINGS.join(', ')}, each a string`);
      return null;
    }
    settings[name] = value;
  }
  return { at: o.at, settings };
}

/** Reports an unusable `status_basis` (the status then says `unknown`). */
export function checkStatusBasis(r: Reader): void {
  const key = 'status_basis';
  const value = r.raw(key);
  if (value === null) return;
  readStatusBasis(value, (reason) =>
    r.problem(key, value.slice(0, 60), reason, 'treating it as unset (the room status says "unknown")'),
  );
}
