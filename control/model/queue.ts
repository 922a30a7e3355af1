// The queue's cursor (docs/events.md): how fast it must move to pass the target's share of those
// waiting, and the counts it publishes for the place in line. Pure: the places in (queue-tracker.ts:
// who holds one, where, standing for how many), the cursor's speed and `queue_counts` out.
export { QueueTracker, type Place, type PlacesAhead, type TrackerSaved } from './queue-tracker.js';

export interface CursorInput {
  nowSec: number;
  /** The cursor now (where the edge has it). */
  cursor: number;
  /** Admissions wanted over the next minute. */
  wanted: number;
  /** Live places ahead of the cursor, ascending. */
  ahead: readonly number[];
  /**
   * The weight of each place in `ahead` (1 each when absent): a place seen through a sampled log
   * stands for 1/rate, spread over the positions since the place before it (the cursor, for the
   * first): see massOf.
   */
  weights?: readonly number[];
  /** Pre-queue visitors whose places are not known yet, uniform over [from, to). */
  unknown: { count: number; from: number; to: number } | null;
  /**
   * First-come only: new arrivals a second, and the position up to which arrivals are known (the log
   * read so far); places past it are forecast at that rate. Null: nobody new joins this line.
   */
  arrivals: { perSecond: number; knownTo: number } | null;
  /** The furthest the cursor may aim in a minute (the start, for a pre-queue draining into a draw). */
  limit: number;
  /**
   * Under a sampled log: a stretch of positions the cursor passed long enough ago that everyone in it
   * has come in or left, `span` positions long, where `cameIn` were admitted (every admission is
   * logged, with its place) and `mass` places stood, leavers included (cameIn / survival). Null or
   * absent: the speed reads the places ahead alone.
   */
  behind?: { cameIn: number; mass: number; span: number } | null;
}

/**
 * Places in [cursor, p): the known ones, the pre-queue's share of [cursor, p), and forecast arrivals.
 * A place of weight w (seen through a sampled log) stands for itself and the w - 1 unsampled places
 * between it and the sampled place before it (each sampled place is, on average, the last of w): its
 * w is spread evenly over that gap. Counted as a step of w at the place, a rate of 0.01 would move
 * the cursor in jumps of 100 and aim at the next sampled place rather than at the target; spread, it
 * aims where the unsampled queue would have it. A place of weight 1 is a step, as without weights.
 */
function massOf(input: CursorInput): (p: number) => number {
  const w = input.weights;
  if (w === undefined || w.every((x) => x === 1)) return (p) => massBelow(input, p, lowerBound(input.ahead, p));
  const pos = input.ahead;
  const cumulative = [0];
  for (let i = 0; i < pos.length; i++) cumulative.push(cumulative[i]! + w[i]!);
  return (p) => {
    const i = lowerBound(pos, p);
    let mass = cumulative[i]!;
    // The place at or above p: the part of its gap below p.
    const next = pos[i];
    if (next !== undefined && w[i] !== 1) {
      const from = i === 0 ? input.cursor : pos[i - 1]!;
      if (next > from && p > from) mass += (w[i]! * (p - from)) / (next - from);
    }
    return massBelow(input, p, mass);
  };
}

/** `known` (the places ahead below p) with the pre-queue's share of [cursor, p) and forecast arrivals. */
function massBelow(input: CursorInput, p: number, known: number): number {
  let mass = known;
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

/** The fewest admissions a stretch passed must hold to say anything of the density (cursorSpeed). */
const BEHIND_MIN = 50;

/**
 * The speed (positions a second) that passes `wanted` places in the next minute. When fewer wait,
 * the cursor aims at `limit` (the present, for first-come: it keeps up with arrivals, and the room
 * can open again).
 */
export function cursorSpeed(input: CursorInput): number {
  if (!(input.wanted > 0)) return 0;
  const top = Math.max(input.cursor, input.limit);
  const mass = massOf(input);
  const all = mass(top);
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
    if (mass(mid) < input.wanted) lo = mid;
    else hi = mid;
  }
  const b = input.behind;
  if (b === undefined || b === null || !(b.span > 0) || b.cameIn < BEHIND_MIN || !(hi > input.cursor))
    return (hi - input.cursor) / 60;
  // A sampled log: how many the next minute's stretch holds is known to about 1/sqrt(the sampled
  // places in it), 20% for 25 of them, while the stretch passed a few minutes ago is known exactly
  // (its admissions). In a first-come line, where positions are arrival times, the density changes
  // slowly: the two densities are averaged, each by how many places it rests on.
  const sampled = lowerBound(input.ahead, hi);
  const density =
    (sampled * (input.wanted / (hi - input.cursor)) + b.cameIn * (b.mass / b.span)) / (sampled + b.cameIn);
  return input.wanted / density / 60;
}

/**
 * `queue_counts`: how many of those waiting are ahead of each position, from the cursor on, at most
 * `entries` entries, each count scaled by the share of passed places whose holders came in.
 */
export function countsText(
  input: Pick<CursorInput, 'cursor' | 'ahead' | 'weights' | 'unknown' | 'arrivals'>,
  survival: number,
  entries = 100,
): string {
  // A weighted place's count includes those it stands for: the edge reads linearly between entries,
  // which spreads them over the gap before it as the speed does (massOf).
  const weighted: { pos: number; w: number }[] = input.ahead.map((pos, i) => ({ pos, w: input.weights?.[i] ?? 1 }));
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
