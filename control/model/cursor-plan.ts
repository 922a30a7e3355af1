// When and what the controller publishes for the queue's cursor (docs/events.md): the shuffled
// pre-queue of a scheduled event draining from its start, and the whole of a first-come queue.
// The random draw's law (index.ts) runs when neither applies.
import { cursorAt, eventPhase } from '../../src/core/decision/index.js';
import type { Config } from '../../src/core/types.js';
import type { DecisionLine, SettingWrites } from '../types.js';
import { cursorDue } from './pacing.js';
import { countsText, cursorSpeed, type CursorInput } from './queue.js';
import { QueueTracker, type TrackerSaved } from './queue-tracker.js';

/** What the cursor is for right now. */
export type CursorRole = 'none' | 'drain' | 'fifo';

export interface CursorView {
  role: CursorRole;
  /** The cursor now and its speed (positions a second), as last published; null before any. */
  cursor: number | null;
  speed: number | null;
  /** Pre-queue visitors (before the start), or those still to check in after it. */
  prequeue: number;
  /** Live places ahead of the cursor. */
  ahead: number;
  /** Share of passed places whose holders came in. */
  survival: number;
}

/** The share of a minute's shortfall the standing correction takes on: 0.1 (0.2 and more swung past the target in the simulator). */
const GAIN = 0.1;
/** Under a sampled log, how far back the stretch the cursor passed begins (behind()). */
const STRETCH_MS = 240_000;
const speedText = (s: number): string => String(Math.round(Math.max(0, s) * 1e9) / 1e9);
const posText = (p: number): string => String(Math.round(p * 1e6) / 1e6);

export class CursorPlanner {
  readonly tracker = new QueueTracker();
  private config: Config | null = null;
  private lastWriteMs = -Infinity;
  private lastSpeed: number | null = null;
  /** When the cursor began to lead (ms), for the shortfall correction; reset when it has no role. */
  private controlSinceMs: number | null = null;
  private correction = 0;
  private correctedAtMs = Number.NEGATIVE_INFINITY;
  /**
   * Where the cursor stood at each plan (ms, position), the last ten minutes: the stretches it passed.
   * Not saved: after a restart the speed reads the places ahead alone for a few minutes.
   */
  private trail: { ms: number; at: number }[] = [];
  private view: CursorView = { role: 'none', cursor: null, speed: null, prequeue: 0, ahead: 0, survival: 1 };

  constructor(private readonly leadSeconds: number) {}

  settings(config: Config): void {
    // A cursor taken down, or published anew rather than continued (the room opened, or someone set it
    // by hand): the stretches the old one passed say nothing of the new one's.
    const before = this.config?.queueCursor ?? null;
    const after = config.queueCursor;
    if (before !== null && (after === null || Math.abs(cursorAt(before, after.at) - after.pos) > 0.001))
      this.trail = [];
    this.config = config;
  }

  observe(line: DecisionLine): void {
    this.tracker.observe(line, this.config?.event?.start ?? null);
  }

  /**
   * 'drain' from just before a scheduled start (the pre-queue's first cursor must reach every POP
   * before it) until the cursor passed the start two windows ago, as the edge counts it; 'fifo'
   * whenever the room is first-come; else 'none'.
   */
  role(nowSec: number, d: number): CursorRole {
    const c = this.config;
    if (c === null) return 'none';
    const event = c.event;
    if (event !== null && event.prequeueStart !== null && nowSec >= event.start - this.leadSeconds) {
      const phase = eventPhase(c, nowSec);
      const running =
        phase === 'running' || phase === 'prequeue' || (phase === 'ended' && event.endAction === 'normal');
      const drained = c.queueCursor !== null && cursorAt(c.queueCursor, nowSec - 2 * d) >= event.start;
      if (running && !drained) return 'drain';
    }
    return c.queueingMethod === 'fifo' ? 'fifo' : 'none';
  }

  /** Where the cursor stands now: the published one, else the pre-queue's start, else the first place waiting. */
  private cursorNow(nowSec: number, nowMs: number, d: number, role: CursorRole): number {
    const c = this.config!;
    if (c.queueCursor !== null) {
      const at = cursorAt(c.queueCursor, nowSec);
      return role === 'drain' ? Math.max(at, c.event!.start - 1) : at;
    }
    if (role === 'drain') return c.event!.start - 1;
    const { pos, w } = this.tracker.live(Number.NEGATIVE_INFINITY, nowMs, d);
    const first = pos[0];
    if (first === undefined) return nowSec;
    // A sampled first place stands for the unsampled ones before it too (as many as the gap to the next).
    return w[0] !== 1 && pos.length > 1 ? 2 * first - pos[1]! : first;
  }

  /**
   * The cursor's writes, or null. `wanted`: admissions a minute (the target, within the active cap);
   * `seenUntilSec`: how far every POP's log has been read; `arrivalsPerSecond`: new visitors a second
   * lately (the ledger's count, which sees them while the room is still open). With `force`, write
   * whatever the timing.
   */
  plan(
    nowMs: number,
    d: number,
    wanted: number,
    seenUntilSec: number,
    arrivalsPerSecond: number,
    force = false,
  ): SettingWrites | null {
    const c = this.config;
    const nowSec = Math.floor(nowMs / 1000);
    const role = this.role(nowSec, d);
    if (c === null || role === 'none') {
      this.view = { ...this.view, role };
      this.controlSinceMs = null;
      this.correction = 0;
      this.trail = [];
      return null;
    }
    const cursor = this.cursorNow(nowSec, nowMs, d, role);
    const start = c.event?.start ?? null;
    // Past the start, a draining pre-queue's cursor is left as published: the edge reads from its line
    // when the start was passed, and holds latecomers for two windows after that, the longest a
    // passed visitor takes to come back. Once every passed visitor has come in (or left), a line that
    // passed the start two windows ago ends that wait at once.
    if (role === 'drain' && start !== null && cursor >= start && c.queueingMethod !== 'fifo') {
      this.tracker.ahead(cursor, nowMs, d);
      this.view = { ...this.view, role, cursor, ahead: 0 };
      if (this.tracker.passedWaiting() > 0 || this.tracker.unplaced(start, nowMs, d) > 0) return null;
      return { queue_cursor: `${nowSec - 2 * d - 1}:${start}:0`, queue_counts: '' };
    }
    const ahead = this.tracker.live(cursor, nowMs, d);
    const unplaced = role === 'drain' && start !== null ? this.tracker.unplaced(start, nowMs, d) : 0;
    const prequeue = role === 'drain' && start !== null && nowSec < start ? this.tracker.prequeueSize(nowMs) : unplaced;
    const unknown = role === 'drain' && start !== null ? { count: prequeue, from: start - 1, to: start } : null;
    const fifo = c.queueingMethod === 'fifo';
    // Passed places whose holders left are not admissions: pass enough to admit the target.
    this.controlSinceMs ??= nowMs;
    const survival = this.tracker.survival();
    // What the share misses (those who left but are not yet known to have), corrected slowly: a tenth
    // of each minute's shortfall against the target, from three minutes of leading on.
    if (nowMs - this.controlSinceMs >= 180_000 && nowMs - this.correctedAtMs >= 60_000 && ahead.total >= wanted) {
      this.correctedAtMs = nowMs;
      this.correction = Math.max(
        -0.2 * wanted,
        Math.min(0.2 * wanted, this.correction + GAIN * (wanted - this.tracker.admittedSince(nowMs - 60_000))),
      );
    }
    const aim = wanted / survival + this.correction;
    this.trail = this.trail.filter((p) => p.ms >= nowMs - 600_000);
    this.trail.push({ ms: nowMs, at: cursor });
    const input = {
      nowSec,
      cursor,
      wanted: c.queueAll ? 0 : aim,
      ahead: ahead.pos,
      weights: ahead.w,
      unknown,
      arrivals: fifo ? { perSecond: arrivalsPerSecond, knownTo: seenUntilSec } : null,
      // First-come: up to a minute past the present (nobody waits: it keeps up with arrivals). A
      // pre-queue draining into the draw: just past the start, which ends the drain.
      limit: fifo ? nowSec + 60 : (start ?? nowSec) + 0.001,
      // The stretch passed only while the cursor leads a first-come line (not while a pre-queue drains).
      behind: role === 'fifo' ? this.behind(nowMs, d, survival, start) : null,
    };
    // Before the start the cursor waits at the pre-queue's first place, and moves from the start on.
    const speed = cursorSpeed(input);
    const at = role === 'drain' && start !== null && nowSec < start ? start : nowSec;
    this.view = { role, cursor, speed, prequeue: Math.round(prequeue), ahead: Math.round(ahead.total), survival };
    const changed =
      this.lastSpeed === null || Math.abs(speed - this.lastSpeed) > 0.15 * Math.max(speed, this.lastSpeed, 1e-9);
    if (!cursorDue({ force, published: c.queueCursor !== null, sinceWriteMs: nowMs - this.lastWriteMs, changed }))
      return null;
    return {
      queue_cursor: `${at}:${posText(role === 'drain' && nowSec < (start ?? 0) ? start! - 1 : cursor)}:${speedText(speed)}`,
      queue_counts: countsText(input, survival),
    };
  }

  /**
   * Under a sampled log, the stretch the cursor passed from four minutes to two windows (and ten
   * seconds) ago, where everyone has come in or left, and how many came in: exact, as admissions are
   * always logged. Null unsampled, or before the cursor has such a stretch behind it. It begins at the
   * event's start at the earliest: the pre-queue's second holds thousands of places, nothing like the
   * first-come line after it.
   */
  private behind(nowMs: number, d: number, survival: number, start: number | null): CursorInput['behind'] {
    if (this.tracker.sampleWeight === 1) return null;
    const at = (ms: number): number | null => {
      let found: number | null = null;
      for (const p of this.trail) if (p.ms <= ms) found = p.at;
      return found;
    };
    const trailFrom = at(nowMs - STRETCH_MS);
    const to = at(nowMs - (2 * d + 10) * 1000);
    if (trailFrom === null || to === null) return null;
    const from = start !== null && trailFrom < start ? start : trailFrom;
    if (!(to > from)) return null;
    const cameIn = this.tracker.cameInBetween(from, to, nowMs);
    return { cameIn, mass: cameIn / survival, span: to - from };
  }

  /**
   * When the edge stops holding latecomers behind the pre-queue (epoch s): two windows after the
   * published cursor passes the start. Null while it has not passed the start, or with no event.
   */
  drainEndSec(nowSec: number, d: number): number | null {
    const c = this.config;
    const start = c?.event?.start ?? null;
    const line = c?.queueCursor ?? null;
    if (start === null || line === null || cursorAt(line, nowSec) < start) return null;
    const crossed = line.pos >= start ? Math.min(line.at, nowSec) : line.at + (start - line.pos) / line.speed;
    return Math.ceil(crossed + 2 * d);
  }

  /**
   * The model's step while the cursor leads: what to write, with the mode and the reason to show, or
   * undefined to leave it to the draw's law (a first-come room still open: the law's open-room watch
   * decides when to engage, and the cursor goes with it).
   */
  step(
    nowMs: number,
    d: number,
    role: 'drain' | 'fifo',
    edgePct: number,
    wanted: number,
    seenUntilSec: number,
    arrivalsPerSecond: number,
  ): { writes: SettingWrites | null; mode: 'open' | 'queueing'; why: string } | undefined {
    if (role === 'fifo' && edgePct >= 100) return undefined;
    if (role === 'fifo' && this.idle(nowMs, d, wanted, arrivalsPerSecond)) {
      const why = 'nobody waits for a place and arrivals are under the target: opening the room';
      return { writes: { allow_percentage: '100', queue_cursor: '', queue_counts: '' }, mode: 'open', why };
    }
    const writes = this.plan(nowMs, d, wanted, seenUntilSec, arrivalsPerSecond);
    const v = this.view;
    const why =
      role === 'drain'
        ? `pre-queue: ${v.prequeue} still to check in, ${v.ahead} placed ahead of the cursor, ${Math.round((v.speed ?? 0) * 60 * 1e6) / 1e6} positions a minute`
        : `first come, first served: ${v.ahead} waiting ahead of the cursor`;
    // An event on an open room: from the start, whoever comes later queues for the draw after the
    // pre-queue, instead of walking in at 100 the moment the pre-queue has drained.
    const start = this.config?.event?.start ?? null;
    if (role === 'drain' && edgePct >= 100 && start !== null && nowMs >= start * 1000) {
      return { writes: { ...(writes ?? {}), allow_percentage: '1' }, mode: 'queueing', why };
    }
    return { writes, mode: 'queueing', why };
  }

  /** Nobody waits for a first-come place and arrivals are under the target: the room can open. */
  idle(nowMs: number, d: number, wanted: number, arrivalsPerSecond: number): boolean {
    const c = this.config;
    // Two minutes of leading first: right after engaging, first-come places have barely been handed out.
    if (c === null || c.queueCursor === null || this.controlSinceMs === null || nowMs - this.controlSinceMs < 120_000)
      return false;
    const nowSec = Math.floor(nowMs / 1000);
    const cursor = cursorAt(c.queueCursor, nowSec);
    if (this.tracker.ahead(cursor, nowMs, d).length > 0 || !(arrivalsPerSecond * 60 < 0.9 * wanted)) return false;
    // Under a sampled log about 1/r might still wait unseen, each showing up at a renewal with chance
    // r: no tracked waiting line ahead for 1/r windows (at most ten minutes) too, by when ~1/r
    // waiting visitors, each checking at least every other window, would have shown up (0.9^50 for r = 0.1).
    const w = this.tracker.sampleWeight;
    return w === 1 || !this.tracker.waitingSince(nowMs - Math.min(600, w * d) * 1000, cursor);
  }

  written(values: SettingWrites, nowMs: number): void {
    if (values.queue_cursor === undefined) return;
    this.lastWriteMs = nowMs;
    const speed = Number(values.queue_cursor.split(':')[2]);
    this.lastSpeed = Number.isFinite(speed) ? speed : null;
  }

  snapshot(): CursorView {
    return this.view;
  }

  /** The planner's state, JSON-safe (the model's save()); the settings come again from the store. */
  save(): CursorSaved {
    const never = (x: number): number | null => (Number.isFinite(x) ? x : null);
    return {
      tracker: this.tracker.save(),
      lastWriteMs: never(this.lastWriteMs),
      lastSpeed: this.lastSpeed,
      controlSinceMs: this.controlSinceMs,
      correction: this.correction,
      correctedAtMs: never(this.correctedAtMs),
      view: { ...this.view },
    };
  }

  restore(saved: CursorSaved): void {
    this.tracker.restore(saved.tracker);
    this.lastWriteMs = saved.lastWriteMs ?? Number.NEGATIVE_INFINITY;
    this.lastSpeed = saved.lastSpeed;
    this.controlSinceMs = saved.controlSinceMs;
    this.correction = saved.correction;
    this.correctedAtMs = saved.correctedAtMs ?? Number.NEGATIVE_INFINITY;
    this.view = { ...saved.view };
  }
}

/** CursorPlanner's state as JSON-safe data (null for a time never reached). */
export interface CursorSaved {
  tracker: TrackerSaved;
  lastWriteMs: number | null;
  lastSpeed: number | null;
  controlSinceMs: number | null;
  correction: number;
  correctedAtMs: number | null;
  view: CursorView;
}
