// What one `npm run tune` command writes to `waiting_room_config`, and whether the edge could use the
// store afterwards. Every value is checked as a request would read it (src/core/layout.ts and
// config.ts over the store as it would be after the write): a value the edge would replace by a
// default, a routing it would skip part of, a value past the Config Store's limit, is refused here
// with its key named, and nothing is written.
import { CONFIG_STORE_VALUE_LIMIT, settingsTable } from '../src/core/config.js';
import { configValueChars } from '../src/core/settings.js';
import { DEFAULT_ROOM, ROOM_ID, ROUTING_KEY, SETTINGS_KEY, storeWrites } from '../src/core/layout.js';
import { parseRouting, type RoutingProblem } from '../src/core/routing.js';
import type { ConfigProblem } from '../src/core/types.js';
import { applyWrites, type StoreData } from '../lib/json-store.js';
import { roomSettings, settingSources, storeRooms, storeRouting, unreadKeys } from '../lib/room-store.js';

export interface TuneRequest {
  /** The room whose own settings change; null: the service-wide settings. */
  room: string | null;
  /** Setting -> value ('' removes it). */
  updates: ReadonlyMap<string, string>;
  /** A new `routing` value, as given. */
  routing?: string;
}

export interface TunePlan {
  /** Store key -> new value; '' deletes the key. */
  writes: Record<string, string>;
  /** The store after the writes. */
  next: StoreData;
  errors: string[];
  warnings: string[];
}

/** A room's problem message is "what the value must be; what the room does instead". */
export function splitProblem(message: string): { need: string; fallback: string } {
  const at = message.lastIndexOf('; ');
  return at < 0 ? { need: message, fallback: '' } : { need: message.slice(0, at), fallback: message.slice(at + 2) };
}

/** `settings: allow_percentage` -> the store key and the setting (null: the whole value). */
function problemPlace(p: ConfigProblem): { storeKey: string; setting: string | null } {
  const at = p.key.indexOf(': ');
  return at < 0 ? { storeKey: p.key, setting: null } : { storeKey: p.key.slice(0, at), setting: p.key.slice(at + 2) };
}

/** A routing value as it is written: its JSON without the file's layout, so more of it fits. */
function compactRouting(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.trim();
  }
}

/** `routing: rule vip: ...`: the rule or room a problem is about, named once. */
export function routingProblemText(p: RoutingProblem): string {
  const which = p.rule !== undefined ? `rule ${p.rule}` : p.room !== undefined ? `room ${p.room}` : null;
  return `routing: ${which === null || p.message.startsWith(which) ? '' : `${which}: `}${p.message}`;
}

function checkRouting(given: string, errors: string[]): string | null {
  const value = compactRouting(given);
  if (configValueChars(value) > CONFIG_STORE_VALUE_LIMIT) {
    errors.push(`refused: routing is ${configValueChars(value)} characters (without its spaces), more than the ${CONFIG_STORE_VALUE_LIMIT} a Config Store value holds; fewer rooms, routes or rules fit`);
    return null;
  }
  const { routing, problems } = parseRouting(value);
  for (const p of problems) errors.push(`refused: ${routingProblemText(p)}`);
  if (routing === null && problems.length === 0) errors.push('refused: routing cannot be used by the edge');
  return value;
}

function checkRoom(room: string, next: StoreData, errors: string[]): void {
  if (!ROOM_ID.test(room)) {
    errors.push(`refused: --room "${room}" is not a room id (lower case letters, digits, - and _, at most 32 characters)`);
    return;
  }
  const { single, routing } = storeRouting(next);
  if (single) {
    if (room !== DEFAULT_ROOM) errors.push(`refused: --room ${room}: the store has no routing, so its one room is "${DEFAULT_ROOM}"; name rooms first: npm run tune -- --routing FILE`);
    return;
  }
  if (routing === null) {
    errors.push(`refused: --room ${room}: the store's routing cannot be used, so it names no room; fix it: npm run tune -- --routing FILE`);
    return;
  }
  if (!routing.roomIds.includes(room)) {
    errors.push(`refused: --room ${room}: the routing names no such room; its rooms are ${routing.roomIds.join(', ') || '(none)'} (npm run tune -- --routing FILE adds one)`);
  }
}

/** The writes for `request` over `current`, and what the edge would make of the result. */
export function planTune(current: StoreData, request: TuneRequest): TunePlan {
  const errors: string[] = [];
  const warnings: string[] = [];
  let writes: Record<string, string> = {};
  if (request.routing !== undefined) {
    const value = checkRouting(request.routing, errors);
    if (value !== null) writes[ROUTING_KEY] = value;
  }
  const routed = applyWrites(current, writes);
  if (request.room !== null) checkRoom(request.room, routed, errors);
  if (request.updates.size > 0) {
    try {
      writes = { ...writes, ...storeWrites(current, request.room, Object.fromEntries(request.updates)) };
    } catch (error) {
      errors.push(`refused: ${(error as Error).message}`);
    }
  }
  const next = applyWrites(current, writes);
  for (const [key, value] of Object.entries(writes)) {
    if (configValueChars(value) > CONFIG_STORE_VALUE_LIMIT) {
      errors.push(`refused: ${key} would be ${configValueChars(value)} characters, more than the ${CONFIG_STORE_VALUE_LIMIT} a Config Store value holds; remove or shorten a setting in it`);
    }
  }
  // The settings as each request that reads them sees them: the service-wide ones alone (a request no
  // room decides), and each room they reach.
  const rooms = request.room !== null ? [request.room] : [null, ...storeRooms(next)];
  const seen = new Set<string>();
  for (const room of rooms) {
    for (const p of roomSettings(next, room).problems) {
      const { storeKey, setting } = problemPlace(p);
      // A request no room decides reads the service-wide settings for its log line alone.
      if (room === null && setting === 'allow_percentage' && p.value === '') continue;
      const changed = setting !== null && request.updates.has(setting) && Object.hasOwn(writes, storeKey);
      const { need, fallback } = splitProblem(p.message);
      const shown = `setting "${setting ?? storeKey}"${p.value === '' ? '' : ` = "${p.value}"`}`;
      const line = changed
        ? `refused: ${shown}: it ${need} (in ${storeKey})`
        : `${shown} in ${storeKey} is not used as written: it ${need}${fallback === '' ? '' : `; the room falls back: ${fallback}`}`;
      if (seen.has(line)) continue;
      seen.add(line);
      (changed ? errors : warnings).push(line);
    }
  }
  if (request.room === null) warnings.push(...shadowed(next, request.updates));
  for (const key of unreadKeys(next)) {
    const move = settingsTable.some((s) => s.key === key) ? `; a setting now lives in settings: npm run tune -- ${key}=${JSON.stringify(next[key])}, then remove ${key} from the store` : '';
    warnings.push(`${key} is a key the edge never reads (it reads routing, settings, room.ID, room.ID.allow_percentage, room.ID.live)${move}`);
  }
  return { writes, next, errors, warnings };
}

/** A service-wide setting a room does not use, because its own value wins. */
function shadowed(next: StoreData, updates: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  for (const room of storeRooms(next)) {
    const from = settingSources(next, room);
    for (const setting of updates.keys()) {
      const key = from[setting];
      if (key !== undefined && key !== SETTINGS_KEY) lines.push(`room ${room} keeps its own ${setting} (${key}); the service-wide value does not apply there`);
    }
  }
  return lines;
}
