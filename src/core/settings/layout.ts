// Where each setting lives in `waiting_room_config`, and how one room's settings are put together
// from the few values a request reads. Fastly allows 32 dictionary lookups per execution, so a room
// reads four values (the service-wide settings, its own, its allow_percentage and what the
// controller publishes for it) whatever the number of settings, rooms and rules. The tools use the
// same functions to read and write a room's settings, so the edge and the tools never disagree.
import { MESSAGE_PREFIX, messageSetting, MESSAGE_TAG_SETTING } from './config-language.js';
import type { SettingName } from './declared.js';
import type { SettingProblem } from './problem.js';
import { settingsTable } from './settings.js';

/** The rooms, their routes and the rules (routing.ts). */
export const ROUTING_KEY = 'routing';
/** Service-wide settings: a JSON object, setting -> value; every room starts from it. */
export const SETTINGS_KEY = 'settings';
/** The one room of a service without `routing`; it covers every request. */
export const DEFAULT_ROOM = 'default';

/** Lower case, digits, `-` and `_`, at most 32 characters: it goes into cookie names and store keys. */
export const ROOM_ID = /^[a-z0-9](?:[a-z0-9_-]{0,30}[a-z0-9])?$/;

/** A room's own settings: a JSON object, setting -> value, over the service-wide ones. */
export const roomKey = (room: string): string => `room.${room}`;
/** A room's allow_percentage on its own: one item update changes it live, no JSON to edit. */
export const percentageKey = (room: string): string => `room.${room}.allow_percentage`;
/** What the controller publishes for a room, often: a JSON object of LIVE_SETTINGS. */
export const liveKey = (room: string): string => `room.${room}.live`;

/** The controller's heartbeat, service-wide (control/failover/heartbeat.ts); the edge never reads it. */
export const CONTROLLER_KEY = 'controller';

/**
 * The settings the controller writes often, kept apart so its writes never rewrite an operator's: those
 * declared with the place `live` (a test holds the two equal), in the order the problems name them.
 */
export const LIVE_SETTINGS: readonly string[] = [
  'allow_schedule',
  'proof_schedule',
  'queue_cursor',
  'queue_counts',
  'status_basis',
  'lane_schedule',
] satisfies readonly SettingName[];

/** The raw values one room's settings are made from, as read (null: absent). */
export interface RoomRaws {
  settings: string | null;
  room: string | null;
  percentage: string | null;
  live: string | null;
}

/** The four reads of one room; `room` null reads the service-wide settings alone (one read). */
export function readRoomRaws(read: (key: string) => string | null, room: string | null): RoomRaws {
  const settings = read(SETTINGS_KEY);
  if (room === null) return { settings, room: null, percentage: null, live: null };
  return { settings, room: read(roomKey(room)), percentage: read(percentageKey(room)), live: read(liveKey(room)) };
}

/** The raw values in a fixed order: what a reused sandbox compares before reusing a parse. */
export function rawList(raws: RoomRaws): Array<string | null> {
  return [raws.settings, raws.room, raws.percentage, raws.live];
}

const KNOWN = new Set<string>(settingsTable.map((s) => s.key).filter((key) => key !== MESSAGE_TAG_SETTING));

/**
 * The setting a name in a settings object stands for, as the room reads it (`message.ja-jp` is
 * `message.ja-JP`); null when it is none: not in settingsTable, or `message.` and no built-in language.
 */
export function settingName(name: string): string | null {
  return KNOWN.has(name) ? name : messageSetting(name);
}

/**
 * A JSON object of settings: each value a string (numbers and booleans are taken as their text).
 * Anything else is a problem under `key`, and the value (or the one setting) is left out.
 */
export function settingsObject(raw: string | null, key: string, problems: SettingProblem[]): Record<string, string> {
  if (raw === null || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push({
      key: null,
      scope: key,
      value: raw.slice(0, 60),
      reason: 'is not valid JSON',
      instead: 'its settings are ignored (write it with npm run tune)',
    });
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push({
      key: null,
      scope: key,
      value: raw.slice(0, 60),
      reason: 'must be a JSON object of setting names and values',
      instead: 'its settings are ignored',
    });
    return {};
  }
  const out: Record<string, string> = {};
  for (const [written, value] of Object.entries(parsed as Record<string, unknown>)) {
    const name = settingName(written);
    if (name === null) {
      const why = written.startsWith(MESSAGE_PREFIX)
        ? 'is not a setting: TAG in message.TAG must be a built-in language'
        : 'is not a setting';
      problems.push({
        key: written,
        scope: key,
        value: String(value).slice(0, 60),
        reason: why,
        instead: 'ignoring it',
      });
      continue;
    }
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[name] = String(value);
    else
      problems.push({
        key: name,
        scope: key,
        value: JSON.stringify(value).slice(0, 60),
        reason: 'must be a string',
        instead: 'ignoring it',
      });
  }
  return out;
}

/** Where a room's setting came from, for the problem it may raise (`room.shop: message`). */
export interface MergedSettings {
  values: Record<string, string>;
  /** Setting -> the store key it was read from. */
  from: Record<string, string>;
  /** Setting -> every store key that holds a value of it, the service-wide first, the one used last. */
  held: Record<string, string[]>;
}

/** `room.shop: wait_period_duration`: one value of one setting, as problems name it. */
export const valueAt = (key: string, setting: string): string => `${key}: ${setting}`;

/**
 * One room's settings as written, each from the most specific place that has it: what the controller
 * published, the room's own allow_percentage, the room's settings, the service-wide settings. An empty
 * or blank value is no value, at every place: the next place's applies. `skip` names values
 * (`valueAt`) to pass over the same way: those the room found it cannot use.
 */
export function mergeRoomSettings(
  room: string | null,
  raws: RoomRaws,
  problems: SettingProblem[],
  skip: ReadonlySet<string> = new Set(),
): MergedSettings {
  const values: Record<string, string> = {};
  const from: Record<string, string> = {};
  const held: Record<string, string[]> = {};
  const layer = (key: string, object: Record<string, string>): void => {
    const set = Object.entries(object).filter(([name, value]) => value.trim() !== '' && !skip.has(valueAt(key, name)));
    // A layer that sets `message` hides the `message.TAG` of the layers under it: a room's own notice
    // is never replaced, for one language, by an older service-wide one.
    if (set.some(([name]) => name === 'message')) {
      for (const name of Object.keys(values)) {
        if (name.startsWith(MESSAGE_PREFIX)) {
          delete values[name];
          delete from[name];
          delete held[name];
        }
      }
    }
    for (const [name, value] of set) {
      values[name] = value;
      from[name] = key;
      (held[name] ??= []).push(key);
    }
  };
  layer(SETTINGS_KEY, settingsObject(raws.settings, SETTINGS_KEY, problems));
  if (room !== null) {
    layer(roomKey(room), settingsObject(raws.room, roomKey(room), problems));
    if (raws.percentage !== null) layer(percentageKey(room), { allow_percentage: raws.percentage });
    const live = settingsObject(raws.live, liveKey(room), problems);
    for (const name of Object.keys(live)) {
      if (!LIVE_SETTINGS.includes(name)) {
        problems.push({
          key: name,
          scope: liveKey(room),
          value: live[name]!.slice(0, 60),
          reason: `is not one of ${LIVE_SETTINGS.join(', ')}`,
          instead: 'ignoring it',
        });
        delete live[name];
      }
    }
    layer(liveKey(room), live);
  }
  return { values, from, held };
}

/** The store key a setting of `room` is written to (null: service-wide). */
export function storeKeyOf(setting: string, room: string | null): string {
  if (room === null) return SETTINGS_KEY;
  if (setting === 'allow_percentage') return percentageKey(room);
  if (LIVE_SETTINGS.includes(setting)) return liveKey(room);
  return roomKey(room);
}

function objectText(object: Record<string, string>): string {
  return Object.keys(object).length === 0 ? '' : JSON.stringify(object);
}

/**
 * The store writes that set these settings of `room` (null: service-wide), given what the store holds
 * now: JSON values are read, changed and written whole; '' removes a setting, and a value left empty
 * is removed ('' in the result). Throws when a value to change is not a JSON object: the tools must
 * not overwrite what they cannot read.
 */
export function storeWrites(
  current: Record<string, string>,
  room: string | null,
  settings: Record<string, string>,
): Record<string, string> {
  const writes: Record<string, string> = {};
  const objects = new Map<string, Record<string, string>>();
  for (const [setting, value] of Object.entries(settings)) {
    const key = storeKeyOf(setting, room);
    if (room !== null && key === percentageKey(room)) {
      writes[key] = value.trim();
      continue;
    }
    let object = objects.get(key);
    if (object === undefined) {
      const problems: SettingProblem[] = [];
      object = settingsObject(current[key] ?? null, key, problems);
      const whole = problems.find((p) => p.key === null);
      if (whole !== undefined) throw new Error(`${key} in the store ${whole.reason}; fix or delete it first`);
      objects.set(key, object);
    }
    if (value.trim() === '') delete object[setting];
    else object[setting] = value;
  }
  for (const [key, object] of objects) writes[key] = objectText(object);
  return writes;
}

/**
 * A service's settings as a store holds them, from one flat set of settings for `room`: what the
 * tests, the benches and the local host's helpers start from.
 */
export function storeFromSettings(
  settings: Record<string, string>,
  room: string | null = null,
): Record<string, string> {
  const store = storeWrites({}, room, settings);
  for (const key of Object.keys(store)) if (store[key] === '') delete store[key];
  return store;
}
