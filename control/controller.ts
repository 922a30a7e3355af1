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
import { retryDelayMs, type Store, type Writer } from './store/index.js';
import { parseLogLine } from './sources/index.js';
import { LanguageCounts, restoredModels, Rooms, type RoomsPort, type RoomsJson } from './rooms/index.js';
import type { ControlModel, DashboardSnapshot, DecisionLine, SettingWrites, SourceStatus } from './types.js';

export interface ControllerOptions {
  /**
   * A new control model for a room, made when the room first appears (the rooms in this thread);
   * `restore`: its saved state, after a restart.
   */
  createModel?: (room: string, restore?: unknown) => ControlModel;
  /** Saved models by room (the state file, after a restart), made with `createModel` at once. */
  restore?: Readonly<Record<string, unknown>>;
  /** The rooms and their models, if not in this thread of `createModel`'s (rooms/worker-rooms.ts: in a worker thread, restored there). */
  rooms?: RoomsPort;
  store: Store;
  writer: Writer;
  sourceName: string;
  /** Hold when decision lines arrive more than this (ms) after the edge wrote them. */
  lagLimitMs: number;
  log: (message: string) => void;
}

/**
 * What the process and the simulator drive: the plain Controller, or the same wrapped in restart and
 * failover (failover/failover-controller.ts).
 */
export interface ControlLoop {
  line(text: string, nowMs: number): void;
  source(error: string | null, dead: boolean): void;
  requestRead(why: string): void;
  tick(nowMs: number): Promise<void>;
  snapshot(nowMs: number): DashboardSnapshot;
}

/** No line for this long from a live source: the dashboard calls it quiet (the room has no traffic). */
export const QUIET_AFTER_MS = 10_000;

/** A condition's text without its figures of seconds, so "90 s" then "91 s" is one condition, said once. */
const conditionKey = (why: string | null): string | null =>
  why === null ? null : why.replace(/\d+(?:\.\d+)? s\b/g, '# s');

/** The last read's time, for the next planned one; -Infinity (none planned) when the store is read every tick. */
const readEveryOrNull = (readEveryMs: number | undefined, lastReadMs: number): number =>
  readEveryMs ? lastReadMs : -Infinity;

/** The source's state from what it said and when its last line came. */
function sourceState(
  dead: boolean,
  error: string | null,
  lastLineArrivalMs: number | null,
  lagging: boolean,
  nowMs: number,
): SourceStatus['state'] {
  if (dead) return 'dead';
  if (error !== null) return 'failing';
  if (lastLineArrivalMs === null) return 'starting';
  if (lagging) return 'lagging';
  return nowMs - lastLineArrivalMs >= QUIET_AFTER_MS ? 'quiet' : 'ok';
}

/**
 * The controller without restart and failover: its tick is a sequence of steps (read the store, give
 * the settings, find why to hold, plan, write) that the failover wrapper calls one by one, adding its
 * own between them.
 */
export class Controller implements ControlLoop {
  private readonly status: SourceStatus;
  private lastLineArrivalMs: number | null = null;
  private holdingWhy: string | null = null;
  private sourceError: string | null = null;
  private sourceDead = false;
  private settingsError: string | null = null;
  private readonly examples: string[] = [];
  private readonly rooms: RoomsPort;
  /** The languages of each room's own answers, for the dashboard (in this thread, wherever the rooms are). */
  private readonly languages = new LanguageCounts();
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
      this.rooms = new Rooms((id) => create(id), o.log, restoredModels(o.restore ?? {}, create));
    }
    this.status = {
      name: o.sourceName,
      state: 'starting',
      lagMs: null,
      lastLineMs: null,
      lines: 0,
      bad: 0,
      foreign: 0,
      previews: 0,
      error: null,
    };
  }

  /** One text line from the source, at `nowMs`. */
  line(text: string, nowMs: number): void {
    const line = this.parse(text, nowMs);
    if (line !== null) this.count(line, text, nowMs);
  }

  /** A text line as a decision line, or null (another program's line, counted as foreign; a preview link's, counted apart; a broken one, counted and said). */
  parse(text: string, nowMs: number): DecisionLine | null {
    const verdict = parseLogLine(text, nowMs);
    if (verdict.kind === 'foreign') {
      this.status.foreign++;
      return null;
    }
    if (verdict.kind === 'preview') {
      this.status.previews++;
      return null;
    }
    if (verdict.kind === 'bad') {
      this.status.bad++;
      if (this.examples.length < 5) {
        this.examples.push(`${verdict.why}: ${text.slice(0, 120)}`);
        this.o.log(`skipped a decision line (${verdict.why}): ${text.slice(0, 120)}`);
      }
      return null;
    }
    return verdict.line;
  }

  /** A decision line counted and given to its room's model. */
  count(line: DecisionLine, text: string, nowMs: number): void {
    this.status.lines++;
    this.status.lagMs = nowMs - line.tsMs;
    this.lastLineArrivalMs = nowMs;
    this.languages.observe(line);
    this.rooms.observe(line, text);
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

  /** The store as last read, with this process's own writes since. */
  get values(): Readonly<Record<string, string>> {
    return this.current;
  }

  /** The rooms' models are saved as of their plan (the planner thread), not of the moment the state file asks. */
  get savedAtPlan(): boolean {
    return this.rooms.savedAtPlan === true;
  }

  private get budget() {
    return this.o.writer.budget;
  }

  async tick(nowMs: number): Promise<void> {
    await this.readStore(nowMs);
    this.giveSettings(nowMs);
    this.hold(this.conditions(nowMs));
    const plans = await this.plan(nowMs);
    if (plans.size > 0) await this.write(plans, {}, plans, nowMs);
  }

  /**
   * Reads the store when a read is due and the budget allows it; `check` sees what a read brought
   * (a check that throws fails the read, as the read itself would).
   */
  async readStore(nowMs: number, check: (values: Readonly<Record<string, string>>) => void = () => {}): Promise<void> {
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
    if (!due || !this.budget.readAllowed(nowMs)) return;
    this.lastReadMs = nowMs;
    this.failedReads++;
    try {
      // On Fastly a read is an API call: its values change only by hand between reads.
      this.current = await this.o.store.read();
      check(this.current);
      this.lastGoodReadMs = nowMs;
      this.failedReads = 0;
      this.readWanted = null;
      this.settingsError = null;
    } catch (error) {
      // The values read last stay; said once per reason.
      this.settingsError = `cannot read the settings from ${this.o.store.name}: ${(error as Error).message}`;
    }
  }

  /** Whether the store was ever read: the models get no settings before. */
  get hasRead(): boolean {
    return Number.isFinite(this.lastGoodReadMs);
  }

  /** The store's values as last read, to every room's model. */
  giveSettings(nowMs: number): void {
    if (this.hasRead) this.rooms.settings(this.current, nowMs);
  }

  /**
   * Why the controller's view cannot be trusted now (the rooms cannot plan, the API's back-off, stale
   * settings, the source down, failing or lagging), or null; the source's status is brought up to date.
   */
  conditions(nowMs: number): string | null {
    const readEvery = this.o.store.readEveryMs ?? 0;
    // Without fresh settings the targets may be stale: hold, as with a lagging log; a read that failed
    // soon after a good one (a 5xx) leaves the values as fresh as a planned read would.
    const stale = !this.hasRead || nowMs - this.lastGoodReadMs > 2 * readEvery;
    const backoff = this.budget.backoff(nowMs);
    // Lag is what the newest line showed when it arrived; silence after it is a quiet room.
    const lagging = this.status.lagMs !== null && this.status.lagMs > this.o.lagLimitMs;
    this.status.state = sourceState(this.sourceDead, this.sourceError, this.lastLineArrivalMs, lagging, nowMs);
    this.status.error = this.sourceError;
    this.status.lastLineMs = this.lastLineArrivalMs;
    if (this.rooms.failure !== null) return this.rooms.failure;
    if (backoff !== null)
      return `the Fastly API rate limit is spent (429): calling nothing until ${new Date(backoff).toISOString().slice(11, 19)} UTC`;
    if (stale && this.settingsError !== null) return this.settingsError;
    if (this.status.state === 'dead') return `the log source is down (${this.sourceError ?? 'ended'})`;
    if (this.status.state === 'failing') return `the log source fails: ${this.sourceError}`;
    if (this.status.state === 'lagging')
      return `the log source lags: its lines arrive ${Math.round((this.status.lagMs ?? 0) / 1000)} s after the room wrote them`;
    return null;
  }

  /** Holds (or controls again) for `why`: each condition said once, when it starts, and again when it changes. */
  hold(why: string | null): void {
    if (conditionKey(why) !== conditionKey(this.holdingWhy))
      this.o.log(why === null ? 'the view is current again: controlling' : `holding, writing nothing: ${why}`);
    this.holdingWhy = why;
  }

  /** Every room's writes now (none while holding, but the models still plan: their views age). */
  plan(nowMs: number): Promise<Map<string, SettingWrites>> | Map<string, SettingWrites> {
    // Each window's chance is fixed by the write before its deadline, the budget's spacing apart (model/pacing.ts).
    return this.rooms.plan(nowMs, {
      holding: this.holdingWhy !== null,
      writeIntervalMs: this.o.writer.intervalMs(nowMs),
    });
  }

  /** Every room's model's saved state (rooms/port.ts saved()). */
  savedRooms(): ReturnType<RoomsPort['saved']> {
    return this.rooms.saved();
  }

  /** Whether the rooms' state comes from another thread (the planner's): then saveNow() gives it after every line so far. */
  get savesFromThread(): boolean {
    return this.rooms.saveNow !== undefined;
  }

  /** The rooms' state after every line observed so far, from the planner thread (null: it did not answer). */
  saveNow(): Promise<RoomsJson | null> {
    return this.rooms.saveNow?.() ?? Promise.resolve(null);
  }

  /**
   * Sends `plans` (and `extra` keys beside them) through the writer; `own`: the models' own texts,
   * which they are told of. Returns what the call stored when it went out now and succeeded, else null.
   */
  async write(
    plans: ReadonlyMap<string, SettingWrites>,
    extra: Record<string, string>,
    own: ReadonlyMap<string, SettingWrites>,
    nowMs: number,
  ): Promise<Record<string, string> | null> {
    const sent = await this.o.writer.offer(plans, this.current, nowMs, extra);
    const w = this.o.writer.lastWrite;
    if (w?.atMs !== nowMs || !w.ok) return null;
    const stored = w.stored ?? {};
    // What went out is in the store now, whether or not the next read has come.
    this.current = applyWrites(this.current, stored);
    if (sent.size === 0) return stored;
    const said: string[] = [];
    for (const [room, writes] of sent) {
      this.rooms.written(room, own.get(room) ?? writes, true, nowMs);
      said.push(
        `${sent.size > 1 || room !== 'default' ? `${room}: ` : ''}${Object.entries(writes)
          // The status basis rides along (failover.ts): the line says what the models wrote.
          .filter(([k]) => k !== 'status_basis')
          .map(([k, v]) => `${k}=${v.length > 60 ? `${v.slice(0, 60)}...` : v}`)
          .join(' ')}`,
      );
    }
    this.o.log(`wrote ${said.join('; ')}`);
    return stored;
  }

  snapshot(nowMs: number): DashboardSnapshot {
    const w = this.o.writer;
    return {
      rooms: this.rooms.snapshot(nowMs).map((r) => ({ ...r, languages: this.languages.view(r.id, nowMs) })),
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
      failover: null,
      holding: this.holdingWhy !== null,
      holdingWhy: this.holdingWhy,
    };
  }
}
