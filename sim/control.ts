// The operator's controller inside the simulator: the same Controller, model and Writer that
// `npm run control` runs, fed the room's own decision lines after a log delay, ticking on the virtual
// clock, and writing to the simulated central store, from which each POP sees a write after its own
// propagation delay. Only the I/O is simulated: the store, the log's transport, and time.
import { Controller } from '../control/controller.js';
import { createControlModel } from '../control/model/index.js';
import { Writer, type Store } from '../control/writer.js';
import { DEFAULT_ROOM, liveKey, LIVE_SETTINGS, percentageKey, storeFromSettings } from '../src/core/layout.js';
import type { VirtualClock } from './clock.js';
import type { Random } from '../lib/random.js';
import { EPOCH_MS, type PopSpec, type Room } from './room.js';

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
  /** At least this long between writes, ms (the real process: 20 s by default). */
  minWriteIntervalMs: number;
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
  views: { atMs: number; waiting: number; active: number; mode: string; holding: boolean }[];
  /** What the controller logged (holding, resuming, refused writes). */
  messages: { atMs: number; text: string }[];
  linesDelivered: number;
  badLines: number;
  stoppedAtMs: number | null;
}

/** The default room's store writes as the flat settings the simulated room keeps ('' removes). */
function flatWrites(stored: Readonly<Record<string, string>>, central: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(stored)) {
    if (key === percentageKey(DEFAULT_ROOM)) values.allow_percentage = value;
    else if (key === liveKey(DEFAULT_ROOM)) {
      const live = value === '' ? {} : (JSON.parse(value) as Record<string, string>);
      for (const name of LIVE_SETTINGS) {
        if (live[name] !== undefined) values[name] = live[name]!;
        else if (Object.hasOwn(central, name)) values[name] = '';
      }
    }
  }
  return values;
}

export class SimController {
  readonly trace: ControlTrace = { writes: [], views: [], messages: [], linesDelivered: 0, badLines: 0, stoppedAtMs: null };
  private readonly controller: Controller;

  constructor(
    private readonly room: Room,
    private readonly clock: VirtualClock,
    private readonly spec: ControlSpec,
    private readonly logDelays: readonly number[],
  ) {
    const log = (text: string): void => void this.trace.messages.push({ atMs: clock.nowMs, text });
    // The simulated room keeps one room's settings flat; the controller reads and writes the store's
    // layout (src/core/layout.ts): its one room, `default`.
    const store: Store = {
      name: 'the simulated config store',
      read: async () => storeFromSettings(room.central(), DEFAULT_ROOM),
      write: async (stored) => {
        const values = flatWrites(stored, room.central());
        room.publish(values, clock.nowMs);
        this.trace.writes.push({ atMs: clock.nowMs, values: { ...values } });
      },
    };
    this.controller = new Controller({
      createModel: () => createControlModel({ leadSeconds: spec.leadSeconds ?? 25 }),
      store,
      writer: new Writer(store, spec.minWriteIntervalMs, log),
      sourceName: 'simulated log stream',
      lagLimitMs: 60_000,
      log,
    });
  }

  /** A decision line a POP just logged: it reaches the controller after that POP's log delay. */
  line(pop: number, text: string, nowMs: number): void {
    this.clock.at(nowMs + this.logDelays[pop]!, (t) => {
      this.trace.linesDelivered++;
      this.controller.line(text, EPOCH_MS + t);
    });
  }

  /** Ticks from `fromMs` every period until the stop (or the end of the run). */
  start(fromMs: number, untilMs: number): void {
    const stop = Math.min(untilMs, this.spec.stopAtMs ?? Infinity);
    const tick = async (t: number): Promise<void> => {
      if (t >= stop) {
        this.trace.stoppedAtMs = this.spec.stopAtMs !== undefined && t < untilMs ? t : null;
        return;
      }
      this.controller.source(null, false);
      await this.controller.tick(EPOCH_MS + t);
      const snap = this.controller.snapshot(EPOCH_MS + t);
      const model = snap.rooms[0]!.model;
      this.trace.views.push({ atMs: t, waiting: model.waiting, active: model.activeSessions, mode: model.mode, holding: snap.holding });
      this.trace.badLines = snap.source.bad;
      this.clock.at(t + this.spec.tickMs, tick);
    };
    this.clock.at(fromMs, tick);
  }
}
