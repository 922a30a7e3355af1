// The controller process's heart, without its I/O: lines in, counted, each fed to its room's model
// (rooms/room-set.ts); once a second the source's health, the settings, every room's plan and the writer,
// which sends all rooms' writes in one call. The CLI wires real sources, stores and a clock to it;
// tests drive it with fakes and a fake clock.
//
// Reads (docs/control/budget.md#writes-and-the-budget): on Fastly each is an API call, so the store is read
// only when needed: at start, every `store.readEveryMs` (a minute), right after a write whose outcome
// is unknown (a timeout, a 5xx), and when the operator asks (requestRead: SIGHUP, the dashboard). Not
// after every write: the bulk update's answer confirms it, and the controller knows what it wrote.
// A 429 stops every call until the reset the API names, and the controller holds meanwhile.
//
// The source's health (docs/control/failover.md#when-it-holds): a source lags when its lines arrive late (the
// time a line arrives minus the time the edge wrote it), measured on each line as it arrives; it fails
// when it says so (an error: fastly log-tail exited or printed an ERROR, a file cannot be read); it is
// dead when it ended. A source that is alive and gives no line is quiet: a room with no traffic, not a
// fault, so silence alone never makes the controller hold. Each condition is said once, when it
// starts, and again only when it changes (a growing figure is not a change).
import { applyWrites } from '../lib/json-store.js';
import { retryDelayMs } from './store/api-call.js';
import { parseLogLine } from './sources/log-line.js';
import { restoredModels, Rooms } from './rooms/room-set.js';
import { HEARTBEAT_KEY } from './failover/heartbeat.js';
import type { Failover } from './failover/failover.js';
import type { RoomsPort } from './rooms/port.js';
import type { ControlModel, DashboardSnapshot, SettingWrites, SourceStatus } from './types.js';
import type { Store, Writer } from './store/writer.js';

export interface ControllerOptions {
  /**
   * A new control model for a room, made when the room first appears (the rooms in this thread);
   * `restore`: its saved state, after a restart.
   */
  createModel?: (room: string, restore?: unknown) => ControlModel;
  /** The rooms and their models, if not in this thread of `createModel`'s (rooms/worker-rooms.ts: in a worker thread, restored there). */
  rooms?: RoomsPort;
  /** Restart and failover: the state file, learning mode, the heartbeat and the lease (failover/failover.ts); none in tests of the rest. */
  failover?: Failover;
  store: Store;
  writer: Writer;
  sourceName: string;
  /** Hold when decision lines arrive more than this (ms) after the edge wrote them. */
  lagLimitMs: number;
  log: (message: string) => void;
}

/** No line for this long from a live source: the dashboard calls it quiet (the room has no traffic). */
export const QUIET_AFTER_MS = 10_000;

/** A condition's text without its figures of seconds, so "90 s" then "91 s" is one condition, said once. */
const conditionKey = (why: string | null): string | null =>
  why === null ? null : why.replace(/\d+(?:\.\d+)? s\b/g, '# s');

/** The last read's time, for the next planned one; -Infinity (none planned) when the store is read every tick. */
const readEveryOrNull = (readEveryMs: number | undefined, lastReadMs: number): number =>
  readEveryMs ? lastReadMs : -Infinity;

export class Controller {
  private readonly status: SourceStatus;
  private lastLineArrivalMs: number | null = null;
  private holdingWhy: string | null = null;
  private sourceError: string | null = null;
  private sourceDead = false;
  private settingsError: string | null = null;
  private readonly examples: string[] = [];
  private readonly rooms: RoomsPort;
  /** The store as last read, with this process's own writes since. */
  private current: Record<string, string> = {};
  /** When the last read was tried, and when one last succeeded. */
  private lastReadMs = -Infinity;
  private lastGoodReadMs = -Infinity;
  /** Why a read is wanted before the next planned one (start, an unknown write, the operator), or null. */
  private readWanted: string | null = 'start';
  /** Reads failed in a row: each waits longer before the next try. */
  private failedReads = 0;

  constructor(private readonly o: ControllerOptions) {
    if (o.rooms === undefined && o.createModel === undefined)
      throw new Error('Controller: give it createModel or rooms');
    if (o.rooms !== undefined) this.rooms = o.rooms;
    else {
      // Saved models are restored at once, so a state file a model cannot read is refused at start.
      const create = o.createModel!;
      const f = o.failover;
      const restored = restoredModels(
        Object.fromEntries((f?.savedRooms() ?? []).map((id) => [id, f!.restoreFor(id)])),
        create,
      );
      this.rooms = new Rooms((id) => create(id), o.log, restored);
    }
    this.status = {
      name: o.sourceName,
      state: 'starting',
      lagMs: null,
      lastLineMs: null,
      lines: 0,
      bad: 0,
      foreign: 0,
      error: null,
    };
  }

  /** One text line from the source, at `nowMs`. */
  line(text: string, nowMs: number): void {
    const verdict = parseLogLine(text, nowMs);
    if (verdict.kind === 'foreign') {
      this.status.foreign++;
      return;
    }
    if (verdict.kind === 'bad') {
      this.status.bad++;
      if (this.examples.length < 5) {
        this.examples.push(`${verdict.why}: ${text.slice(0, 120)}`);
        this.o.log(`skipped a decision line (${verdict.why}): ${text.slice(0, 120)}`);
      }
      return;
    }
    // Counted before a restart (the log source gives it again): counted once.
    if (this.o.failover !== undefined && !this.o.failover.fresh(verdict.line)) return;
    this.status.lines++;
    this.status.lagMs = nowMs - verdict.line.tsMs;
    this.lastLineArrivalMs = nowMs;
    this.rooms.observe(verdict.line, text);
  }

  /** The source's own state: an error it hit, or that it ended. */
  source(error: string | null, dead: boolean): void {
    this.sourceError = error;
    this.sourceDead = dead;
  }

  /** Reads the store at the next tick (SIGHUP, the dashboard's button), within the API's back-off. */
  requestRead(why: string): void {
    this.readWanted = why;
  }

  private get budget() {
    return this.o.writer.budget;
  }

  async tick(nowMs: number): Promise<void> {
    const readEvery = this.o.store.readEveryMs ?? 0;
    if (this.o.writer.needsRead) {
      this.o.writer.needsRead = false;
      this.readWanted ??= 'a write whose outcome is unknown';
    }
    // A failed read is tried again after 10 s, then 20, 40, and every 60 s while it keeps failing (or
    // its interval, if shorter), not every tick: each is a call, and a 5xx outage must not spend the hour.
    const sinceTry = nowMs - this.lastReadMs;
    const retryMs = Math.min(readEvery, retryDelayMs(this.failedReads));
    const due =
      this.lastGoodReadMs < this.lastReadMs ? sinceTry >= retryMs : sinceTry >= readEvery || this.readWanted !== null;
    // Every read is held to the budget, the operator's too: no trailing hour holds more calls than it.
    if (due && this.budget.readAllowed(nowMs)) {
      this.lastReadMs = nowMs;
      this.failedReads++;
      try {
        // On Fastly a read is an API call: its values change only by hand between reads.
        this.current = await this.o.store.read();
        this.o.failover?.afterRead(this.current, nowMs);
        this.lastGoodReadMs = nowMs;
        this.failedReads = 0;
        this.readWanted = null;
        this.settingsError = null;
      } catch (error) {
        // The values read last stay; said once per reason.
        this.settingsError = `cannot read the settings from ${this.o.store.name}: ${(error as Error).message}`;
      }
    }
    // While learning, the models get the settings only when it ends (failover/failover.ts): they take the edge's chances then as fixed.
    if (Number.isFinite(this.lastGoodReadMs) && this.o.failover?.withholdSettings(nowMs) !== true)
      this.rooms.settings(this.current, nowMs);
    // Without fresh settings the targets may be stale: hold, as with a lagging log; a read that failed
    // soon after a good one (a 5xx) leaves the values as fresh as a planned read would.
    const stale = !Number.isFinite(this.lastGoodReadMs) || nowMs - this.lastGoodReadMs > 2 * readEvery;
    const backoff = this.budget.backoff(nowMs);
    // Lag is what the newest line showed when it arrived; silence after it is a quiet room.
    const lagging = this.status.lagMs !== null && this.status.lagMs > this.o.lagLimitMs;
    const silentMs = this.lastLineArrivalMs === null ? null : nowMs - this.lastLineArrivalMs;
    this.status.state = this.sourceDead
      ? 'dead'
      : this.sourceError !== null
        ? 'failing'
        : this.lastLineArrivalMs === null
          ? 'starting'
          : lagging
            ? 'lagging'
            : silentMs !== null && silentMs >= QUIET_AFTER_MS
              ? 'quiet'
              : 'ok';
    this.status.error = this.sourceError;
    this.status.lastLineMs = this.lastLineArrivalMs;
    const why =
      this.rooms.failure ??
      (backoff !== null
        ? `the Fastly API rate limit is spent (429): calling nothing until ${new Date(backoff).toISOString().slice(11, 19)} UTC`
        : null) ??
      (stale ? this.settingsError : null) ??
      (this.status.state === 'dead'
        ? `the log source is down (${this.sourceError ?? 'ended'})`
        : this.status.state === 'failing'
          ? `the log source fails: ${this.sourceError}`
          : this.status.state === 'lagging'
            ? `the log source lags: its lines arrive ${Math.round((this.status.lagMs ?? 0) / 1000)} s after the room wrote them`
            : (this.o.failover?.holdWhy(nowMs) ?? null));
    if (conditionKey(why) !== conditionKey(this.holdingWhy))
      this.o.log(why === null ? 'the view is current again: controlling' : `holding, writing nothing: ${why}`);
    this.holdingWhy = why;
    // Each window's chance is fixed by the write before its deadline, the budget's spacing apart (model/pacing.ts).
    // The planner thread's models are saved as of the plan: the POP times that go with them are of then.
    // Taken only when a save is due (they hold the keys of the last seconds' lines).
    const atPlan = this.rooms.savedAtPlan === true;
    const pops = atPlan && this.o.failover?.saveDue(nowMs) === true ? this.o.failover.popsNow() : undefined;
    const plans = await this.rooms.plan(nowMs, {
      holding: why !== null,
      writeIntervalMs: this.o.writer.intervalMs(nowMs),
    });
    // The lease on each schedule and the heartbeat (failover/failover.ts); the models are told of their own texts.
    const out = this.o.failover?.outgoing(plans, this.current, nowMs, this.beatCosts) ?? { plans, extra: {} };
    if (out.plans.size > 0 || Object.keys(out.extra).length > 0) await this.write(out.plans, out.extra, plans, nowMs);
    if (!atPlan || pops !== undefined) await this.o.failover?.save(nowMs, () => this.rooms.saved(), pops);
  }

  /** At shutdown, after the last tick: the state file written whatever its clock (the models as of that tick's plan). */
  async finalSave(nowMs: number): Promise<void> {
    if (this.o.failover === undefined) return;
    if (this.rooms.saveNow === undefined) return this.o.failover.save(nowMs, () => this.rooms.saved(), undefined, true);
    // The planner thread's models after every line so far: the POP times of now go with them.
    const pops = this.o.failover.popsNow();
    const saved = await this.rooms.saveNow();
    await this.o.failover.save(nowMs, () => saved, pops, true);
  }

  /** Whether the heartbeat costs a call of its own beside other writes (the CLI writes a key a call). */
  private get beatCosts(): boolean {
    const calls = this.o.store.callsFor;
    return (
      calls !== undefined && calls({ [HEARTBEAT_KEY]: '{}', 'room.x.live': '{}' }) > calls({ 'room.x.live': '{}' })
    );
  }

  private async write(
    plans: ReadonlyMap<string, SettingWrites>,
    extra: Record<string, string>,
    own: ReadonlyMap<string, SettingWrites>,
    nowMs: number,
  ): Promise<void> {
    const sent = await this.o.writer.offer(plans, this.current, nowMs, extra);
    const w = this.o.writer.lastWrite;
    if (w?.atMs !== nowMs || !w.ok) return;
    this.o.failover?.wrote(w.stored ?? {}, nowMs);
    // What went out is in the store now, whether or not the next read has come.
    this.current = applyWrites(this.current, w.stored ?? {});
    if (sent.size === 0) return;
    const said: string[] = [];
    for (const [room, writes] of sent) {
      this.rooms.written(room, own.get(room) ?? writes, true, nowMs);
      said.push(
        `${sent.size > 1 || room !== 'default' ? `${room}: ` : ''}${Object.entries(writes)
          .map(([k, v]) => `${k}=${v.length > 60 ? `${v.slice(0, 60)}...` : v}`)
          .join(' ')}`,
      );
    }
    this.o.log(`wrote ${said.join('; ')}`);
  }

  snapshot(nowMs: number): DashboardSnapshot {
    const w = this.o.writer;
    return {
      rooms: this.rooms.snapshot(nowMs),
      unrouted: { ...this.rooms.unrouted },
      source: { ...this.status },
      lastWrite: w.lastWrite,
      writes: {
        done: w.done,
        failed: w.failed,
        deferred: w.deferred,
        minIntervalSeconds: w.intervalMs(nowMs) / 1000,
        budgetPerHour: w.budget.perHour,
      },
      // A local store file costs no API call: no budget to show (the dashboard hides its panel).
      api:
        this.o.store.free === true
          ? null
          : w.budget.status(nowMs, readEveryOrNull(this.o.store.readEveryMs, this.lastReadMs)),
      failover: this.o.failover?.view(nowMs) ?? null,
      holding: this.holdingWhy !== null,
      holdingWhy: this.holdingWhy,
    };
  }
}
