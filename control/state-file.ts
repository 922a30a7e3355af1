// The controller's state file (docs/control.md#restarting-it-safely): what a restarted controller
// needs to go on where the last one stopped. Per room, the model's saved state; the controller's own:
// which store it steers, its heartbeat id, what it last wrote, and the newest line time seen from each
// POP (a log source that replays lines after a restart must not have them counted twice).
//
// Written atomically (a temporary file in the same directory, fsynced, renamed over the old one), with
// a version and a sha256 of its body: a file that is corrupt, of another store, or of another version
// is refused whole, with a message naming it and what to do. Never half-read.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { repoRoot } from '../lib/paths.js';

/** Bumped whenever the body's shape changes: an older file is refused, not guessed at. */
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
  /** Each room's model, as its save() gave it (null: a model without save). */
  rooms: Record<string, unknown>;
}

/** A state file that cannot be used; the message names the file and what to do. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

/**
 * The default state file: beside the local store file (local/control-state.json for local/config.json),
 * or local/control-state-SERVICE.json for --service.
 */
export const defaultStateFile = (service: string | undefined, localFile: string): string =>
  // Named for its store: two store files in one folder (a test's, the operator's) never share one.
  service === undefined
    ? join(dirname(localFile), `control-state-${basename(localFile).replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_')}.json`)
    : join(repoRoot, 'local', `control-state-${service.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The file's text: the body as JSON text, with its checksum and version beside it. */
export function encodeState(state: ControllerState): string {
  const body = JSON.stringify(state);
  return `${JSON.stringify({ format: FORMAT, version: state.version, sha256: sha256(body), body })}\n`;
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
    outer = JSON.parse(text) as typeof outer;
  } catch {
    return refuse('it is corrupt (not valid JSON: cut short or overwritten?)');
  }
  if (typeof outer !== 'object' || outer === null || outer.format !== FORMAT) return refuse('it is not a controller state file');
  if (outer.version !== STATE_VERSION) {
    return refuse(
      typeof outer.version === 'number' && outer.version < STATE_VERSION
        ? `it was written by an older controller (state version ${outer.version}; this one reads version ${STATE_VERSION})`
        : `it was written by a newer controller (state version ${String(outer.version)}; this one reads version ${STATE_VERSION})`,
    );
  }
  if (typeof outer.body !== 'string' || outer.sha256 !== sha256(outer.body)) return refuse('it is corrupt (its checksum does not match its contents)');
  let state: ControllerState;
  try {
    state = JSON.parse(outer.body) as ControllerState;
  } catch {
    return refuse('it is corrupt (its body is not valid JSON)');
  }
  if (state.version !== STATE_VERSION || typeof state.store !== 'string' || typeof state.heartbeatId !== 'string' || typeof state.pops !== 'object' || typeof state.rooms !== 'object') {
    return refuse('it is corrupt (fields missing)');
  }
  if (state.store !== store) return refuse(`it is the state of ${state.store}, and this controller steers ${store}`);
  return state;
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

/** Writes `state` to `file` atomically: a temporary file beside it, fsynced, renamed over it. */
export async function writeStateFile(file: string, state: ControllerState): Promise<void> {
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
    private readonly write: (state: ControllerState) => Promise<void>,
    private readonly log: (message: string) => void,
    private readonly everyMs = 1000,
  ) {}

  /** Saves `build()` when due; resolves once written (true) or skipped as not due (false). */
  async offer(nowMs: number, build: () => ControllerState): Promise<boolean> {
    if (this.busy || nowMs - this.lastMs < this.everyMs) return false;
    this.busy = true;
    this.lastMs = nowMs;
    try {
      await this.write(build());
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
