// Restart and failover, around the Controller (docs/control/failover.md#restarting-it-safely):
// - resume: a restarted controller skips the lines it counted before (the newest line time seen from
//   each POP, from the state file), so a log source that replays lines does not count them twice;
// - learning mode: without a state file it writes nothing for a learning period, as a Doorman master
//   does after it starts, keeping the edge on what is published while it watches the crowd;
// - the heartbeat (heartbeat.ts): written with every write and on its own every lease/3, checked at
//   every read; another live controller's beat makes this one stand by;
// - the lease (lease.ts): every schedule written ends, a lease ahead, on the room's fallback chance;
// - the state file (state-file.ts), offered after each tick that changed something (saved at most every
//   10 s, and at shutdown), never while another controller writes (it is that one's file too); it keeps
//   the API budget's trailing hour and back-off too, so restarts in a loop cannot overspend it.
import { hostname } from 'node:os';
import { parseConfig } from '../../src/core/settings/index.js';
import { mergedSettings, storeRooms } from '../../lib/room-store.js';
import type { ApiBudget } from '../store/index.js';
import { withStatusBases } from '../../lib/status-basis.js';
import { describeBeat, Heartbeat, HEARTBEAT_KEY, newHeartbeatId, type Beat } from './heartbeat.js';
import { withLease } from './lease.js';
import { withLaneLease } from '../model/index.js';
import {
  STATE_VERSION,
  type ControllerState,
  type RoomsJson,
  type StateSaver,
  type StateToSave,
} from './state-file.js';
import type { DecisionLine, FailoverView, SettingWrites } from '../types.js';

/**
 * A POP's lines come from several hosts, a little out of order: after a restart a line up to this long
 * (ms) before the POP's newest counted one is skipped only if it was counted (its key is in the state).
 */
export const REPLAY_MARGIN_MS = 5_000;

/** The key a line is known by in the replay check. */
const lineKey = (l: DecisionLine): string => `${l.pop}|${l.tsMs}|${l.reason}|${l.tid ?? ''}|${l.newTid ?? ''}`;

/** The lines counted as of a moment: each POP's newest line time, and the keys of those within the margin before it. */
export interface LineMark {
  pops: Record<string, number>;
  recent: string[];
}

/** The shortest learning period, ms: a minute, or two windows when they are longer. */
export const LEARNING_MS = 60_000;

export interface FailoverOptions {
  /** The store it steers, as the state file names it ("file PATH", "service ID"). */
  store: string;
  /** The lease, s (default 600): how far ahead every schedule reaches, and how long a silent controller is believed alive. */
  leaseSeconds: number;
  /** The models' lead, s: a published chance whose decision time has passed is firm. */
  leadSeconds: number;
  /** The state to resume from; null: none (learning mode, unless `learn` is false). */
  resume: ControllerState | null;
  /** Learn when there is nothing to resume from (default true; the simulator's controllers that start before the crowd do not). */
  learn?: boolean;
  /** Writes the state file; null: none kept. */
  saver: StateSaver | null;
  /** The API budget, whose trailing hour, back-off and token figures are saved with the state and restored from it. */
  budget?: ApiBudget;
  /** This process, for the heartbeat (default this host and pid). */
  host?: string;
  pid?: number;
  startedMs: number;
  log: (message: string) => void;
}

export class Failover {
  readonly heartbeat: Heartbeat;
  private readonly pops: Record<string, number>;
  private readonly skipUntil: Readonly<Record<string, number>>;
  /** Lines counted within the margin before their POP's newest, by key (a count: keys may repeat). */
  private recent: { key: string; pop: string; tsMs: number }[] = [];
  /** The saved state's such lines, by key, left to meet again. */
  private readonly counted = new Map<string, number>();
  private replayed = 0;
  /** null: not learning (resumed, or done); undefined: learning, its end not known before the first read. */
  private learningUntilMs: number | null | undefined;
  private standby: { other: Beat; ageSeconds: number } | null = null;
  /** The id of the controller whose run-out beat this one took over (said once). */
  private tookOver: string | null = null;
  private lastBeatMs = -Infinity;
  private lastWrite: ControllerState['lastWrite'];
  private dirty = true;
  /** The budget's change count when last saved: a call since makes a save due. */
  private budgetSaved = -1;
  /** Whether the models go on from the state file's. */
  private readonly models: boolean;

  constructor(private readonly o: FailoverOptions) {
    const r = o.resume;
    this.heartbeat = new Heartbeat({
      id: r?.heartbeatId ?? newHeartbeatId(),
      host: o.host ?? hostname(),
      pid: o.pid ?? process.pid,
      started: Math.floor(o.startedMs / 1000),
      lease: o.leaseSeconds,
    });
    // A state without the models' (a model that cannot save) resumes the heartbeat and the write
    // history only: the new models start empty, so they learn, and count the replayed lines themselves.
    // A state older than the lease is history: the edge has fallen back since, and the crowd moved on.
    const stale = r !== null && o.startedMs - r.savedAtMs > o.leaseSeconds * 1000;
    const models =
      r !== null && !stale && Object.values(r.rooms).some((saved) => saved !== null && saved !== undefined);
    this.models = models;
    this.pops = models ? { ...r.pops } : {};
    this.skipUntil = { ...this.pops };
    for (const key of models ? (r.recent ?? []) : []) {
      this.counted.set(key, (this.counted.get(key) ?? 0) + 1);
      // Still counted: a save soon after the restart names them too.
      const [pop, ts] = key.split('|');
      this.recent.push({ key, pop: pop!, tsMs: Number(ts) });
    }
    this.lastWrite = r?.lastWrite ?? null;
    // The budget's calls of the trailing hour go on counting whatever the age of the state: a restart
    // (in a crash loop too) spends its start's calls on top of them, not from zero.
    if (r?.budget !== undefined) o.budget?.restore(r.budget, o.startedMs);
    this.learningUntilMs = !models && o.learn !== false ? undefined : null;
    if (r !== null) {
      o.log(
        `resuming from the state saved ${new Date(r.savedAtMs).toISOString()} (heartbeat id ${r.heartbeatId}); ${
          models
            ? 'lines it had counted are skipped if the log source gives them again'
            : stale
              ? `it is older than the lease (${o.leaseSeconds} s), so the models learn again`
              : 'it holds no model state, so the models learn again'
        }`,
      );
    }
  }

  /** The rooms whose models the state file holds (none from a state older than the lease). */
  /** Whether it resumes from a state file (a log source that can give the lines written meanwhile should). */
  get resuming(): boolean {
    return this.o.resume !== null;
  }

  savedRooms(): string[] {
    if (!this.models) return [];
    return Object.entries(this.o.resume?.rooms ?? {})
      .filter(([, saved]) => saved !== null)
      .map(([id]) => id);
  }

  /** The saved state of room `id`'s model, if any. */
  restoreFor(id: string): unknown {
    return this.models ? (this.o.resume?.rooms[id] ?? undefined) : undefined;
  }

  /** False for a line at or before the newest one its POP had given when the state was saved: counted before the restart. */
  fresh(line: DecisionLine): boolean {
    const skip = this.skipUntil[line.pop];
    const key = skip !== undefined && line.tsMs <= skip ? lineKey(line) : null;
    // Before the margin: counted. Within it: counted only if the saved state names it (a late line from another host was not).
    const counted = key !== null && (line.tsMs <= skip! - REPLAY_MARGIN_MS || (this.counted.get(key) ?? 0) > 0);
    if (counted) {
      if (this.counted.has(key)) this.counted.set(key, this.counted.get(key)! - 1);
      if (this.replayed === 0)
        this.o.log(
          `the log source gives lines the controller counted before its restart (from POP ${line.pop}, up to ${new Date(skip!).toISOString()}): skipping them, counted once`,
        );
      this.replayed++;
      return false;
    }
    if (!(line.tsMs <= (this.pops[line.pop] ?? -Infinity))) this.pops[line.pop] = line.tsMs;
    if (line.tsMs > this.pops[line.pop]! - REPLAY_MARGIN_MS)
      this.recent.push({ key: lineKey(line), pop: line.pop, tsMs: line.tsMs });
    if (this.recent.length > 200_000) this.prune();
    this.dirty = true;
    return true;
  }

  /** After each read of the store: checks the heartbeat, and starts learning at the first. */
  afterRead(values: Readonly<Record<string, string>>, nowMs: number): void {
    const nowSec = nowMs / 1000;
    const verdict = this.heartbeat.check(values[HEARTBEAT_KEY], nowSec);
    if (verdict.kind === 'other') {
      // Said by the controller as why it holds, once.
      this.standby = verdict;
    } else {
      // Said once per controller taken over: while this one's writes fail, the store keeps the old beat.
      if (verdict.tookOver !== null && (verdict.tookOver.id !== this.tookOver || this.standby !== null))
        this.o.log(
          `taking over from the controller ${describeBeat(verdict.tookOver)}: its last heartbeat is ${Math.round(nowSec - verdict.tookOver.beat)} s old, past its lease`,
        );
      else if (verdict.tookOver === null && this.standby !== null)
        this.o.log(`the other controller (${describeBeat(this.standby.other)}) is gone from the store: taking over`);
      if (verdict.tookOver !== null) this.tookOver = verdict.tookOver.id;
      this.standby = null;
    }
    if (this.learningUntilMs === undefined) this.learningUntilMs = this.learningEnd(values, nowMs);
  }

  /**
   * Whether the models should not get the settings yet: while learning. A model takes the published
   * chances whose decision time has passed as fixed when it first reads the settings, so it reads them
   * when learning ends, and adopts what the edge has then, not what it had a minute before.
   */
  withholdSettings(nowMs: number): boolean {
    return (
      this.learningUntilMs === undefined || (typeof this.learningUntilMs === 'number' && nowMs < this.learningUntilMs)
    );
  }

  /** Why the controller must write nothing now (learning, another controller), from what the last read said; null: it may write. */
  holdWhy(nowMs: number): string | null {
    if (this.learningUntilMs === undefined) return 'learning: waiting for the first read of the store';
    if (this.standby !== null) {
      const o = this.standby.other;
      return `another controller writes to this store: ${describeBeat(o)}, its heartbeat ${Math.round(this.standby.ageSeconds)} s old. This one writes nothing, and takes over only if that heartbeat gets older than its lease (${o.lease} s). Stop one of them`;
    }
    if (typeof this.learningUntilMs === 'number') {
      if (nowMs < this.learningUntilMs)
        return `learning: no ${this.o.resume === null ? 'state' : 'model state'} to resume from, so the edge keeps what is published while the controller watches the crowd, ${Math.ceil((this.learningUntilMs - nowMs) / 1000)} s left`;
      this.learningUntilMs = null;
      this.o.log('learning done: controlling');
    }
    return null;
  }

  /**
   * Learning lasts a minute or two windows, whichever is longer, and at least until the published firm
   * chances run out. A store no controller has written (no heartbeat) and no state file: nothing a
   * controller published to hold, so no learning (null).
   */
  private learningEnd(values: Readonly<Record<string, string>>, nowMs: number): number | null {
    if (values[HEARTBEAT_KEY] === undefined && this.o.resume === null) {
      this.o.log(
        'no controller has written this store before (no heartbeat): nothing published to learn from, controlling from the start',
      );
      return null;
    }
    const nowSec = nowMs / 1000;
    let until = nowMs + LEARNING_MS;
    for (const room of storeRooms(values)) {
      const { config } = parseConfig((k) => mergedSettings(values, room).values[k] ?? null, room);
      until = Math.max(until, nowMs + 2 * config.waitPeriodSeconds * 1000);
      for (const e of config.allowSchedule)
        if (e.start - this.o.leadSeconds <= nowSec) until = Math.max(until, e.start * 1000);
    }
    this.o.log(
      `learning mode: no ${this.o.resume === null ? 'state file' : 'model state'} to resume from; the edge keeps what is published while the controller watches the crowd for ${Math.round((until - nowMs) / 1000)} s before changing anything`,
    );
    return until;
  }

  /**
   * The writes to send: each schedule with the lease on it (the models' own texts are kept for them),
   * and the heartbeat, with any write (unless it costs a call of its own) and on its own every lease/3.
   * Nothing while standing by.
   */
  outgoing(
    plans: ReadonlyMap<string, SettingWrites>,
    values: Readonly<Record<string, string>>,
    nowMs: number,
    /** The beat costs a call of its own even beside other writes (the CLI, a call a key): send it only every lease/3. */
    beatCosts = false,
  ): { plans: Map<string, SettingWrites>; extra: Record<string, string> } {
    if (this.standby !== null) return { plans: new Map(), extra: {} };
    const nowSec = nowMs / 1000;
    const leased = new Map<string, SettingWrites>();
    for (const [room, writes] of plans) {
      const text = writes.allow_schedule;
      if (text === undefined || text === '') {
        leased.set(room, writes);
        continue;
      }
      const { config } = parseConfig((k) => mergedSettings(values, room).values[k] ?? null, room);
      const d = config.waitPeriodSeconds;
      // The end a lease and a margin ahead: the model writes at least every minute (or window) while it controls.
      const lease = this.o.leaseSeconds + Math.max(60, d);
      const allow = withLease(text, nowSec, d, lease, config.control.fallbackPercentage);
      leased.set(room, {
        ...writes,
        allow_schedule: allow,
        // Each lane falls back with the room (control/model/lanes.ts).
        ...(writes.lane_schedule ? { lane_schedule: withLaneLease(writes.lane_schedule, allow) } : {}),
      });
    }
    const beatDue = (leased.size > 0 && !beatCosts) || nowMs - this.lastBeatMs >= (this.o.leaseSeconds * 1000) / 3;
    return {
      plans: withStatusBases(leased, values, nowSec),
      extra: beatDue ? { [HEARTBEAT_KEY]: this.heartbeat.value(nowSec) } : {},
    };
  }

  /** What a write call stored (the heartbeat's time comes from it). */
  wrote(stored: Readonly<Record<string, string>>, nowMs: number): void {
    if (Object.hasOwn(stored, HEARTBEAT_KEY)) this.lastBeatMs = nowMs;
    this.lastWrite = { atMs: nowMs, stored: { ...stored } };
    this.dirty = true;
  }

  /** Whether a save would go now (something changed, the saver's clock is due, not standing by). */
  saveDue(nowMs: number): boolean {
    return this.o.saver !== null && this.standby === null && this.changed && this.o.saver.due(nowMs);
  }

  /** Something to save: a line counted, a write, or a call of the budget's (or its back-off). */
  private get changed(): boolean {
    return this.dirty || (this.o.budget !== undefined && this.o.budget.changes !== this.budgetSaved);
  }

  /** The newest line time of each POP now: the planner thread's models are saved as of its plan, so their POP times are taken just before it. */
  popsNow(): LineMark {
    this.prune();
    return { pops: { ...this.pops }, recent: this.recent.map((r) => r.key) };
  }

  /** Keeps only the lines within the margin before their POP's newest. */
  private prune(): void {
    this.recent = this.recent.filter((r) => r.tsMs > this.pops[r.pop]! - REPLAY_MARGIN_MS);
  }

  /**
   * Offers the state to the state file after a tick that changed something (`force`: at shutdown,
   * whether due or not). `rooms` null: the models' state of this moment is not at hand (it comes with
   * the next plan), so nothing is saved and the change waits. `pops`: the POP times of the moment the
   * models' state is of (default now). Never while standing by: the file is the active one's too.
   */
  async save(
    nowMs: number,
    rooms: () => Record<string, unknown> | RoomsJson | null,
    pops?: LineMark,
    force = false,
  ): Promise<void> {
    if (this.o.saver === null || this.standby !== null || (!this.changed && !force)) return;
    await this.o.saver.offer(
      nowMs,
      () => {
        const r = rooms();
        if (r === null) return null;
        this.dirty = false;
        if (this.o.budget !== undefined) this.budgetSaved = this.o.budget.changes;
        return this.state(nowMs, r, pops);
      },
      force,
    );
  }

  state(nowMs: number, rooms: Record<string, unknown> | RoomsJson, mark: LineMark = this.popsNow()): StateToSave {
    const budget = this.o.budget?.saved(nowMs);
    return {
      version: STATE_VERSION,
      savedAtMs: nowMs,
      store: this.o.store,
      heartbeatId: this.heartbeat.me.id,
      lastWrite: this.lastWrite,
      pops: { ...mark.pops },
      recent: mark.recent,
      ...(budget === undefined ? {} : { budget }),
      rooms,
    };
  }

  view(nowMs: number): FailoverView {
    const learning = typeof this.learningUntilMs === 'number' && nowMs < this.learningUntilMs;
    return {
      mode: this.standby !== null ? 'standby' : learning || this.learningUntilMs === undefined ? 'learning' : 'active',
      learningSecondsLeft: learning ? Math.ceil((this.learningUntilMs! - nowMs) / 1000) : null,
      heartbeatId: this.heartbeat.me.id,
      leaseSeconds: this.o.leaseSeconds,
      other: this.standby === null ? null : describeBeat(this.standby.other),
      replayed: this.replayed,
      stateSaves: this.o.saver?.saves ?? 0,
    };
  }
}
