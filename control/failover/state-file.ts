// The controller's state file (docs/control/failover.md#restarting-it-safely): what a restarted controller
// needs to go on where the last one stopped. Per room, the model's saved state; the controller's own:
// which store it steers, its heartbeat id, what it last wrote, and the newest line time seen from each
// POP (a log source that replays lines after a restart must not have them counted twice), and the API
// budget's calls of the trailing hour, its 429 back-off and the token's figures (a restart must not
// count the hour from zero).
//
// Written atomically (a temporary file in the same directory, fsynced, renamed over the old one), at
// most every SAVE_EVERY_MS (the skip-by-POP rule covers the lines since), as a header line (format,
// version, sha256 of the body) and the body's JSON after it: the body is never encoded twice, and the
// rooms' part may come already encoded (RoomsJson, from the planner thread). A file that is corrupt, of another store, or of another version
// is refused whole, with a message naming it and what to do. Never half-read.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { repoRoot } from '../../lib/paths.js';
import type { BudgetSaved } from '../store/index.js';
import { RoomsJson } from '../rooms/index.js';

export { RoomsJson };

/** Saves at most this often, ms: at the 200k-ticket bound a state is ~30 MB (docs/control/failover.md). */
export const SAVE_EVERY_MS = 10_000;

/**
 * Raised when an older controller could not read the file (a field it needs gone or changed): a file of
 * another version is refused, not guessed at. Fields added with defaults keep it (`recent`, `budget`:
 * a file without them, as older controllers write, loads; an older controller reading a newer file
 * ignores them).
 */
export const STATE_VERSION = 1;

const FORMAT = 'waiting-room-controller-state';

export interface ControllerState {
  version: number;
  /** When it was saved, ms since the epoch. */
  savedAtMs: number;
  /** The store it steers: "file PATH" or "service ID" (a file of another is refused). */
  store: string;
  /** The heartbeat id (heartbeat.ts): the restarted controller recognises its own beat. */
  heartbeatId: string;
  /** The store keys and values of its last write, and when (null: none yet). */
  lastWrite: { atMs: number; stored: Record<string, string> } | null;
  /** Newest decision line time (ms) seen from each POP: replayed lines at or before it are skipped. */
  pops: Record<string, number>;
  /** Keys of the lines counted within a few seconds before their POP's newest (failover.ts REPLAY_MARGIN_MS); absent in older files. */
  recent?: string[];
  /** The API budget's trailing hour, back-off and token figures (control/store/api-budget.ts); absent in older files: counted from zero. */
  budget?: BudgetSaved;
  /** Each room's model, as its save() gave it (null: a model without save). */
  rooms: Record<string, unknown>;
}

/** A state as it is saved: the rooms' part as objects, or as JSON text already. */
export type StateToSave = Omit<ControllerState, 'rooms'> & { rooms: Record<string, unknown> | RoomsJson };

/** A state file that cannot be used; the message names the file and what to do. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

/**
 * The default state file: beside the local store file (local/control-state-config.json for local/config.json),
 * or local/control-state-SERVICE.json for --service.
 */
export const defaultStateFile = (service: string | undefined, localFile: string): string =>
  // Named for its store: two store files in one folder (a test's, the operator's) never share one.
  service === undefined
    ? join(
        dirname(localFile),
        `control-state-${basename(localFile)
          .replace(/\.json$/, '')
          .replace(/[^A-Za-z0-9_-]/g, '_')}.json`,
      )
    : join(repoRoot, 'local', `control-state-${service.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The file's text: a header line (format, version, the body's checksum), then the body's JSON. */
export function encodeState(state: StateToSave): string {
  const { rooms, ...head } = state;
  // `rooms` goes last, as text when it came as text: never parsed and encoded again.
  const body = `${JSON.stringify(head).slice(0, -1)},"rooms":${rooms instanceof RoomsJson ? rooms.text : JSON.stringify(rooms)}}`;
  return `${JSON.stringify({ format: FORMAT, version: state.version, sha256: sha256(body) })}\n${body}\n`;
}

const whatToDo = (file: string): string =>
  `Start without it (learning mode: the controller holds what is published, watches for a minute, then controls): npm run control -- --fresh ...; or name another file with --state FILE. Delete ${file} once you no longer need it.`;

/** The state in `text` (of file `file`) for store `store`; throws StateFileError naming the file when it cannot be used. */
export function decodeState(text: string, file: string, store: string): ControllerState {
  const refuse = (why: string): never => {
    throw new StateFileError(`cannot resume from the state file ${file}: ${why}. ${whatToDo(file)}`);
  };
  let outer: { format?: unknown; version?: unknown; sha256?: unknown; body?: unknown };
  try {
    const nl = text.indexOf('\n');
    outer = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as typeof outer;
    // The body after the header line (a file of the first format had it as a string inside).
    if (outer !== null && typeof outer === 'object' && outer.body === undefined && nl >= 0)
      outer.body = text.slice(nl + 1).replace(/\n$/, '');
  } catch {
    return refuse('it is corrupt (not valid JSON: cut short or overwritten?)');
  }
  if (typeof outer !== 'object' || outer === null || outer.format !== FORMAT)
    return refuse('it is not a controller state file');
  if (outer.version !== STATE_VERSION) {
    return refuse(
      typeof outer.version === 'number' && outer.version < STATE_VERSION
        ? `it was written by an older controller (state version ${outer.version}; this one reads version ${STATE_VERSION})`
        : `it was written by a newer controller (state version ${String(outer.version)}; this one reads version ${STATE_VERSION})`,
    );
  }
  if (typeof outer.body !== 'string' || outer.sha256 !== sha256(outer.body))
    return refuse('it is corrupt (its checksum does not match its contents)');
  let state: ControllerState;
  try {
    state = JSON.parse(outer.body) as ControllerState;
  } catch {
    return refuse('it is corrupt (its body is not valid JSON)');
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const w = (state as { lastWrite?: unknown }).lastWrite;
  if (
    !isObject(state) ||
    state.version !== STATE_VERSION ||
    typeof state.savedAtMs !== 'number' ||
    typeof state.store !== 'string' ||
    typeof state.heartbeatId !== 'string' ||
    !isObject(state.pops) ||
    !Object.values(state.pops).every((t) => typeof t === 'number' && Number.isFinite(t)) ||
    !isObject(state.rooms) ||
    !(
      state.recent === undefined ||
      (Array.isArray(state.recent) && state.recent.every((k) => typeof k === 'string'))
    ) ||
    !(state.budget === undefined || budgetOk(state.budget)) ||
    !(
      w === null ||
      (isObject(w) &&
        typeof w.atMs === 'number' &&
        isObject(w.stored) &&
        Object.values(w.stored).every((v) => typeof v === 'string'))
    )
  ) {
    return refuse('it is corrupt (fields missing or of the wrong type)');
  }
  if (state.store !== store) return refuse(`it is the state of ${state.store}, and this controller steers ${store}`);
  return state;
}

const KINDS = new Set(['read', 'write', 'heartbeat', 'log-tail']);
const numOrNull = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v));

/** Whether a saved budget has the shape control/store/api-budget.ts restores. */
function budgetOk(b: unknown): boolean {
  if (typeof b !== 'object' || b === null) return false;
  const o = b as Record<string, unknown>;
  return (
    Array.isArray(o.calls) &&
    o.calls.every((c: unknown) => {
      const e = c as Record<string, unknown> | null;
      return (
        typeof e === 'object' &&
        e !== null &&
        typeof e.atMs === 'number' &&
        Number.isFinite(e.atMs) &&
        typeof e.kind === 'string' &&
        KINDS.has(e.kind) &&
        typeof e.calls === 'number' &&
        e.calls >= 0
      );
    }) &&
    numOrNull(o.backoffUntilMs) &&
    numOrNull(o.remaining) &&
    numOrNull(o.resetMs)
  );
}

/** The state saved in `file` for `store`, or null when there is no such file. */
export async function readStateFile(file: string, store: string): Promise<ControllerState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateFileError(`cannot read the state file ${file}: ${(error as Error).message}. ${whatToDo(file)}`);
  }
  return decodeState(text, file, store);
}

/** The temporary file a write of `file` by process `pid` goes through before its rename. */
const TEMP = (file: string): RegExp =>
  new RegExp(`^\\.${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);

/**
 * Removes the temporary files of writes of `file` that a process cut short (killed mid-write), those
 * of processes that no longer run; returns their names. Called at start: they are never read, and
 * would pile up in the work tree.
 */
export async function removeLeftTemps(file: string, runs: (pid: number) => boolean = processRuns): Promise<string[]> {
  const pattern = TEMP(file);
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return [];
  }
  const left = names.filter((name) => {
    const pid = pattern.exec(name)?.[1];
    return pid !== undefined && !runs(Number(pid));
  });
  for (const name of left) await rm(join(dirname(file), name), { force: true });
  return left;
}

function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Writes `state` to `file` atomically: a temporary file beside it, fsynced, renamed over it. */
export async function writeStateFile(file: string, state: StateToSave): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(encodeState(state));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Saves at most once every `everyMs`, one write at a time; a failure is said once (the controller
 * goes on: the file is its memory across restarts, not its view).
 */
export class StateSaver {
  private lastMs = -Infinity;
  private busy = false;
  private told: string | null = null;
  saves = 0;

  constructor(
    private readonly write: (state: StateToSave) => Promise<void>,
    private readonly log: (message: string) => void,
    private readonly everyMs = SAVE_EVERY_MS,
  ) {}

  /** Whether a save would go at `nowMs`. */
  due(nowMs: number): boolean {
    return !this.busy && nowMs - this.lastMs >= this.everyMs;
  }

  /** The save under way, if any (shutdown waits for it). */
  private running: Promise<unknown> = Promise.resolve();

  /**
   * Saves `build()` when due (or `force`, at shutdown); resolves once written (true) or skipped (false):
   * not due, or `build` had nothing to save yet (null: the planner thread's state comes with the next plan).
   */
  async offer(nowMs: number, build: () => StateToSave | null, force = false): Promise<boolean> {
    if (force) await this.running;
    if (this.busy || (!force && nowMs - this.lastMs < this.everyMs)) return false;
    const state = build();
    if (state === null) return false;
    this.busy = true;
    this.lastMs = nowMs;
    const done = this.write(state);
    this.running = done.catch(() => {});
    try {
      await done;
      this.saves++;
      if (this.told !== null) this.log('the state file is written again');
      this.told = null;
    } catch (error) {
      const why = `cannot write the state file: ${(error as Error).message}; a restart would start in learning mode`;
      if (why !== this.told) this.log(why);
      this.told = why;
    } finally {
      this.busy = false;
    }
    return true;
  }
}
