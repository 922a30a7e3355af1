// The controller process's heart, without its I/O: lines in, counted, each fed to its room's model
// (rooms.ts); once a second the source's health, the settings, every room's plan and the writer,
// which sends all rooms' writes in one call. The CLI wires real sources, stores and a clock to it;
// tests drive it with fakes and a fake clock.
//
// The source's health (docs/control.md#when-it-holds): a source lags when its lines arrive late (the
// time a line arrives minus the time the edge wrote it), measured on each line as it arrives; it fails
// when it says so (an error: fastly log-tail exited or printed an ERROR, a file cannot be read); it is
// dead when it ended. A source that is alive and gives no line is quiet: a room with no traffic, not a
// fault, so silence alone never makes the controller hold. Each condition is said once, when it
// starts, and again only when it changes (a growing figure is not a change).
import { applyWrites } from '../lib/json-store.js';
import { parseLogLine } from './log-line.js';
import { Rooms } from './rooms.js';
import type { Failover } from './failover.js';
import type { ControlModel, DashboardSnapshot, SettingWrites, SourceStatus } from './types.js';
import type { Store, Writer } from './writer.js';

export interface ControllerOptions {
  /** A new control model for a room, made when the room first appears (`restore`: its saved state, after a restart). */
  createModel: (room: string, restore?: unknown) => ControlModel;
  /** Restart and failover: the state file, learning mode, the heartbeat and the lease (failover.ts); none in tests of the rest. */
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
const conditionKey = (why: string | null): string | null => (why === null ? null : why.replace(/\d+(?:\.\d+)? s\b/g, '# s'));

export class Controller {
  private readonly status: SourceStatus;
  private lastLineArrivalMs: number | null = null;
  private holdingWhy: string | null = null;
  private sourceError: string | null = null;
  private sourceDead = false;
  private settingsError: string | null = null;
  private readonly examples: string[] = [];
  private readonly rooms: Rooms;
  /** The store as last read, with this process's own writes since. */
  private current: Record<string, string> = {};
  private lastReadMs = -Infinity;

  constructor(private readonly o: ControllerOptions) {
    // Saved models are restored at once, so a state file a model cannot read is refused at start.
    const restored = new Map((o.failover?.savedRooms() ?? []).map((id) => [id, o.createModel(id, o.failover!.restoreFor(id))]));
    this.rooms = new Rooms((id) => restored.get(id) ?? o.createModel(id), o.log);
    this.status = { name: o.sourceName, state: 'starting', lagMs: null, lastLineMs: null, lines: 0, bad: 0, foreign: 0, error: null };
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
    this.rooms.observe(verdict.line);
  }

  /** The source's own state: an error it hit, or that it ended. */
  source(error: string | null, dead: boolean): void {
    this.sourceError = error;
    this.sourceDead = dead;
  }

  async tick(nowMs: number): Promise<void> {
    try {
      // On Fastly a read is an API call: the store says how often (its values change only by hand between reads).
      if (nowMs - this.lastReadMs >= (this.o.store.readEveryMs ?? 0)) {
        this.current = await this.o.store.read();
        this.lastReadMs = nowMs;
        this.o.failover?.afterRead(this.current, nowMs);
      }
      if (this.o.failover?.withholdSettings(nowMs) !== true) this.rooms.settings(this.current, nowMs);
      this.settingsError = null;
    } catch (error) {
      // Without the settings the targets may be stale: hold, as with a lagging log.
      this.settingsError = `cannot read the settings from ${this.o.store.name}: ${(error as Error).message}`;
    }
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
      this.settingsError ??
      (this.status.state === 'dead'
        ? `the log source is down (${this.sourceError ?? 'ended'})`
        : this.status.state === 'failing'
          ? `the log source fails: ${this.sourceError}`
          : this.status.state === 'lagging'
            ? `the log source lags: its lines arrive ${Math.round((this.status.lagMs ?? 0) / 1000)} s after the room wrote them`
            : (this.o.failover?.holdWhy(nowMs) ?? null));
    if (conditionKey(why) !== conditionKey(this.holdingWhy)) this.o.log(why === null ? 'the view is current again: controlling' : `holding, writing nothing: ${why}`);
    this.holdingWhy = why;
    const plans = this.rooms.plan(nowMs, why !== null);
    // The lease on each schedule and the heartbeat (failover.ts); the models are told of their own texts.
    const out = this.o.failover?.outgoing(plans, this.current, nowMs) ?? { plans, extra: {} };
    if (out.plans.size > 0 || Object.keys(out.extra).length > 0) await this.write(out.plans, out.extra, plans, nowMs);
    await this.o.failover?.save(nowMs, () => this.rooms.saved());
  }

  private async write(plans: ReadonlyMap<string, SettingWrites>, extra: Record<string, string>, own: ReadonlyMap<string, SettingWrites>, nowMs: number): Promise<void> {
    const sent = await this.o.writer.offer(plans, this.current, nowMs, extra);
    const w = this.o.writer.lastWrite;
    if (w?.atMs !== nowMs || !w.ok) return;
    this.o.failover?.wrote(w.stored ?? {}, nowMs);
    this.current = applyWrites(this.current, w.stored ?? {});
    if (sent.size === 0) return;
    // What went out is in the store now, whether or not the next read has come.
    const said: string[] = [];
    for (const [room, writes] of sent) {
      this.rooms.written(room, own.get(room) ?? writes, true, nowMs);
      said.push(`${sent.size > 1 || room !== 'default' ? `${room}: ` : ''}${Object.entries(writes).map(([k, v]) => `${k}=${v.length > 60 ? `${v.slice(0, 60)}...` : v}`).join(' ')}`);
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
      writes: { done: w.done, failed: w.failed, deferred: w.deferred, minIntervalSeconds: w.intervalMs / 1000, budgetPerHour: w.budgetPerHour },
      failover: this.o.failover?.view(nowMs) ?? null,
      holding: this.holdingWhy !== null,
      holdingWhy: this.holdingWhy,
    };
  }
}
