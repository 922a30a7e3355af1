// Writes what the rooms' models decide into waiting_room_config: the local store file (the host
// re-reads it within a second) or the Fastly Config Store (fastly-store.ts). Every room's writes are
// checked with the room's own parser first, turned into the store's keys (src/core/layout.ts:
// `room.ID.allow_percentage`, `room.ID.live`), and all rooms' pending writes go out together in one
// call. Calls are spaced by a budget of calls an hour (docs/control.md#writes-and-the-budget):
// Fastly's API allows about 1,000 an hour per token, and the operator's own tools need some.
import { parseConfig } from '../src/core/config.js';
import { storeWrites } from '../src/core/layout.js';
import { applyWrites, readStore, writeStoreAtomic } from '../lib/json-store.js';
import type { SettingWrites, WriteStatus } from './types.js';

/** API calls an hour the writer spends at most, by default: one every 10 s (docs/control.md). */
export const DEFAULT_WRITE_BUDGET = 360;

export interface Store {
  /** Every value of waiting_room_config. */
  read(): Promise<Record<string, string>>;
  /** Sets each store key ('' removes it), all at once where the store can. Throws on failure, with the reason. */
  write(values: Record<string, string>): Promise<void>;
  readonly name: string;
  /** API calls one write of these keys costs (default 1: a file, or one bulk request). */
  callsFor?(values: Record<string, string>): number;
  /** Read the store at most this often, ms (default every tick): reads are API calls on Fastly. */
  readonly readEveryMs?: number;
}

export function localStore(file: string): Store {
  return {
    name: `file ${file}`,
    read: () => readStore(file),
    async write(values) {
      // Every room's values in one atomic file write: the host never reads half of them.
      await writeStoreAtomic(file, applyWrites(await readStore(file), values));
    },
  };
}

/** Refuses values the room would not use, naming the key. */
export function checkWrites(values: SettingWrites): string[] {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const { problems } = parseConfig((k) => present[k] ?? (k === 'allow_percentage' ? '50' : null));
  return problems.filter((p) => Object.hasOwn(values, p.key)).map((p) => `${p.key}: ${p.message}`);
}

export class Writer {
  lastWrite: WriteStatus | null = null;
  done = 0;
  failed = 0;
  deferred = 0;
  /** When the next call may go, ms. */
  private nextCallMs = -Infinity;
  /** The failure last said, so a write that keeps failing the same way is said once. */
  private toldFailure: string | null = null;
  private toldHeldBack = false;
  /** The spacing the budget alone asks for, ms per call. */
  readonly budgetIntervalMs: number;

  constructor(
    private readonly store: Store,
    /** At least this long between calls, ms, whatever the budget (0: the budget alone). */
    readonly minIntervalMs: number,
    private readonly log: (message: string) => void,
    /** API calls an hour at most, across all rooms. */
    readonly budgetPerHour: number = DEFAULT_WRITE_BUDGET,
  ) {
    this.budgetIntervalMs = 3_600_000 / budgetPerHour;
  }

  /** The spacing in force between calls, ms. */
  get intervalMs(): number {
    return Math.max(this.minIntervalMs, this.budgetIntervalMs);
  }

  /**
   * Writes every room's pending settings in one call if the budget allows; `current` is the store as
   * last read (a JSON value is changed, not replaced). Returns the rooms whose writes went out
   * (none when held back or failed: their models offer them again, newest, at the next tick).
   */
  async offer(plans: ReadonlyMap<string, SettingWrites>, current: Readonly<Record<string, string>>, nowMs: number, extra: Readonly<Record<string, string>> = {}): Promise<Map<string, SettingWrites>> {
    const sent = new Map<string, SettingWrites>();
    // `extra`: store keys of the controller's own that ride along (its heartbeat, control/failover.ts).
    if (plans.size === 0 && Object.keys(extra).length === 0) return sent;
    if (nowMs < this.nextCallMs) {
      this.deferred++;
      if (!this.toldHeldBack) {
        this.log(
          `writes held back: ${
            this.minIntervalMs > this.budgetIntervalMs
              ? `--min-write-interval asks for ${fmtSeconds(this.minIntervalMs)} s between calls`
              : `the write budget allows a call every ${fmtSeconds(this.budgetIntervalMs)} s (${this.budgetPerHour} an hour, --write-budget)`
          }; ` +
            'each call carries every room\'s newest writes (said once; the dashboard counts them)',
        );
      }
      this.toldHeldBack = true;
      return sent;
    }
    const refused: string[] = [];
    const values: Record<string, string> = { ...extra };
    const byRoom: Record<string, SettingWrites> = {};
    for (const [room, writes] of plans) {
      const wrong = checkWrites(writes);
      if (wrong.length > 0) {
        refused.push(`room ${room}: ${wrong.join('; ')}`);
        continue;
      }
      try {
        Object.assign(values, storeWrites({ ...current }, room, writes));
        byRoom[room] = writes;
      } catch (error) {
        refused.push(`room ${room}: ${(error as Error).message}`);
      }
    }
    if (refused.length > 0) {
      this.failed++;
      this.lastWrite = { atMs: nowMs, values: Object.fromEntries(plans), ok: false, error: `refused: ${refused.join('; ')}` };
      this.tell(`write refused, the room would not use it: ${refused.join('; ')}`);
      if (Object.keys(byRoom).length === 0 && Object.keys(extra).length === 0) return sent;
    }
    this.nextCallMs = nowMs + Math.max(this.minIntervalMs, (this.store.callsFor?.(values) ?? 1) * this.budgetIntervalMs);
    try {
      await this.store.write(values);
      this.done++;
      this.lastWrite = { atMs: nowMs, values: byRoom, stored: values, ok: true, error: refused.length > 0 ? `refused: ${refused.join('; ')}` : null };
      if (this.toldFailure !== null && refused.length === 0) this.log(`writing to ${this.store.name} succeeds again`);
      if (refused.length === 0) this.toldFailure = null;
      for (const [room, writes] of Object.entries(byRoom)) sent.set(room, writes);
      return sent;
    } catch (error) {
      this.failed++;
      const why = error instanceof Error ? error.message : String(error);
      this.lastWrite = { atMs: nowMs, values: byRoom, ok: false, error: why };
      this.tell(`write to ${this.store.name} failed (${why}); the rooms keep their last settings, retrying at the next plan`);
      return sent;
    }
  }

  /** Says a failure once, and again only when it changes (the dashboard counts every one). */
  private tell(message: string): void {
    if (message !== this.toldFailure) this.log(message);
    this.toldFailure = message;
  }
}

const fmtSeconds = (ms: number): string => String(Math.round(ms / 100) / 10);
