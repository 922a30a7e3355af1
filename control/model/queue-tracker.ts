// Who holds a place in the queue (docs/events.md), where, and how many each stands for. Pure: the
// decision lines in; the live places, the pre-queue's size and the survival share out (queue.ts
// turns them into the cursor's speed and counts).
//
// Places are known from the decision lines' `pos`. A shuffled pre-queue's places are known only once
// each visitor checks after the start; until then its size is known (its tokens, one per identity)
// and its places are uniform over the second before the start, which is what a keyed hash gives.
//
// Under a sampled log (log_sample_rate r < 1, docs/control/log.md#sampling-the-log) the edge logs a
// waiting line only when one of its tokens is in the sample, and a place changes token at every
// renewal: so a place is tracked while the token it holds now (the one its last line set, else the
// one it used) is in the sample, and counts 1/r; when it renews to a token outside the sample it is
// dropped (it is no fate: its holder is still there), and it comes back when a later token is in.
// At any moment each live place is in with chance r, so the weighted count is the queue's. Pre-queue
// tokens (one per identity, the same on every line before the start) are in the sample or not, as
// the ledger's tickets are. Admissions are always logged and count one by one; a place outside the
// sample that is admitted is only that.
import { inLogSample, isWaitingDecision } from '../../src/core/log/index.js';
import { PREQUEUE_CHECK_SECONDS } from '../../src/core/decision/index.js';
import type { DecisionLine } from '../types.js';

export interface Place {
  pos: number;
  seenMs: number;
  /** Lines seen for it: after the first check a waiting visitor comes back within two windows. */
  seen: number;
  /** How many places it stands for: 1/rate of the sample it was seen in (1 without sampling). */
  w: number;
  /** The token it holds (its last line's), to tell whether it is in a smaller sample; null when unknown. */
  tid: string | null;
}

/** Live places, ascending, each with its weight, and their total weight. */
export interface PlacesAhead {
  pos: number[];
  w: number[];
  total: number;
}

/** A line's place key: a position names one visitor's place (six decimals, as the edge logs it). */
const keyOf = (pos: number): string => pos.toFixed(6);

/** How many of the latest fates of passed places the survival share reads: recent enough to follow a crowd growing impatient. */
const FATES = 100;

/** A pre-queue token seen before the start: when last, whether its place is known since, its weight. */
interface Prequeued {
  seenMs: number;
  placed: boolean;
  w: number;
}

/** What became of a place the cursor passed: its holder came in or not, and how many it stood for. */
interface Fate {
  cameIn: boolean;
  w: number;
}

export class QueueTracker {
  /** Live places by position. */
  private readonly places = new Map<string, Place>();
  /** Pre-queue tokens seen before the start (one per identity), and whether their place is known. */
  private readonly prequeued = new Map<string, Prequeued>();
  /** Places the cursor passed and not yet admitted, and what became of passed places. */
  private readonly passed = new Map<string, number>();
  private fates: Fate[] = [];
  /**
   * The cursor's admissions, the last ten minutes: when (ms), and where. Their places are not saved
   * (as the planner's trail is not): restored admissions have none (NaN) and count only by time.
   */
  private admitted: { ms: number; pos: number }[] = [];
  /** The furthest place a tracked waiting line was for, by 10-second bucket (ms), the last ten minutes. */
  private waitingSeen: { ms: number; pos: number }[] = [];
  /** The weight the edge's waiting lines carry (1/log_sample_rate): a token outside its sample is never tracked. */
  private weight = 1;

  /** Whether token `tid` is in the sample of weight `w` (the edge's by default; every token is at 1). */
  private sampled(tid: string | null, w = this.weight): boolean {
    return w === 1 || tid === null || inLogSample(tid, 1 / w);
  }

  observe(line: DecisionLine, startSec: number | null): void {
    // The edge's rate, as its waiting lines say it; an always-logged line's tokens are tracked at it too.
    const waiting = isWaitingDecision(line.outcome, line.dec, line.newDec);
    if (waiting && line.weight !== this.weight) this.reweigh(line.weight);
    const w = this.weight;
    if (line.dec === 'pre' || line.newDec === 'pre') {
      const tid = line.newDec === 'pre' ? line.newTid : line.tid;
      if (tid !== null && startSec !== null && line.tsMs < startSec * 1000 && this.sampled(tid)) {
        const known = this.prequeued.get(tid);
        this.prequeued.set(tid, { seenMs: Math.max(known?.seenMs ?? 0, line.tsMs), placed: known?.placed ?? false, w });
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
      const place = this.places.get(key);
      this.places.delete(key);
      if (this.passed.delete(key)) this.fate(true, place?.w ?? 1);
      this.admitted.push({ ms: line.tsMs, pos: line.pos });
      return;
    }
    if (line.outcome === 'origin') return;
    // The token the place holds from now on: the one this line set, else the one it used. Renewed to
    // one outside the sample, it is dropped (no fate: its holder still waits) until a later token is in.
    const holds = line.newDec === 'wait' || line.newDec === 'pre' ? line.newTid : line.tid;
    if (!this.sampled(holds)) {
      this.places.delete(key);
      this.passed.delete(key);
      return;
    }
    // A sampled place that comes (back) into the sample on a renewal has had its first check.
    const place = this.places.get(key) ?? {
      pos: line.pos,
      seenMs: 0,
      seen: w > 1 && line.dec !== null ? 1 : 0,
      w,
      tid: holds,
    };
    place.w = w;
    place.tid = holds;
    place.seenMs = Math.max(place.seenMs, line.tsMs);
    place.seen++;
    this.places.set(key, place);
    if (waiting) this.sawWaiting(line.tsMs, line.pos);
  }

  /**
   * The edge's rate changed (its waiting lines carry `w` now). Lowered: the places and pre-queue
   * tokens outside the smaller sample are dropped (their lines are no longer logged, so they would
   * count at the old weight until they expire) and the rest count `w` (samples nest: they are the
   * smaller sample). Raised: each keeps its old weight until its next line, as those not seen since
   * are a sample of the old rate of those who have not checked since, and those who checked since
   * come in at the new one; nothing counts twice.
   */
  private reweigh(w: number): void {
    if (w > this.weight) {
      for (const [key, p] of this.places) {
        if (this.sampled(p.tid, w)) p.w = w;
        else {
          this.places.delete(key);
          this.passed.delete(key);
        }
      }
      for (const [tid, p] of this.prequeued) {
        if (this.sampled(tid, w)) p.w = w;
        else this.prequeued.delete(tid);
      }
    }
    this.weight = w;
  }

  private sawWaiting(ms: number, pos: number): void {
    const bucket = ms - (ms % 10_000);
    const last = this.waitingSeen.at(-1);
    if (last !== undefined && last.ms === bucket) last.pos = Math.max(last.pos, pos);
    else {
      this.waitingSeen = this.waitingSeen.filter((b) => b.ms >= ms - 600_000);
      this.waitingSeen.push({ ms: bucket, pos });
    }
  }

  /** Whether a tracked waiting line since `fromMs` (at most ten minutes back) was for a place at or ahead of `cursor`. */
  waitingSince(fromMs: number, cursor: number): boolean {
    return this.waitingSeen.some((b) => b.ms + 10_000 > fromMs && b.pos >= cursor);
  }

  /**
   * Share of passed places whose holders came in, over the last 100 places whose fate is known (each
   * at its weight): in (their admission was logged), or not (two windows and ten seconds after the
   * cursor passed them, when anyone still waiting has checked in). 1 until 30 are known.
   */
  survival(): number {
    if (this.fates.length < 30) return 1;
    let cameIn = 0;
    let all = 0;
    for (const f of this.fates.slice(-FATES)) {
      all += f.w;
      if (f.cameIn) cameIn += f.w;
    }
    return Math.max(0.3, cameIn / all);
  }

  private fate(cameIn: boolean, w: number): void {
    this.fates.push({ cameIn, w });
    if (this.fates.length > 200) this.fates = this.fates.slice(-FATES);
  }

  /** Pre-queue visitors seen in the last check period before `atMs` (the countdown checks every 5 minutes), weighted. */
  prequeueSize(atMs: number): number {
    let n = 0;
    for (const p of this.prequeued.values()) if (p.seenMs >= atMs - (PREQUEUE_CHECK_SECONDS + 60) * 1000) n += p.w;
    return n;
  }

  /** Pre-queue visitors still to check in after the start (alive when it came, place not known yet), weighted. */
  unplaced(startSec: number, nowMs: number, d: number): number {
    // Two windows after the start, everyone who stayed has checked in.
    if (nowMs >= (startSec + 2 * d + 10) * 1000) return 0;
    let n = 0;
    for (const p of this.prequeued.values())
      if (!p.placed && p.seenMs >= (startSec - PREQUEUE_CHECK_SECONDS - 60) * 1000) n += p.w;
    return n;
  }

  /** Live places at or ahead of `cursor`, ascending (see live). */
  ahead(cursor: number, nowMs: number, d: number): number[] {
    return this.live(cursor, nowMs, d).pos;
  }

  /**
   * Live places at or ahead of `cursor`, ascending, with their weights. A new place's first check
   * comes up to three windows after it was handed out (a new token is for the window after next, and
   * falls due up to a window into it); later checks come within two windows of each other. A place
   * not seen for that long and ten seconds more has been left. Places behind the cursor not admitted
   * within that time count as left too.
   */
  live(cursor: number, nowMs: number, d: number): PlacesAhead {
    for (const [key, at] of this.passed) {
      if (at >= nowMs - (2 * d + 10) * 1000) continue;
      this.passed.delete(key);
      this.fate(false, this.places.get(key)?.w ?? 1);
      this.places.delete(key);
    }
    const out: Place[] = [];
    let behind = Number.NEGATIVE_INFINITY;
    for (const [key, p] of this.places) {
      if (p.seenMs < nowMs - ((p.seen > 1 ? 2 : 3) * d + 10) * 1000) {
        this.places.delete(key);
        if (this.passed.delete(key)) this.fate(false, p.w);
        continue;
      }
      if (p.pos >= cursor) out.push(p);
      else {
        behind = Math.max(behind, p.pos);
        if (!this.passed.has(key)) this.passed.set(key, nowMs);
      }
    }
    out.sort((a, b) => a.pos - b.pos);
    const pos = out.map((p) => p.pos);
    const w = out.map((p) => p.w);
    // The first weighted place stands for the gap since the sampled place before it (massOf), which
    // the cursor may have entered: only the part of that gap still ahead counts. Without a place
    // behind, the gap is taken as long as the one after it.
    const first = pos[0];
    if (first !== undefined && w[0] !== 1) {
      const before = behind > Number.NEGATIVE_INFINITY ? behind : pos.length > 1 ? 2 * first - pos[1]! : cursor;
      if (before < cursor && first > before) w[0] = (w[0]! * (first - cursor)) / (first - before);
    }
    let total = 0;
    for (const x of w) total += x;
    return { pos, w, total };
  }

  /** Admissions by the cursor since `fromMs`. */
  admittedSince(fromMs: number): number {
    this.admitted = this.admitted.filter((a) => a.ms >= fromMs - 600_000);
    return this.admitted.filter((a) => a.ms >= fromMs).length;
  }

  /** Admissions by the cursor of places in [from, to), of those logged in the last ten minutes. */
  cameInBetween(from: number, to: number, nowMs: number): number {
    if (this.admitted.length > 0 && this.admitted[0]!.ms < nowMs - 600_000)
      this.admitted = this.admitted.filter((a) => a.ms >= nowMs - 600_000);
    let n = 0;
    for (const a of this.admitted) if (a.pos >= from && a.pos < to) n++;
    return n;
  }

  /** The weight of the edge's sampled lines (1 unsampled). */
  get sampleWeight(): number {
    return this.weight;
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
      fates: this.fates.map((f) => f.cameIn),
      fateWeights: this.fates.map((f) => f.w),
      admittedAt: this.admitted.map((a) => a.ms),
      weight: this.weight,
    };
  }

  restore(saved: TrackerSaved): void {
    this.places.clear();
    for (const p of saved.places) this.places.set(keyOf(p.pos), { ...p, w: p.w ?? 1, tid: p.tid ?? null });
    this.prequeued.clear();
    for (const [tid, p] of saved.prequeued) this.prequeued.set(tid, { ...p, w: p.w ?? 1 });
    this.passed.clear();
    for (const [key, at] of saved.passed) this.passed.set(key, at);
    this.fates = saved.fates.map((cameIn, i) => ({ cameIn, w: saved.fateWeights?.[i] ?? 1 }));
    this.admitted = saved.admittedAt.map((ms) => ({ ms, pos: Number.NaN }));
    this.weight = saved.weight ?? 1;
  }
}

/** QueueTracker's state as JSON-safe data (weights absent in a state saved before sampling was weighed: 1). */
export interface TrackerSaved {
  places: (Omit<Place, 'w' | 'tid'> & { w?: number; tid?: string | null })[];
  prequeued: [string, { seenMs: number; placed: boolean; w?: number }][];
  passed: [string, number][];
  fates: boolean[];
  fateWeights?: number[];
  admittedAt: number[];
  weight?: number;
}
