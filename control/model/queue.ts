// The queue's cursor (docs/events.md): who holds a place, where, and how fast the cursor must move
// to pass the target's share of them a minute. Pure: lines in, the cursor and the counts out.
//
// Places are known from the decision lines' `pos`. A shuffled pre-queue's places are known only once
// each visitor checks after the start; until then its size is known (its tokens, one per identity)
// and its places are uniform over the second before the start, which is what a keyed hash gives.
import { PREQUEUE_CHECK_SECONDS } from '../../src/core/queue.js';
import type { DecisionLine } from '../types.js';

export interface Place {
  pos: number;
  seenMs: number;
  /** Lines seen for it: after the first check a waiting visitor comes back within two windows. */
  seen: number;
}

/** A line's place key: a position names one visitor's place (six decimals, as the edge logs it). */
const keyOf = (pos: number): string => pos.toFixed(6);

/** How many of the latest fates of passed places the survival share reads: recent enough to follow a crowd growing impatient. */
const FATES = 100;

export interface CursorInput {
  nowSec: number;
  /** The cursor now (where the edge has it). */
  cursor: number;
  /** Admissions wanted over the next minute. */
  wanted: number;
  /** Live places ahead of the cursor, ascending. */
  ahead: readonly number[];
  /** Pre-queue visitors whose places are not known yet, uniform over [from, to). */
  unknown: { count: number; from: number; to: number } | null;
  /**
   * First-come only: new arrivals a second, and the position up to which arrivals are known (the log
   * read so far); places past it are forecast at that rate. Null: nobody new joins this line.
   */
  arrivals: { perSecond: number; knownTo: number } | null;
  /** The furthest the cursor may aim in a minute (the start, for a pre-queue draining into a draw). */
  limit: number;
}

/** Places in [cursor, p): the known ones, the pre-queue's share of [cursor, p), and forecast arrivals. */
function massBelow(input: CursorInput, p: number): number {
  let mass = lowerBound(input.ahead, p);
  const u = input.unknown;
  if (u !== null && u.count > 0 && u.to > u.from) {
    const overlap = Math.max(0, Math.min(p, u.to) - Math.max(input.cursor, u.from));
    mass += (u.count * overlap) / (u.to - u.from);
  }
  const a = input.arrivals;
  if (a !== null && a.perSecond > 0) mass += a.perSecond * Math.max(0, p - Math.max(a.knownTo, input.cursor));
  return mass;
}

/** How many of `sorted` (ascending) are below `x`. */
export function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The speed (positions a second) that passes `wanted` places in the next minute. When fewer wait,
 * the cursor aims at `limit` (the present, for first-come: it keeps up with arrivals, and the room
 * can open again).
 */
export function cursorSpeed(input: CursorInput): number {
  if (!(input.wanted > 0)) return 0;
  const top = Math.max(input.cursor, input.limit);
  const all = massBelow(input, top);
  if (all <= input.wanted) {
    // Fewer wait than a minute's share: pass them at the target's pace, not over a whole minute each
    // time (re-planned every write, that would approach the end and never reach it).
    if (input.arrivals !== null) return (top - input.cursor) / 60;
    return (top - input.cursor) / Math.max(5, (60 * all) / input.wanted);
  }
  let lo = input.cursor;
  let hi = top;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (massBelow(input, mid) < input.wanted) lo = mid;
    else hi = mid;
  }
  return (hi - input.cursor) / 60;
}

/**
 * `queue_counts`: how many of those waiting are ahead of each position, from the cursor on, at most
 * `entries` entries, each count scaled by the share of passed places whose holders came in.
 */
export function countsText(input: Pick<CursorInput, 'cursor' | 'ahead' | 'unknown' | 'arrivals'>, survival: number, entries = 100): string {
  const weighted: { pos: number; w: number }[] = input.ahead.map((pos) => ({ pos, w: 1 }));
  const u = input.unknown;
  if (u !== null && u.count > 0 && u.to > u.from) {
    // The pre-queue's unknown places, spread as they are: uniform over what is left of their second.
    const from = Math.max(u.from, input.cursor);
    const share = (u.count * Math.max(0, u.to - from)) / (u.to - u.from);
    const n = Math.min(entries, Math.ceil(share));
    for (let i = 1; i <= n; i++) weighted.push({ pos: from + ((u.to - from) * i) / n, w: share / n });
  }
  weighted.sort((a, b) => a.pos - b.pos);
  let total = 0;
  const cumulative = weighted.map(({ pos, w }) => ({ pos, count: (total += w) }));
  const points: { pos: number; count: number }[] = [{ pos: input.cursor, count: 0 }];
  const step = Math.max(1, Math.ceil(cumulative.length / (entries - 2)));
  for (let i = step - 1; i < cumulative.length; i += step) points.push(cumulative[i]!);
  const last = cumulative.at(-1);
  if (last !== undefined && points.at(-1) !== last) points.push(last);
  // First-come: those who arrive after the counts are published queue behind them, at the arrival
  // rate; a last entry an hour on lets the edge read their places off the same line.
  const a = input.arrivals;
  if (a !== null) {
    const end = points.at(-1)!;
    const from = Math.max(end.pos, a.knownTo);
    if (from > end.pos) points.push({ pos: from, count: end.count });
    points.push({ pos: from + 3600, count: end.count + a.perSecond * 3600 });
  }
  return points.map((p) => `${p.pos.toFixed(6)}=${Math.round(p.count * survival)}`).join(',');
}

export class QueueTracker {
  /** Live places by position. */
  private readonly places = new Map<string, Place>();
  /** Pre-queue tokens seen before the start (one per identity), and whether their place is known. */
  private readonly prequeued = new Map<string, { seenMs: number; placed: boolean }>();
  /** Places the cursor passed and not yet admitted, and what became of passed places. */
  private readonly passed = new Map<string, number>();
  private fates: boolean[] = [];
  /** When the cursor's admissions happened (ms), the last ten minutes. */
  private admittedAt: number[] = [];

  observe(line: DecisionLine, startSec: number | null): void {
    if (line.dec === 'pre' || line.newDec === 'pre') {
      const tid = line.newDec === 'pre' ? line.newTid : line.tid;
      if (tid !== null && startSec !== null && line.tsMs < startSec * 1000) {
        const known = this.prequeued.get(tid);
        this.prequeued.set(tid, { seenMs: Math.max(known?.seenMs ?? 0, line.tsMs), placed: known?.placed ?? false });
      }
      // The token checked after the start carries its place: its pre-start id is the one used.
      if (line.pos !== null && line.dec === 'pre' && line.tid !== null) {
        const known = this.prequeued.get(line.tid);
        if (known !== undefined) known.placed = true;
      }
    }
    if (line.pos === null) return;
    const key = keyOf(line.pos);
    if (line.reason === 'cursor_passed') {
      this.places.delete(key);
      if (this.passed.delete(key)) this.fate(true);
      this.admittedAt.push(line.tsMs);
      return;
    }
    if (line.outcome === 'origin') return;
    const place = this.places.get(key) ?? { pos: line.pos, seenMs: 0, seen: 0 };
    place.seenMs = Math.max(place.seenMs, line.tsMs);
    place.seen++;
    this.places.set(key, place);
  }

  /**
   * Share of passed places whose holders came in, over the last 300 places whose fate is known: in
   * (their admission was logged), or not (two windows and ten seconds after the cursor passed them,
   * when anyone still waiting has checked in). 1 until 30 are known.
   */
  survival(): number {
    if (this.fates.length < 30) return 1;
    const recent = this.fates.slice(-FATES);
    return Math.max(0.3, recent.filter(Boolean).length / recent.length);
  }

  private fate(cameIn: boolean): void {
    this.fates.push(cameIn);
    if (this.fates.length > 200) this.fates = this.fates.slice(-FATES);
  }

  /** Pre-queue visitors seen in the last check period before `atMs` (the countdown checks every 5 minutes). */
  prequeueSize(atMs: number): number {
    let n = 0;
    for (const p of this.prequeued.values()) if (p.seenMs >= atMs - (PREQUEUE_CHECK_SECONDS + 60) * 1000) n++;
    return n;
  }

  /** Pre-queue visitors still to check in after the start (alive when it came, place not known yet). */
  unplaced(startSec: number, nowMs: number, d: number): number {
    // Two windows after the start, everyone who stayed has checked in.
    if (nowMs >= (startSec + 2 * d + 10) * 1000) return 0;
    let n = 0;
    for (const p of this.prequeued.values()) if (!p.placed && p.seenMs >= (startSec - PREQUEUE_CHECK_SECONDS - 60) * 1000) n++;
    return n;
  }

  /**
   * Live places at or ahead of `cursor`, ascending. A new place's first check comes up to three
   * windows after it was handed out (a new token is for the window after next, and falls due up to a
   * window into it); later checks come within two windows of each other. A place not seen for that
   * long and ten seconds more has been left. Places behind the cursor not admitted within that time
   * count as left too.
   */
  ahead(cursor: number, nowMs: number, d: number): number[] {
    for (const [key, at] of this.passed) {
      if (at >= nowMs - (2 * d + 10) * 1000) continue;
      this.passed.delete(key);
      this.places.delete(key);
      this.fate(false);
    }
    const out: number[] = [];
    for (const [key, p] of this.places) {
      if (p.seenMs < nowMs - ((p.seen > 1 ? 2 : 3) * d + 10) * 1000) {
        this.places.delete(key);
        if (this.passed.delete(key)) this.fate(false);
        continue;
      }
      if (p.pos >= cursor) out.push(p.pos);
      else if (!this.passed.has(key)) this.passed.set(key, nowMs);
    }
    return out.sort((a, b) => a - b);
  }

  /** Admissions by the cursor since `fromMs`. */
  admittedSince(fromMs: number): number {
    this.admittedAt = this.admittedAt.filter((t) => t >= fromMs - 600_000);
    return this.admittedAt.filter((t) => t >= fromMs).length;
  }

  /** Places the cursor passed whose holders have neither come in nor left yet (as of the last `ahead`). */
  passedWaiting(): number {
    return this.passed.size;
  }

  /** What the tracker learned from the lines, JSON-safe (the model's save()). */
  save(): TrackerSaved {
    return {
      places: [...this.places.values()].map((p) => ({ ...p })),
      prequeued: [...this.prequeued].map(([tid, p]) => [tid, { ...p }]),
      passed: [...this.passed],
      fates: [...this.fates],
      admittedAt: [...this.admittedAt],
    };
  }

  restore(saved: TrackerSaved): void {
    this.places.clear();
    for (const p of saved.places) this.places.set(keyOf(p.pos), { ...p });
    this.prequeued.clear();
    for (const [tid, p] of saved.prequeued) this.prequeued.set(tid, { ...p });
    this.passed.clear();
    for (const [key, at] of saved.passed) this.passed.set(key, at);
    this.fates = [...saved.fates];
    this.admittedAt = [...saved.admittedAt];
  }
}

/** QueueTracker's state as JSON-safe data. */
export interface TrackerSaved {
  places: Place[];
  prequeued: [string, { seenMs: number; placed: boolean }][];
  passed: [string, number][];
  fates: boolean[];
  admittedAt: number[];
}
