// The rooms' status bases (src/core/settings/config-status.ts, docs/status.md): what the controller and
// `npm run tune` write into each room's `room.ID.live` so that the room's status reads two store values.
// One function for both, so the two writers never disagree on what a room's basis is.
import {
  DEFAULT_ROOM,
  LIVE_SETTINGS,
  liveKey,
  readRoomRaws,
  readStatusBasis,
  STATUS_SETTINGS,
  statusBasisText,
  storeWrites,
  usableRoomSettings,
} from '../src/core/settings/index.js';
import type { StatusBasis } from '../src/core/types.js';
import { applyWrites, readStoreIfExists, type StoreData, writeStoreAtomic } from './json-store.js';
import { storeRouting } from './room-store.js';

const LIVE_KEY = /^room\.([^.]+)\.live$/;

/** Room `room`'s STATUS_SETTINGS as `settings` and `room.ID` set them in `store` (the values the room passes over left out). */
export function basisSettings(store: Readonly<StoreData>, room: string): Record<string, string> {
  const raws = readRoomRaws((key) => (Object.hasOwn(store, key) ? store[key]! : null), room);
  const merged = usableRoomSettings(room, { ...raws, percentage: null, live: null });
  const out: Record<string, string> = {};
  for (const name of STATUS_SETTINGS) if (merged.values[name] !== undefined) out[name] = merged.values[name]!;
  return out;
}

/** The basis in room `room`'s `room.ID.live`, null when none is there (or it is unusable). */
export function storedBasis(store: Readonly<StoreData>, room: string): StatusBasis | null {
  const live = store[liveKey(room)];
  if (live === undefined) return null;
  try {
    const text = (JSON.parse(live) as Record<string, unknown> | null)?.status_basis;
    return typeof text === 'string' ? readStatusBasis(text) : null;
  } catch {
    return null;
  }
}

const same = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  statusBasisText({ at: 0, settings: a }) === statusBasisText({ at: 0, settings: b });

/**
 * The store writes that bring every room's basis up to date with `store` (as it is, or will be after
 * the caller's own writes): a room the routing names gets one, dated `nowSec`, when its settings
 * differ from the basis it has (or it has none), or when `refresh` names it ('all': every room). With
 * `before` (the store before the caller's writes: tune), only the rooms whose copied settings those
 * writes change, or that the routing newly names, so a change that touches no copied setting costs no
 * write of a live value (on Fastly through the CLI, an API call a key). A
 * room the routing no longer names loses its basis, so its status is a 404. An unusable routing
 * changes nothing (the edge sends every request to the origin until it is fixed).
 */
export function statusBasisWrites(
  store: Readonly<StoreData>,
  nowSec: number,
  refresh: ReadonlySet<string> | 'all' = new Set(),
  before?: Readonly<StoreData>,
): Record<string, string> {
  const { routing, single } = storeRouting(store);
  if (!single && routing === null) return {};
  const rooms = single ? [DEFAULT_ROOM] : routing!.roomIds;
  const named = before === undefined ? null : new Set(roomsOf(before));
  const writes: Record<string, string> = {};
  const at = Math.floor(nowSec);
  for (const room of rooms) {
    const settings = basisSettings(store, room);
    const stored = storedBasis(store, room);
    // With `before`: only where the copied settings changed from it, or the routing names a new room.
    const changed = named === null || !named.has(room) || !same(basisSettings(before!, room), settings);
    const due =
      refresh === 'all' || refresh.has(room) || (changed && (stored === null || !same(stored.settings, settings)));
    if (!due) continue;
    Object.assign(writes, liveWrite(store, room, statusBasisText({ at, settings })));
  }
  for (const key of Object.keys(store)) {
    const room = LIVE_KEY.exec(key)?.[1];
    if (room !== undefined && !rooms.includes(room) && storedBasis(store, room) !== null)
      Object.assign(writes, liveWrite(store, room, ''));
  }
  return writes;
}

/**
 * The controller's writes (`plans`, by room) with each room's basis from `values` (the store as the
 * controller holds it), dated now, in every write of the room's live value: it rides in that value, so
 * it costs no call and no write of its own, and the status's `updated` says when the controller last
 * published for the room. A write of the room's allow_percentage alone leaves it.
 */
export function withStatusBases(
  plans: ReadonlyMap<string, Readonly<Record<string, string>>>,
  values: Readonly<Record<string, string>>,
  nowSec: number,
): Map<string, Readonly<Record<string, string>>> {
  const out = new Map<string, Readonly<Record<string, string>>>();
  for (const [room, writes] of plans) {
    const live = Object.keys(writes).some((name) => LIVE_SETTINGS.includes(name));
    const at = Math.floor(nowSec);
    out.set(
      room,
      live ? { ...writes, status_basis: statusBasisText({ at, settings: basisSettings(values, room) }) } : writes,
    );
  }
  return out;
}

/** The rooms a store's routing names (none when it is unusable). */
function roomsOf(store: Readonly<StoreData>): readonly string[] {
  const { routing, single } = storeRouting(store);
  return single ? [DEFAULT_ROOM] : (routing?.roomIds ?? []);
}

/** The write of room `room`'s live value with `status_basis` set to `text` ('' removes it); none when the value cannot be read. */
function liveWrite(store: Readonly<StoreData>, room: string, text: string): Record<string, string> {
  try {
    return storeWrites(store, room, { status_basis: text });
  } catch {
    // A live value that is not a JSON object: the tools refuse to overwrite it, and so does this.
    return {};
  }
}

/** True when `key` is a room's live value and the basis is all that `write` changes in it (for "nothing to change"). */
export function onlyBasisChanged(store: Readonly<StoreData>, key: string, write: string): boolean {
  if (!LIVE_KEY.test(key)) return false;
  const strip = (text: string | undefined): string => {
    if (text === undefined || text === '') return '{}';
    try {
      const o = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify(
        Object.fromEntries(LIVE_SETTINGS.filter((n) => n !== 'status_basis').map((n) => [n, o[n]])),
      );
    } catch {
      return text;
    }
  };
  return strip(store[key]) === strip(write);
}

/** `npm start`: a basis for every room of the local store `file` that has none or an outdated one (a free write). */
export async function writeStatusBases(file: string, nowSec = Date.now() / 1000): Promise<void> {
  const store = await readStoreIfExists(file);
  if (store === null) return;
  const writes = statusBasisWrites(store, nowSec);
  if (Object.keys(writes).length > 0) await writeStoreAtomic(file, applyWrites(store, writes));
}
