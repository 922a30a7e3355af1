// Writes what the rooms' models decide into waiting_room_config: the local store file (the host
// re-reads it within a second) or the Fastly Config Store (fastly-store.ts). Every room's writes are
// checked with the room's own parser first, turned into the store's keys (src/core/layout.ts:
// `room.ID.allow_percentage`, `room.ID.live`), and all rooms' pending writes go out together in one
// call. Calls are spaced by the API budget (api-budget.ts, docs/control/budget.md#writes-and-the-budget):
// Fastly's API allows about 1,000 an hour per token, and the operator's own tools need some. A write
// the API refuses is tried again after 10 s, 20, 40, then every 60 s while it keeps failing (as a
// failed read is), heartbeats included; its reason is said once, then summarized every 10 minutes.
import { parseConfig, storeWrites, problemText } from '../../src/core/settings/index.js';
import { applyWrites, readStore, writeStoreAtomic } from '../../lib/json-store.js';
import {
  ApiBudget,
  ApiError,
  callKind,
  DEFAULT_API_BUDGET,
  DEFAULT_READ_EVERY_MS,
  outcomeUnknown,
  retryDelayMs,
  type CallReporter,
} from './api-budget.js';
import type { SettingWrites, WriteStatus } from '../types.js';

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
  /** Its reads and writes cost no API call (a local file): writes are spaced by --min-write-interval alone. */
  readonly free?: boolean;
}

/** The local store file; each write is reported (for the journal) as a call that costs no API call. */
export function localStore(file: string, report: CallReporter = () => {}): Store {
  return {
    name: `file ${file}`,
    free: true,
    callsFor: () => 0,
    read: () => readStore(file),
    async write(values) {
      const done = {
        kind: callKind(Object.keys(values)),
        calls: 0,
        status: null,
        keys: Object.keys(values),
        values,
        remaining: null,
        resetMs: null,
        retryAfterMs: null,
      };
      try {
        // Every room's values in one atomic file write: the host never reads half of them.
        await writeStoreAtomic(file, applyWrites(await readStore(file), values));
      } catch (error) {
        report({ ...done, ok: false, error: (error as Error).message });
        throw error;
      }
      report({ ...done, ok: true, error: null });
    },
  };
}

/** Refuses values the room would not use, naming the key. */
export function checkWrites(values: SettingWrites): string[] {
  const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const { problems } = parseConfig((k) => present[k] ?? (k === 'allow_percentage' ? '50' : null));
  return problems.filter((p) => p.key !== null && Object.hasOwn(values, p.key)).map(problemText);
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
  /** A write failure that repeats: its reason, since when, how many calls failed so, when last summarized. */
  private failing: { why: string; sinceMs: number; calls: number; toldMs: number } | null = null;
  /** Write calls failed in a row (a free store's excepted): the next waits retryDelayMs of them. */
  private failedInRow = 0;
  private retryAtMs = -Infinity;
  private toldHeldBack: string | null = null;
  /** A write failed in a way that leaves unknown what the store holds (a timeout, a 5xx): read it. */
  needsRead = false;
  /** The budget the writes are spaced by, shared with the reads and heartbeats. */
  readonly budget: ApiBudget;

  constructor(
    private readonly store: Store,
    /** At least this long between calls, ms, whatever the budget (0: the budget alone). */
    readonly minIntervalMs: number,
    private readonly log: (message: string) => void,
    budget?: ApiBudget,
  ) {
    this.budget = budget ?? new ApiBudget({ perHour: DEFAULT_API_BUDGET, readEveryMs: DEFAULT_READ_EVERY_MS, log });
  }

  /** The spacing in force between calls now, ms (what the model plans with: PlanContext.writeIntervalMs). */
  intervalMs(nowMs: number): number {
    // A local file's writes cost no API call: the budget does not space them.
    return this.store.free === true
      ? this.minIntervalMs
      : Math.max(this.minIntervalMs, this.budget.writeIntervalMs(nowMs));
  }

  /**
   * Writes every room's pending settings in one call if the budget allows; `current` is the store as
   * last read (a JSON value is changed, not replaced). Returns the rooms whose writes went out
   * (none when held back or failed: their models offer them again, newest, at the next tick).
   */
  async offer(
    plans: ReadonlyMap<string, SettingWrites>,
    current: Readonly<Record<string, string>>,
    nowMs: number,
    extra: Readonly<Record<string, string>> = {},
  ): Promise<Map<string, SettingWrites>> {
    const sent = new Map<string, SettingWrites>();
    // `extra`: store keys of the controller's own that ride along (its heartbeat, control/failover/failover.ts).
    if (plans.size === 0 && Object.keys(extra).length === 0) return sent;
    if (nowMs < this.nextCallMs)
      return this.heldBack(`--min-write-interval asks for ${fmtSeconds(this.minIntervalMs)} s between calls`);
    // A write that keeps failing is not sent every tick: each try is an API call whatever its answer.
    // (Said with the failure, and summarized while it lasts: not said again here.)
    if (nowMs < this.retryAtMs) {
      this.deferred++;
      return sent;
    }
    const { values, byRoom, refused } = gather(plans, current, extra);
    // Within the budget first: a tick held back refuses nothing (its rooms offer their writes again).
    const calls = this.store.callsFor?.(values) ?? 1;
    const wait = this.store.free === true ? null : this.budget.writeWait(nowMs, calls);
    if (wait !== null) return this.heldBack(wait);
    if (refused.length > 0) {
      this.failed++;
      this.lastWrite = {
        atMs: nowMs,
        values: Object.fromEntries(plans),
        ok: false,
        error: `refused: ${refused.join('; ')}`,
      };
      this.tell(`write refused, the room would not use it: ${refused.join('; ')}`);
      if (Object.keys(byRoom).length === 0 && Object.keys(extra).length === 0) return sent;
    }
    this.nextCallMs = nowMs + this.minIntervalMs;
    // A heartbeat on its own is planned apart (the budget sets aside a beat every lease/3): it does not
    // take the rooms' write slot, so a window fixed to go before its deadline is not held behind it.
    if (callKind(Object.keys(values)) !== 'heartbeat') this.budget.noteWrite(nowMs, calls);
    try {
      await this.store.write(values);
    } catch (error) {
      this.failedWrite(error, nowMs, byRoom, Object.keys(values));
      return sent;
    }
    this.succeeded(nowMs, byRoom, values, refused);
    for (const [room, writes] of Object.entries(byRoom)) sent.set(room, writes);
    return sent;
  }

  /** A write call that went through: said when it ends a run of failures. */
  private succeeded(
    nowMs: number,
    byRoom: Record<string, SettingWrites>,
    values: Record<string, string>,
    refused: string[],
  ): void {
    this.done++;
    this.lastWrite = {
      atMs: nowMs,
      values: byRoom,
      stored: values,
      ok: true,
      error: refused.length > 0 ? `refused: ${refused.join('; ')}` : null,
    };
    if (this.failing !== null)
      this.log(
        `writing to ${this.store.name} succeeds again, after ${this.failing.calls} failed write${this.failing.calls === 1 ? '' : 's'} since ${new Date(this.failing.sinceMs).toISOString()}`,
      );
    else if (this.toldFailure !== null && refused.length === 0)
      this.log(`writing to ${this.store.name} succeeds again`);
    if (refused.length === 0) this.toldFailure = null;
    this.failing = null;
    this.failedInRow = 0;
    this.retryAtMs = -Infinity;
  }

  /** A write call that failed: retried later, with a read first when what it applied is unknown. */
  private failedWrite(error: unknown, nowMs: number, byRoom: Record<string, SettingWrites>, keys: string[]): void {
    this.failed++;
    const why = error instanceof Error ? error.message : String(error);
    this.lastWrite = { atMs: nowMs, values: byRoom, ok: false, error: why };
    // Nobody knows what a timeout or a 5xx applied: the controller reads before it trusts its view.
    if (outcomeUnknown(error)) this.needsRead = true;
    if (this.store.free !== true) {
      this.failedInRow++;
      this.retryAtMs = nowMs + retryDelayMs(this.failedInRow);
    }
    // A 429 is said by the budget, which backs off and makes the controller hold.
    if (error instanceof ApiError && error.status === 429) return;
    this.sayFailure(why, keys, nowMs);
  }

  /** A failed write: its reason said once, with the keys it carried; the same reason again only summarized, every 10 minutes. */
  private sayFailure(why: string, keys: string[], nowMs: number): void {
    const f = this.failing;
    if (f !== null && f.why === why) {
      f.calls++;
      if (nowMs - f.toldMs >= SUMMARY_EVERY_MS) {
        f.toldMs = nowMs;
        this.log(
          `write to ${this.store.name} still fails the same way: ${f.calls} failed writes since ${new Date(f.sinceMs).toISOString()} (${why}); the rooms keep their last settings, trying again every ${RETRY_EVERY_S} s`,
        );
      }
      return;
    }
    this.failing = { why, sinceMs: nowMs, calls: 1, toldMs: nowMs };
    const retry =
      this.store.free === true
        ? 'retrying at the next plan'
        : `trying again in ${fmtSeconds(this.retryAtMs - nowMs)} s, then less often while it fails (every ${RETRY_EVERY_S} s at most), saying it again only every 10 minutes`;
    this.tell(
      `write to ${this.store.name} failed (${why}); it carried ${keys.join(', ')}; the rooms keep their last settings, ${retry}`,
    );
  }

  /** Counts a tick whose writes wait, and says why once (again when the reason changes). */
  private heldBack(why: string): Map<string, SettingWrites> {
    this.deferred++;
    const key = why.replace(/\d[\d:.TZ-]*/g, '#');
    if (key !== this.toldHeldBack)
      this.log(
        `writes held back: ${why}; each call carries every room's newest writes (said once; the dashboard counts them)`,
      );
    this.toldHeldBack = key;
    return new Map();
  }

  /** Says a failure once, and again only when it changes (the dashboard counts every one). */
  private tell(message: string): void {
    if (message !== this.toldFailure) this.log(message);
    this.toldFailure = message;
  }
}

/**
 * Every room's writes as store keys beside `extra` (a JSON value changed in `current`, not replaced),
 * and the rooms refused, each with why: a value the room would not use, or one the layout cannot hold.
 */
function gather(
  plans: ReadonlyMap<string, SettingWrites>,
  current: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>>,
): { values: Record<string, string>; byRoom: Record<string, SettingWrites>; refused: string[] } {
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
  return { values, byRoom, refused };
}

const fmtSeconds = (ms: number): string => String(Math.round(ms / 100) / 10);
/** A failure that repeats is summarized this often, ms. */
const SUMMARY_EVERY_MS = 600_000;
const RETRY_EVERY_S = fmtSeconds(retryDelayMs(Infinity));
