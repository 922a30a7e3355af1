// What a stopped local controller left in local/config.json, and what `npm start` does with it.
//
// A controller publishes each room's `allow_schedule` (and `proof_schedule`, `queue_cursor`,
// `queue_counts`) in `room.ID.live`, and on Fastly a controller that dies leaves them on purpose: the
// room keeps the chances published, then their fallback (docs/control/failover.md#restarting-it-safely). On the
// local store a plain `npm start` (no --control) is a new run without a controller: left there, a dead
// controller's last entry would decide every draw while the operator reads allow_percentage. So when
// the `controller` heartbeat names a process of this machine that no longer runs, `npm start` removes
// the `room.ID.live` values and says so; it keeps them when that controller still runs (a piped
// `npm start | npm run control`), and when it cannot tell (no heartbeat, another host's), saying loudly
// which rooms they govern and the command that clears them. `npm start -- --control` keeps them: its
// controller resumes from them, or learns from what they publish.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseBeat, type Beat } from '../control/failover/index.js';
import { applyWrites, readStoreIfExists, writeStoreAtomic, type StoreData } from '../lib/json-store.js';
import { storeRooms } from '../lib/room-store.js';
import { CONTROLLER_KEY, LIVE_SETTINGS, liveKey, storeWrites } from '../src/core/settings/index.js';

export type LeftBy =
  /** The heartbeat's process, on this machine, is gone. */
  | { kind: 'stopped'; beat: Beat }
  /** The heartbeat's process still runs here. */
  | { kind: 'running'; beat: Beat }
  /** No heartbeat, or another machine's: nobody can say whether its controller runs. */
  | { kind: 'unknown'; beat: Beat | null };

export interface LeftLive {
  /** The rooms with a `room.ID.live` value, and the settings each holds. */
  rooms: Array<{ room: string; settings: string[] }>;
  by: LeftBy;
}

/** Whether `pid` is a running controller of this machine (Linux: its command line names control/cli.ts). */
export function controllerRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('control/cli');
  } catch {
    // No /proc (not Linux): a process of that pid is all that can be told.
    return true;
  }
}

/** The `room.ID.live` values of the store's rooms, and who left them; null when there are none. */
export function leftLive(
  store: StoreData,
  host = hostname(),
  runs: (pid: number) => boolean = controllerRuns,
): LeftLive | null {
  const rooms = storeRooms(store).flatMap((room) => {
    const raw = store[liveKey(room)];
    if (raw === undefined) return [];
    let settings: string[] = [];
    try {
      const parsed: unknown = JSON.parse(raw);
      // The room's status basis (docs/status.md) is tune's too, and decides no draw: not what a controller left.
      if (typeof parsed === 'object' && parsed !== null) {
        settings = Object.keys(parsed).filter((k) => k !== 'status_basis');
        if (settings.length === 0) return [];
      }
    } catch {
      // A value the room cannot read is still what a controller left.
    }
    return [{ room, settings }];
  });
  if (rooms.length === 0) return null;
  const beat = parseBeat(store[CONTROLLER_KEY]);
  if (beat === null || beat.host !== host) return { rooms, by: { kind: 'unknown', beat } };
  return { rooms, by: { kind: runs(beat.pid) ? 'running' : 'stopped', beat } };
}

/** The tune command that clears a room's live settings. */
export function clearCommand(room: { room: string; settings: string[] }): string {
  const keys = room.settings.length > 0 ? room.settings : ['allow_schedule'];
  return `npm run tune -- --room ${room.room} ${keys.map((k) => `${k}=`).join(' ')}`;
}

/**
 * For a plain `npm start`: removes what a stopped controller of this machine left, and returns what
 * to say about it (in the log and the banner); null when the store holds nothing of the kind.
 */
export async function clearStoppedController(
  file: string,
  host = hostname(),
  runs: (pid: number) => boolean = controllerRuns,
): Promise<string | null> {
  const store = (await readStoreIfExists(file)) ?? {};
  const left = leftLive(store, host, runs);
  if (left === null) return null;
  const names = left.rooms.map((r) => r.room).join(', ');
  const { by } = left;
  if (by.kind === 'stopped') {
    // Each room's controller settings removed, its status basis kept (a value that cannot be read: removed whole).
    const writes = Object.assign({}, ...left.rooms.map((r) => clearedLive(store, r)));
    await writeStoreAtomic(file, applyWrites(store, writes));
    return `cleared what a stopped controller left (pid ${by.beat.pid}, last heartbeat ${new Date(by.beat.beat * 1000).toISOString()}): room.ID.live of ${names}, so their draws use allow_percentage again (npm start -- --control runs a controller that publishes anew)`;
  }
  if (by.kind === 'running')
    return `a controller runs (pid ${by.beat.pid}): its schedules for ${names} decide the draws`;
  const who =
    by.beat === null
      ? 'no controller heartbeat says who wrote them'
      : `the controller that wrote them ran on host ${by.beat.host}, pid ${by.beat.pid}`;
  return `WARNING: ${left.rooms.map((r) => `room.${r.room}.live`).join(', ')} decide the draws of ${names} (not allow_percentage) and ${who}, so npm start keeps them; to hand the draws back to allow_percentage: ${left.rooms.map(clearCommand).join('; ')}`;
}

/** The write that removes a room's controller settings from its live value, keeping its status basis. */
function clearedLive(store: StoreData, left: { room: string; settings: string[] }): Record<string, string> {
  try {
    if (!left.settings.every((k) => LIVE_SETTINGS.includes(k))) throw new Error('not only the live settings');
    return storeWrites(store, left.room, Object.fromEntries(left.settings.map((k) => [k, ''])));
  } catch {
    return { [liveKey(left.room)]: '' };
  }
}
