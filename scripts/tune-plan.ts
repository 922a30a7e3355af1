// What one `npm run tune` command writes to `waiting_room_config`, and whether the edge could use the
// store afterwards. Every value is checked as a request would read it (src/core/settings/layout.ts and
// config.ts over the store as it would be after the write): a value the edge would replace by a
// default, a routing it would skip part of, a value past the Config Store's limit, is refused here
// with its key named, and nothing is written.
import {
  CONFIG_STORE_VALUE_LIMIT,
  settingsTable,
  configValueChars,
  CONTROLLER_KEY,
  DEFAULT_ROOM,
  LIVE_SETTINGS,
  ROOM_ID,
  ROUTING_KEY,
  storeKeyOf,
  storeWrites,
} from '../src/core/settings/index.js';
import { parseRouting, type RoutingProblem } from '../src/core/routing/index.js';
import { applyWrites, type StoreData } from '../lib/json-store.js';
import { statusBasisWrites } from '../lib/status-basis.js';
import { orphanRoomKeys, storeRooms, storeRouting, unreadKeys } from '../lib/room-store.js';
import { judgedText, judgeScopes, roomOfKey, type Judged } from './tune-judge.js';
import {
  liveAcrossRooms,
  liveControllerWarning,
  percentageNobodyTakes,
  shadowed,
  type Change,
} from './tune-per-room.js';
import { LOCAL_TUNE, tuneCommand } from './tune-scope.js';

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
  /** Each setting written, with the store key it went to: what the change lines show. */
  changes: Change[];
  /** The rooms whose own values conflict with a service-wide value the request wrote. */
  conflictRooms: string[];
}

export interface TuneOptions {
  /** How the suggested commands start: `npm run tune --`, or with `--service ID`. */
  command?: string;
  /** The time now, ms: whether a controller's heartbeat is alive. */
  nowMs?: number;
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
    errors.push(
      `refused: routing is ${configValueChars(value)} characters (without its spaces), more than the ${CONFIG_STORE_VALUE_LIMIT} a Config Store value holds; fewer rooms, routes or rules fit`,
    );
    return null;
  }
  const { routing, problems } = parseRouting(value);
  for (const p of problems) errors.push(`refused: ${routingProblemText(p)}`);
  if (routing === null && problems.length === 0) errors.push('refused: routing cannot be used by the edge');
  return value;
}

function checkRoom(room: string, next: StoreData, errors: string[]): void {
  if (!ROOM_ID.test(room)) {
    errors.push(
      `refused: --room "${room}" is not a room id (lower case letters, digits, - and _, at most 32 characters)`,
    );
    return;
  }
  const { single, routing } = storeRouting(next);
  if (single) {
    if (room !== DEFAULT_ROOM)
      errors.push(
        `refused: --room ${room}: the store has no routing, so its one room is "${DEFAULT_ROOM}"; name rooms first: npm run tune -- --routing FILE`,
      );
    return;
  }
  if (routing === null) {
    errors.push(
      `refused: --room ${room}: the store's routing cannot be used, so it names no room; fix it: npm run tune -- --routing FILE`,
    );
    return;
  }
  if (!routing.roomIds.includes(room)) {
    errors.push(
      `refused: --room ${room}: the routing names no such room; its rooms are ${routing.roomIds.join(', ') || '(none)'} (npm run tune -- --routing FILE adds one)`,
    );
  }
}

/** The writes for `request` over `current`, and what the edge would make of the result. */
export function planTune(current: StoreData, request: TuneRequest, options: TuneOptions = {}): TunePlan {
  const prefix = options.command ?? LOCAL_TUNE;
  const errors: string[] = [];
  const warnings: string[] = [];
  let writes: Record<string, string> = {};
  if (request.routing !== undefined) {
    const value = checkRouting(request.routing, errors);
    if (value !== null) writes[ROUTING_KEY] = value;
  }
  const routed = applyWrites(current, writes);
  if (request.room !== null) checkRoom(request.room, routed, errors);
  const changes: Change[] = [];
  if (request.updates.size > 0) {
    // Service-wide, the controller's per-room values go to every room (docs/configuration.md).
    const live = request.room === null ? liveAcrossRooms(routed, request.updates, storeRooms(routed), prefix) : null;
    errors.push(...(live?.errors ?? []));
    const own = live?.serviceWide ?? request.updates;
    try {
      writes = {
        ...writes,
        ...(live?.writes ?? {}),
        ...(own.size > 0 ? storeWrites(current, request.room, Object.fromEntries(own)) : {}),
      };
    } catch (error) {
      errors.push(`refused: ${(error as Error).message}`);
    }
    changes.push(
      ...(live?.changes ?? []),
      ...[...own.keys()].map((setting) => ({ setting, key: storeKeyOf(setting, request.room) })),
    );
  }
  writes = withStatusBases(current, writes, request, options.nowMs ?? Date.now());
  const next = applyWrites(current, writes);
  for (const [key, value] of Object.entries(writes)) {
    if (configValueChars(value) > CONFIG_STORE_VALUE_LIMIT) {
      errors.push(
        `refused: ${key} would be ${configValueChars(value)} characters, more than the ${CONFIG_STORE_VALUE_LIMIT} a Config Store value holds; remove or shorten a setting in it`,
      );
    }
  }
  const judged = judgeScopes(next, request.room, request.updates, writes);
  const seen = new Set<string>();
  for (const j of judged) {
    const line = judgedText(j);
    if (seen.has(line)) continue;
    seen.add(line);
    (j.changed ? errors : warnings).push(line);
  }
  const conflictRooms = [
    ...new Set(judged.filter((j) => j.changed && j.room !== null && request.room === null).map((j) => j.room!)),
  ];
  if (request.room === null) {
    errors.push(...percentageNobodyTakes(next, request.updates, prefix));
    if (conflictRooms.length > 0 && request.routing === undefined)
      errors.push(...roomFixes(current, request, conflictRooms, judged, prefix));
    warnings.push(...shadowed(next, request.updates, prefix));
  }
  const cleared = [...request.updates]
    .filter(([setting, value]) => LIVE_SETTINGS.includes(setting) && value.trim() === '')
    .map(([setting]) => setting);
  const alive = liveControllerWarning(current, cleared, options.nowMs ?? Date.now());
  if (alive !== null) warnings.push(alive);
  // The controller's heartbeat is written on purpose (docs/control/failover.md); `npm run tune` shows it apart.
  for (const key of unreadKeys(next).filter((k) => k !== CONTROLLER_KEY)) {
    const move = settingsTable.some((s) => s.key === key)
      ? `; a setting now lives in settings: npm run tune -- ${key}=${JSON.stringify(next[key])}, then remove ${key} from the store`
      : '';
    warnings.push(
      `${key} is a key the edge never reads (it reads routing, settings, room.ID, room.ID.allow_percentage, room.ID.live)${move}`,
    );
  }
  const orphans = orphanRoomKeys(next);
  if (orphans.length > 0) {
    const rooms = [...new Set(orphans.map((key) => key.split('.')[1]!))];
    warnings.push(
      `${orphans.join(', ')}: settings of ${rooms.length === 1 ? 'a room' : 'rooms'} the routing does not name (${rooms.join(', ')}), which the edge never reads; a room of that id added back takes them again. Remove them from the store: from local/config.json, or on a service fastly config-store-entry delete --store-id ID --key KEY`,
    );
  }
  return { writes, next, errors, warnings, changes, conflictRooms };
}

/**
 * `writes` and each room's status basis they change (docs/status.md): the bases follow the settings
 * they copy, unless the request writes one itself, which is then checked as any value is.
 */
function withStatusBases(
  current: StoreData,
  writes: Record<string, string>,
  request: TuneRequest,
  nowMs: number,
): Record<string, string> {
  if ((request.routing === undefined && request.updates.size === 0) || request.updates.has('status_basis'))
    return writes;
  return { ...writes, ...statusBasisWrites(applyWrites(current, writes), nowMs / 1000, new Set(), current) };
}

/**
 * A service-wide change refused because of rooms' own values: the commands that fix it, each checked
 * first. Drop a room's own value (the service-wide one then applies there), or make the change only
 * in the rooms it fits.
 */
function roomFixes(
  current: StoreData,
  request: TuneRequest,
  rooms: readonly string[],
  judged: readonly Judged[],
  prefix: string,
): string[] {
  const lines: string[] = [];
  for (const room of rooms) {
    const own = [
      ...new Set(
        judged
          .filter((j) => j.changed && j.room === room)
          .flatMap((j) =>
            j.compared.filter((c) => roomOfKey(c.key) === room && !c.key!.endsWith('.live')).map((c) => c.setting),
          ),
      ),
    ];
    if (own.length === 0) continue;
    const drop = Object.fromEntries(own.map((setting) => [setting, '']));
    const dropped = applyWrites(current, storeWrites(current, room, drop));
    const retried = planTune(dropped, request, { command: prefix });
    const works = retried.errors.length === 0 || !retried.conflictRooms.includes(room);
    lines.push(
      `  room ${room} keeps its own ${own.join(', ')}${works ? `; to let the service-wide value apply there: ${tuneCommand(prefix, room, Object.entries(drop))}, then this command again` : ''}`,
    );
  }
  const fits = storeRooms(current).filter(
    (room) =>
      !rooms.includes(room) &&
      planTune(current, { room, updates: request.updates }, { command: prefix }).errors.length === 0,
  );
  if (fits.length > 0)
    lines.push(
      `  or make the change only where it fits: ${fits.map((room) => tuneCommand(prefix, room, request.updates)).join('  and  ')}`,
    );
  return lines;
}
