// A service-wide change of a value that lives per room. Each setting a room takes from the first of
// room.ID.live, room.ID.allow_percentage, room.ID and settings that has it (src/core/settings/layout.ts), so a
// service-wide write does not reach a room that holds its own. Decided per key (docs/configuration.md):
//
// - the controller's values (allow_schedule, proof_schedule, queue_cursor, queue_counts; room.ID.live):
//   `KEY=` clears them in every room (and service-wide); a service-wide value is refused, naming the
//   `--room ID` commands: the controller publishes them per room, and so does tune.
// - allow_percentage, which the controller also writes per room: a service-wide value every room
//   overrides would change nothing, so it is refused, naming the `--room ID` commands; one some rooms
//   take is written, and each room that keeps its own is named with the command that changes it.
// - any other setting: written service-wide; each room that keeps its own is named likewise.
import { CONTROLLER_KEY, LIVE_SETTINGS, liveKey, SETTINGS_KEY, storeWrites } from '../src/core/settings/index.js';
import { describeBeat, parseBeat } from '../control/failover/index.js';
import type { StoreData } from '../lib/json-store.js';
import { mergedSettings, settingSources, storeRooms } from '../lib/room-store.js';
import { tuneCommand } from './tune-scope.js';
import { duration } from './tune-clock.js';

/** One setting written under one store key: what the change lines show. */
export interface Change {
  setting: string;
  key: string;
}

export interface PerRoom {
  writes: Record<string, string>;
  changes: Change[];
  errors: string[];
  /** The updates left for the service-wide `settings`. */
  serviceWide: Map<string, string>;
}

/**
 * The controller's values in a service-wide request: a clear becomes a write to each room that has
 * the value (and to settings when it is there); a value is refused. The other updates stay service-wide.
 */
export function liveAcrossRooms(
  current: StoreData,
  updates: ReadonlyMap<string, string>,
  rooms: readonly string[],
  prefix: string,
): PerRoom {
  const out: PerRoom = { writes: {}, changes: [], errors: [], serviceWide: new Map() };
  const clears = new Map<string, Record<string, string>>();
  for (const [setting, value] of updates) {
    if (!LIVE_SETTINGS.includes(setting)) {
      out.serviceWide.set(setting, value);
      continue;
    }
    if (value.trim() !== '') {
      out.errors.push(
        `refused: setting "${setting}" = "${value}" (service-wide): ${setting} is published per room (room.ID.live, the controller's), so tune sets it per room too:`,
      );
      out.errors.push(...rooms.map((room) => `    ${tuneCommand(prefix, room, [[setting, value]])}`));
      continue;
    }
    for (const room of rooms) {
      if (settingSources(current, room)[setting] !== liveKey(room)) continue;
      clears.set(room, { ...clears.get(room), [setting]: '' });
      out.changes.push({ setting, key: liveKey(room) });
    }
    // A value once written service-wide (by hand) goes too; else the change line says it was not there.
    if (hasServiceWide(current, setting) || !out.changes.some((c) => c.setting === setting)) {
      out.serviceWide.set(setting, '');
    }
  }
  for (const [room, settings] of clears) Object.assign(out.writes, storeWrites(current, room, settings));
  return out;
}

function hasServiceWide(store: StoreData, setting: string): boolean {
  return settingSources(store, null)[setting] === SETTINGS_KEY;
}

/** A service-wide allow_percentage that every room overrides: refused, with the commands per room. */
export function percentageNobodyTakes(next: StoreData, updates: ReadonlyMap<string, string>, prefix: string): string[] {
  const value = updates.get('allow_percentage')?.trim();
  if (value === undefined || value === '') return [];
  const rooms = storeRooms(next);
  const own = rooms.map((room) => ({ ...mergedSettings(next, room), room }));
  if (rooms.length === 0 || own.some((o) => (o.from.allow_percentage ?? SETTINGS_KEY) === SETTINGS_KEY)) return [];
  const held = own.map((o) => `${o.from.allow_percentage} "${o.values.allow_percentage}"`).join(', ');
  return [
    `refused: setting "allow_percentage" = "${value}" (service-wide, in settings): every room keeps its own allow_percentage (${held}), so the service-wide value would change no room; per room:`,
    ...rooms.map((room) => `    ${tuneCommand(prefix, room, [['allow_percentage', value]])}`),
    `  (or drop a room's own, so the service-wide value applies there: ${tuneCommand(prefix, rooms[0]!, [['allow_percentage', '']])})`,
  ];
}

/** A service-wide setting a room does not use, because its own value wins: named, with the command that changes it there. */
export function shadowed(next: StoreData, updates: ReadonlyMap<string, string>, prefix: string): string[] {
  const lines: string[] = [];
  for (const room of storeRooms(next)) {
    const from = settingSources(next, room);
    for (const [setting, value] of updates) {
      const key = from[setting];
      if (LIVE_SETTINGS.includes(setting) || key === undefined || key === SETTINGS_KEY) continue;
      const fix =
        value.trim() === '' ? '' : ` (to change it there too: ${tuneCommand(prefix, room, [[setting, value]])})`;
      lines.push(`room ${room} keeps its own ${setting} (${key}); the service-wide value does not apply there${fix}`);
    }
  }
  return lines;
}

/** A controller still inside its lease writes its live values again: clearing them lasts until its next write. */
export function liveControllerWarning(store: StoreData, cleared: readonly string[], nowMs: number): string | null {
  if (cleared.length === 0) return null;
  const beat = parseBeat(store[CONTROLLER_KEY]);
  if (beat === null) return null;
  const age = nowMs / 1000 - beat.beat;
  if (age > beat.lease) return null;
  const who = describeBeat(beat).replace(/, controlling since .*$/, '');
  return `the controller ${who} wrote its heartbeat ${duration(age)} ago: it publishes a new ${cleared.join(', ')} at its next write; stop it first for the change to last`;
}
