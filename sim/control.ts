// The operator's controller inside the simulator: the same Controller, model and Writer that
// `npm run control` runs, fed the room's own decision lines after a log delay, ticking on the virtual
// clock, and writing to the simulated central store, from which each POP sees a write after its own
// propagation delay. Only the I/O is simulated: the store, the log's transport, and time.
import type { ControlLoop } from '../control/controller.js';
import {
  Failover,
  controlLoop,
  DEFAULT_LEASE_SECONDS,
  decodeState,
  encodeState,
  StateSaver,
  type ControllerState,
} from '../control/failover/index.js';
import { createControlModel, type ModelSaved } from '../control/model/index.js';
import {
  Writer,
  type Store,
  ApiBudget,
  DEFAULT_API_BUDGET,
  DEFAULT_READ_EVERY_MS,
  type StoreCall,
  callKind,
} from '../control/store/index.js';
import { DEFAULT_ROOM, liveKey, LIVE_SETTINGS, percentageKey, storeFromSettings } from '../src/core/settings/index.js';
import type { VirtualClock } from './clock.js';
import type { Random } from '../lib/random.js';
import { EPOCH_MS, type PopSpec, type Room } from './room.js';
import { mergedSettings } from '../lib/room-store.js';

/** How the edge and the controller are laid out for a controlled scenario. */
export interface ControlSpec {
  /** Number of POPs; visitors split between them with Zipf-like shares, 1/rank^zipf. */
  pops: number;
  zipf: number;
  /** Each POP's delay in seeing a new setting is drawn once from this range, ms. */
  propagationMs: readonly [number, number];
  /** Each POP's delay in delivering its decision lines to the controller, ms, drawn once per POP. */
  logDelayMs: readonly [number, number];
  /** The controller's period, ms (the real process ticks once a second). */
  tickMs: number;
  /** The controller stops here (ms since the run began); the room keeps the last setting. */
  stopAtMs?: number;
  /**
   * kill -9 here (ms since the run began): the Controller is dropped without a word and a new one
   * starts at once from the state it last saved (once a second, control/failover/state-file.ts), its log
   * source giving again the last `replayMs` of lines (docs/control/failover.md#restarting-it-safely).
   * With it, the controllers run with the state file, heartbeat and lease (control/failover/failover.ts).
   */
  restartAtMs?: number;
  /** With restartAtMs: the log source replays this much of the lines before the restart, ms (default 30 s). */
  replayMs?: number;
  /** At least this long between writes, ms (`--min-write-interval`; the real process: 0 by default, the budget alone). */
  minWriteIntervalMs: number;
  /** API calls an hour at most, reads and writes of all rooms together (`--api-budget`; default the real process's, 300). */
  apiBudgetPerHour?: number;
  /** Read the store this often, ms (on Fastly `--read-every`, a minute: reads are API calls); default every tick, as the local file. */
  readEveryMs?: number;
  leadSeconds?: number;
}

/** Zipf-like shares of `n` POPs, largest first, summing to 1. */
export function zipfShares(n: number, s: number): number[] {
  const raw = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => x / sum);
}

/** The POPs of a controlled scenario: names like Fastly's, each with its own propagation delay. */
export function popLayout(spec: ControlSpec, rng: Random): { pops: PopSpec[]; logDelays: number[]; shares: number[] } {
  const names = ['LHR', 'FRA', 'IAD', 'SJC', 'NRT', 'SYD', 'GRU', 'BOM'];
  const pops = Array.from({ length: spec.pops }, (_, i) => ({
    name: names[i] ?? `POP${i}`,
    propagationMs: Math.round(rng.uniform(spec.propagationMs[0], spec.propagationMs[1])),
  }));
  const logDelays = pops.map(() => Math.round(rng.uniform(spec.logDelayMs[0], spec.logDelayMs[1])));
  return { pops, logDelays, shares: zipfShares(spec.pops, spec.zipf) };
}

export interface ControlTrace {
  /** Every write that reached the central store: when, and what. */
  writes: { atMs: number; values: Record<string, string> }[];
  /** Once a tick: the controller's view (waiting visitors) and the mode it is in. */
  views: {
    atMs: number;
    waiting: number;
    active: number;
    mode: string;
    holding: boolean;
    /** New visitors a minute the controller aims at: the autopilot's rate in `target_mode=auto`, else new_users_per_minute. */
    rate: number | null;
  }[];
  /** What the controller logged (holding, resuming, refused writes). */
  messages: { atMs: number; text: string }[];
  /** Every API call the controller made, as Fastly's API would count it (shared by every room's trace). */
  apiCalls: { atMs: number; kind: 'read' | 'write' | 'heartbeat'; calls: number }[];
  linesDelivered: number;
  badLines: number;
  stoppedAtMs: number | null;
}

/** The simulated central store as the controller sees it: its values in the store's layout (layout.ts), and a write of store keys. */
export interface SimStore {
  read(): Record<string, string>;
  /** Sets each store key ('' removes it) in the central store, from which each POP sees it after its delay. */
  write(stored: Record<string, string>, nowMs: number): void;
}

/** Room `room`'s store writes as its flat settings ('' removes); `before` is the room's merged settings before the write. */
function flatWrites(
  stored: Readonly<Record<string, string>>,
  room: string,
  before: Readonly<Record<string, string>>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(stored)) {
    if (key === percentageKey(room)) values.allow_percentage = value;
    else if (key === liveKey(room)) {
      const live = value === '' ? {} : (JSON.parse(value) as Record<string, string>);
      for (const name of LIVE_SETTINGS) {
        if (live[name] !== undefined) values[name] = live[name]!;
        else if (Object.hasOwn(before, name)) values[name] = '';
      }
    }
  }
  return values;
}

const mergedOf = (values: Readonly<Record<string, string>>, room: string): Record<string, string> =>
  mergedSettings(values, room).values;

/** A room alone, which keeps its settings flat, as the store of its one room, `default`. */
export function roomStore(room: Room): SimStore {
  return {
    read: () => storeFromSettings(room.central(), DEFAULT_ROOM),
    write: (stored, nowMs) => room.publish(flatWrites(stored, DEFAULT_ROOM, room.central()), nowMs),
  };
}

/** The simulated store, as the state file names it. */
const SIM_STORE = 'the simulated config store';

const emptyTrace = (): ControlTrace => ({
  writes: [],
  views: [],
  messages: [],
  apiCalls: [],
  linesDelivered: 0,
  badLines: 0,
  stoppedAtMs: null,
});

/**
 * The operator's controller over the simulated store: one Controller (one model per room, every line
 * of the one stream, all rooms' writes in one call), traced room by room for the report.
 */
export class SimController {
  /** What the controller did for each room of `rooms`: the write calls that changed it (as its flat settings), its view, its lines; the messages are the whole controller's. */
  readonly traces: ReadonlyMap<string, ControlTrace>;
  /** Lines no room decided (the controller counts them, no model gets them), as of the last tick. */
  unrouted = 0;
  /** The lines each room's model got, as of the last tick (a room a line named but the store does not is here too). */
  roomLines: ReadonlyMap<string, number> = new Map();
  private controller: ControlLoop;
  private readonly messages: ControlTrace['messages'] = [];
  private readonly apiCalls: ControlTrace['apiCalls'] = [];

  constructor(
    store: SimStore,
    private readonly clock: VirtualClock,
    private readonly spec: ControlSpec,
    private readonly logDelays: readonly number[],
    rooms: readonly string[] = [DEFAULT_ROOM],
  ) {
    this.traces = new Map(
      rooms.map((id) => [id, { ...emptyTrace(), messages: this.messages, apiCalls: this.apiCalls }] as const),
    );
    const log = (text: string): void => void this.messages.push({ atMs: clock.nowMs, text });
    const budget = new ApiBudget({
      perHour: spec.apiBudgetPerHour ?? DEFAULT_API_BUDGET,
      readEveryMs: spec.readEveryMs ?? DEFAULT_READ_EVERY_MS,
      log,
    });
    // Each read is one call, each write one bulk call, as Fastly's API counts them.
    // A room alone stands for the local store file (no readEveryMs): its reads and writes are no API calls.
    const api = spec.readEveryMs !== undefined;
    // The simulated controller runs no `fastly log-tail`: its calls are reads, writes and heartbeats.
    const called = (kind: Exclude<StoreCall['kind'], 'log-tail'>, keys: string[]): void => {
      if (!api) return;
      this.apiCalls.push({ atMs: clock.nowMs, kind, calls: 1 });
      budget.record(
        {
          kind,
          calls: 1,
          ok: true,
          status: 200,
          keys,
          remaining: null,
          resetMs: null,
          retryAfterMs: null,
          error: null,
        },
        EPOCH_MS + clock.nowMs,
      );
    };
    const controlStore: Store = {
      name: 'the simulated config store',
      ...(spec.readEveryMs === undefined ? {} : { readEveryMs: spec.readEveryMs }),
      read: async () => {
        called('read', []);
        return store.read();
      },
      write: async (stored) => {
        called(callKind(Object.keys(stored)), Object.keys(stored));
        const before = store.read();
        for (const [id, trace] of this.traces) {
          const values = flatWrites(stored, id, mergedOf(before, id));
          if (Object.keys(values).length > 0) trace.writes.push({ atMs: clock.nowMs, values });
        }
        store.write(stored, clock.nowMs);
      },
    };
    this.make = (resume, pid) =>
      controlLoop({
        createModel: (_room, restore) =>
          createControlModel({
            leadSeconds: spec.leadSeconds ?? 25,
            ...(restore == null ? {} : { restore: restore as ModelSaved }),
          }),
        store: controlStore,
        writer: new Writer(controlStore, spec.minWriteIntervalMs, log, budget),
        sourceName: 'simulated log stream',
        lagLimitMs: 60_000,
        log,
        ...(spec.restartAtMs === undefined ? {} : { failover: this.failover(resume, pid, log) }),
      });
    this.controller = this.make(null, 1);
  }

  private readonly make: (resume: ControllerState | null, pid: number) => ControlLoop;
  /** The state file's text as last saved (restartAtMs). */
  private savedText: string | null = null;
  /** Lines delivered lately, for the replay after a restart (restartAtMs). */
  private delivered: { atMs: number; text: string }[] = [];
  private restarted = false;

  /** The failover of a controller started (pid 1) or restarted (pid 2) in the run; the first starts before the crowd and does not learn. */
  private failover(resume: ControllerState | null, pid: number, log: (text: string) => void): Failover {
    const saver = new StateSaver(async (state) => void (this.savedText = encodeState(state)), log);
    return new Failover({
      store: SIM_STORE,
      leaseSeconds: DEFAULT_LEASE_SECONDS,
      leadSeconds: this.spec.leadSeconds ?? 25,
      resume,
      learn: pid !== 1,
      saver,
      host: 'sim',
      pid,
      startedMs: EPOCH_MS + this.clock.nowMs,
      log,
    });
  }

  /** kill -9 and a restart from the saved state, the log source replaying its last lines. */
  private restart(t: number): void {
    this.restarted = true;
    const state = this.savedText === null ? null : decodeState(this.savedText, 'the simulated state file', SIM_STORE);
    this.messages.push({
      atMs: t,
      text: `kill -9; restarted from the state saved ${state === null ? 'never' : `${Math.round((EPOCH_MS + t - state.savedAtMs) / 1000)} s before`}`,
    });
    this.controller = this.make(state, 2);
    const since = t - (this.spec.replayMs ?? 30_000);
    for (const l of this.delivered) if (l.atMs >= since) this.controller.line(l.text, EPOCH_MS + t);
  }

  /** The one room's trace, for a room alone. */
  get trace(): ControlTrace {
    return this.traces.values().next().value!;
  }

  /** A decision line a POP just logged: it reaches the controller after that POP's log delay. */
  line(pop: number, text: string, nowMs: number): void {
    this.clock.at(nowMs + this.logDelays[pop]!, (t) => {
      // A room alone counts every line delivered (after the controller stopped too); a room of several, its model's lines at each tick.
      if (this.traces.size === 1) this.trace.linesDelivered++;
      this.controller.line(text, EPOCH_MS + t);
      if (this.spec.restartAtMs !== undefined && !this.restarted) {
        this.delivered.push({ atMs: t, text });
        const keep = t - (this.spec.replayMs ?? 30_000);
        if (this.delivered[0]!.atMs < keep - 10_000) this.delivered = this.delivered.filter((l) => l.atMs >= keep);
      }
    });
  }

  /** Ticks from `fromMs` every period until the stop (or the end of the run). */
  start(fromMs: number, untilMs: number): void {
    const stop = Math.min(untilMs, this.spec.stopAtMs ?? Infinity);
    const tick = async (t: number): Promise<void> => {
      if (t >= stop) {
        for (const trace of this.traces.values())
          trace.stoppedAtMs = this.spec.stopAtMs !== undefined && t < untilMs ? t : null;
        return;
      }
      if (this.spec.restartAtMs !== undefined && !this.restarted && t >= this.spec.restartAtMs) this.restart(t);
      this.controller.source(null, false);
      await this.controller.tick(EPOCH_MS + t);
      const snap = this.controller.snapshot(EPOCH_MS + t);
      this.unrouted = Object.values(snap.unrouted).reduce((a, b) => a + b, 0);
      this.roomLines = new Map(snap.rooms.map((r) => [r.id, r.lines]));
      for (const [id, trace] of this.traces) {
        const view = snap.rooms.find((r) => r.id === id);
        if (view !== undefined)
          trace.views.push({
            atMs: t,
            waiting: view.model.waiting,
            active: view.model.activeSessions,
            mode: view.model.mode,
            holding: snap.holding,
            rate: view.model.pace?.ratePerMinute ?? view.model.targets.newUsersPerMinute,
          });
        trace.badLines = snap.source.bad;
        if (this.traces.size > 1) trace.linesDelivered = view?.lines ?? 0;
      }
      this.clock.at(t + this.spec.tickMs, tick);
    };
    this.clock.at(fromMs, tick);
  }
}
