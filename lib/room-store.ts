// A settings store (local/config.json, or a Fastly Config Store's items) read the way the edge reads
// it (src/core/settings/layout.ts): the routing, the rooms it names, and each room's settings. The tools use
// these so that what they show and check is what a request would see.
import {
  parseRoomConfig,
  usableRoomSettings,
  DEFAULT_ROOM,
  readRoomRaws,
  ROUTING_KEY,
  type MergedSettings,
  type RoomRaws,
} from '../src/core/settings/index.js';
import { requestFacts } from '../src/core/request/index.js';
import { parseRouting, routeRequest, type Routing, type RoutingProblem } from '../src/core/routing/index.js';
import type { ConfigProblem, ParsedSettings } from '../src/core/types.js';
import type { StoreData } from './json-store.js';

export interface StoreRouting {
  /** Null when the store holds a `routing` value the edge cannot use (every request then goes to the origin). */
  routing: Routing | null;
  problems: RoutingProblem[];
  /** True when the store holds no `routing`: one room, `default`, covers every request. */
  single: boolean;
}

export function storeRouting(store: StoreData): StoreRouting {
  const raw = Object.hasOwn(store, ROUTING_KEY) ? store[ROUTING_KEY]! : null;
  return { ...parseRouting(raw), single: raw === null };
}

/** The rooms the store's routing names (`default` alone without a routing; none when it is unusable). */
export function storeRooms(store: StoreData): string[] {
  const { routing, single } = storeRouting(store);
  if (single) return [DEFAULT_ROOM];
  return routing === null ? [] : [...routing.roomIds];
}

/** The room the tools mean when none is named: the default room, else the first room, else `default`. */
export function mainRoom(store: StoreData): string {
  const { routing, single } = storeRouting(store);
  if (single || routing === null) return DEFAULT_ROOM;
  return routing.defaultRoom ?? routing.roomIds[0] ?? DEFAULT_ROOM;
}

/** One room's settings (null: the service-wide settings alone), as a request in it reads them. */
export function roomSettings(store: StoreData, room: string | null): ParsedSettings {
  return parseRoomConfig(room, roomRaws(store, room));
}

/** One room's settings as written (null: the service-wide ones alone), each with the store key it came from; a value the room passes over is left out. */
export function mergedSettings(
  store: Readonly<StoreData>,
  room: string | null,
  problems: ConfigProblem[] = [],
): MergedSettings {
  return usableRoomSettings(room, roomRaws(store, room), problems);
}

/** Every key a room signs with (a room may name its own active_key), with the rooms that do. */
export function signingKeys(store: StoreData): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const room of storeRooms(store)) {
    const kid = roomSettings(store, room).config.activeKey;
    byKey.set(kid, [...(byKey.get(kid) ?? []), room]);
  }
  return byKey;
}

/** Setting -> the store key a room reads it from (a setting absent here takes its default). */
export function settingSources(store: StoreData, room: string | null): Record<string, string> {
  return mergedSettings(store, room).from;
}

function roomRaws(store: Readonly<StoreData>, room: string | null): RoomRaws {
  return readRoomRaws((key) => (Object.hasOwn(store, key) ? store[key]! : null), room);
}

const READ = /^(routing|settings|room\.[^.]+(\.allow_percentage|\.live)?)$/;

/**
 * Keys of the store the edge never reads: most often a setting of the old layout (one key per
 * setting, before rooms), which no longer does anything where it is.
 */
export function unreadKeys(store: StoreData): string[] {
  return Object.keys(store).filter((key) => !READ.test(key));
}

/**
 * Keys of rooms the routing does not name (`room.old`, `room.old.live`, ...): the edge never reads
 * them, and a room of that id added back would take them again. None when the routing is unusable
 * (which rooms it means cannot be told).
 */
export function orphanRoomKeys(store: StoreData): string[] {
  const { routing, single } = storeRouting(store);
  if (!single && routing === null) return [];
  const rooms = new Set(storeRooms(store));
  return Object.keys(store).filter((key) => {
    const room = /^room\.([^.]+)(\.allow_percentage|\.live)?$/.exec(key)?.[1];
    return room !== undefined && !rooms.has(room);
  });
}

/**
 * The room a GET of `url` lands in, as the edge routes it (rules first, then routes, then the default
 * room); null when no room decides it (a bypass rule, no room, an unusable routing).
 */
export async function roomOfUrl(store: StoreData, url: URL): Promise<string | null> {
  const { routing, single } = storeRouting(store);
  if (single) return DEFAULT_ROOM;
  if (routing === null) return null;
  const target = await routeRequest(
    routing,
    requestFacts(new Request(url), url, null, null, null, () => {}),
  );
  return target.kind === 'room' ? target.room : null;
}
