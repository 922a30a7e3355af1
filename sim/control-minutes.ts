// A controlled run's minutes judged against their target: when the queue formed, which minutes had
// settled with a window's share of the target waiting, how far each was from the target, and the
// busiest 10 judged seconds against what chance alone gives at the target rate.
import { createRandom } from '../lib/random.js';
import { quantileOf } from '../lib/quantiles.js';
import { eventStartMs } from './event-figures.js';
import type { RunResult } from './run.js';

export interface MinuteFigure {
  minute: number;
  target: number | null;
  admissions: number;
  /** Fewest visitors waiting at any second of the minute (the simulator's truth, not the controller's view). */
  fewestWaiting: number;
  /** Visitors waiting at the minute's end, as the controller saw them (its last tick in the minute). */
  controllerWaiting: number | null;
  /** Judged against the target: the queue had settled and kept at least a window's share waiting. */
  judged: boolean;
  /** (admissions - target) / target. */
  error: number | null;
}

/** The busiest 10 judged seconds against the target's share of them. */
export interface BusiestFigure {
  count: number;
  atSecond: number;
  /** The target's 10-second share there. */
  share: number;
  ratio: number;
  /** The busiest 10 s a Poisson process at exactly the target rate shows over the same seconds, 99th percentile of 200 runs, over the share. */
  poissonRatio99: number;
  /** The limit the figure is held to: 1.3, or the Poisson bound where chance alone goes higher. */
  limit: number;
}

/** The new_users_per_minute in force at each moment of the run (ms), null where none is set or the autopilot sets the rate. */
export type Target = (ms: number) => number | null;

export function targetAt(result: RunResult): Target {
  // In target_mode=auto new_users_per_minute is a ceiling, not a target: the autopilot chooses the rate (origin-figures.ts judges it).
  if (result.scenario.settings.target_mode === 'auto') return () => null;
  const changes = result.scenario.changes
    .filter((c) => c.key === 'new_users_per_minute')
    .sort((a, b) => a.atMs - b.atMs);
  const first = result.scenario.settings.new_users_per_minute;
  return (ms) => {
    let value = first;
    for (const c of changes) if (c.atMs <= ms) value = c.value;
    return value === undefined || value === '' ? null : Number(value);
  };
}

/** A scheduled event's handover from the pre-queue to those who came later: its last admission (ms), or null. */
function handoverMs(result: RunResult): number | null {
  const start = eventStartMs(result.scenario.settings);
  if (start === null || result.scenario.settings.event_prequeue_start === undefined) return null;
  return result.trace.actors.reduce(
    (m, a) => (a.prequeued && a.admittedMs !== null ? Math.max(m, a.admittedMs) : m),
    start,
  );
}

/**
 * Visitors in the queue at each second who could be admitted: from the first waiting page to
 * admission, giving up, or the end. A scheduled event's latecomers count only once the last
 * pre-queued visitor is in: until then the room holds them by design, and a minute the pre-queue's
 * last few could not fill is not a minute the target could be met.
 */
function waitingPerSecond(result: RunResult, seconds: number): number[] {
  const delta = new Array<number>(seconds + 1).fill(0);
  const lastPrequeued = handoverMs(result);
  for (const a of result.trace.actors) {
    if (a.queuedMs === null) continue;
    // An actor an adversary run stopped at its horizon leaves the queue with its last request.
    const end =
      a.admittedMs ?? a.abandonedMs ?? (a.done ? (a.lastRequestMs ?? a.queuedMs) : result.scenario.durationMs);
    const behindPrequeue = lastPrequeued !== null && !a.prequeued ? lastPrequeued : 0;
    const from = Math.ceil(Math.max(a.queuedMs, behindPrequeue) / 1000);
    const to = Math.min(seconds, Math.ceil(end / 1000));
    if (to <= from) continue;
    delta[from]!++;
    delta[to]!--;
  }
  let run = 0;
  return delta.slice(0, seconds).map((x) => (run += x));
}

/** Admitted visitors active at each second: from admission until session_duration after their last request. */
export function activePerSecond(result: RunResult, seconds: number, idleMs: number): number[] {
  const delta = new Array<number>(seconds + 1).fill(0);
  for (const a of result.trace.actors) {
    if (a.admittedMs === null) continue;
    const from = Math.floor(a.admittedMs / 1000);
    const to = Math.min(seconds, Math.floor(((a.lastRequestMs ?? a.admittedMs) + idleMs) / 1000) + 1);
    delta[from]!++;
    delta[to]!--;
  }
  let run = 0;
  return delta.slice(0, seconds).map((x) => (run += x));
}

export function busiestTen(counts: readonly number[], seconds: readonly number[]): { count: number; at: number } {
  // `seconds` lists the judged seconds; a 10-second span counts only if all ten are judged.
  const judged = new Set(seconds);
  let best = { count: 0, at: -1 };
  for (const s of seconds) {
    if (!judged.has(s + 9)) continue;
    let n = 0;
    for (let k = s; k < s + 10; k++) n += counts[k] ?? 0;
    if (n > best.count) best = { count: n, at: s };
  }
  return best;
}

function poisson(u: () => number, lambda: number): number {
  // Knuth's method: fine for the few admissions a second a target means.
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = u();
  while (p > limit) {
    k++;
    p *= u();
  }
  return k;
}

/** The 99th percentile of the busiest 10 s a Poisson process at `perSecond` shows over `seconds`. */
function poissonBusiest99(perSecond: (s: number) => number, seconds: readonly number[], seed: string): number {
  const rng = createRandom(`poisson/${seed}`);
  const span = (seconds.at(-1) ?? 0) + 10;
  const runs: number[] = [];
  for (let r = 0; r < 200; r++) {
    const counts = new Array<number>(span).fill(0);
    for (const s of seconds) counts[s] = poisson(() => rng.next(), perSecond(s));
    runs.push(busiestTen(counts, seconds).count);
  }
  return quantileOf(runs, 0.99);
}

export interface JudgedMinutes {
  minutes: MinuteFigure[];
  /** Every second of the judged minutes, in order. */
  judgedSeconds: number[];
  /** When the queue formed (s): the first second a window's share of the target was waiting. */
  queueStart: number | null;
}

/**
 * Each minute of the run against its target. The queue: from the first second a window's share of the
 * target waits; minutes are judged from two minutes after it (and after any change of target), while
 * that many keep waiting.
 */
export function judgedMinutes(
  result: RunResult,
  admissionsPerSecond: readonly number[],
  active: readonly number[],
  cap: number | null,
  target: Target,
): JudgedMinutes {
  const { scenario } = result;
  const control = result.control!;
  const seconds = Math.ceil(scenario.durationMs / 1000);
  const waiting = waitingPerSecond(result, seconds);
  const share = (s: number): number => ((target(s * 1000) ?? 0) * result.waitPeriodSeconds) / 60;
  const start = waiting.findIndex((w, s) => target(s * 1000) !== null && w >= share(s) && w > 0);
  const queueStart = start < 0 ? null : start;
  // A change of target, and an event's handover from its pre-queue to the draw, each start afresh.
  const handover = handoverMs(result);
  const changes = [
    ...scenario.changes.filter((c) => c.key === 'new_users_per_minute').map((c) => c.atMs / 1000),
    ...(handover === null ? [] : [handover / 1000]),
  ];
  const settledAfter = (s: number): boolean =>
    queueStart !== null && s >= queueStart + 120 && changes.every((c) => s < c || s >= c + 120);
  const minutes: MinuteFigure[] = [];
  const judgedSeconds: number[] = [];
  for (let m = 0; m * 60 < seconds; m++) {
    const from = m * 60;
    const to = Math.min(seconds, from + 60);
    const t = target(from * 1000);
    const fewest = Math.min(...waiting.slice(from, to));
    const admissions = admissionsPerSecond.slice(from, to).reduce((a, b) => a + b, 0);
    const lastView = control.views.filter((v) => v.atMs >= from * 1000 && v.atMs < to * 1000).at(-1);
    // While active sessions are within 20% of the cap, the cap binds, not the rate (the controller keeps room for admissions it has already planned): such minutes are judged on the cap.
    const capBinds = cap !== null && Math.max(...active.slice(from, to)) >= 0.8 * cap;
    const judged =
      t !== null &&
      to - from === 60 &&
      settledAfter(from) &&
      fewest >= share(from) &&
      !capBinds &&
      (control.stoppedAtMs === null || to * 1000 <= control.stoppedAtMs);
    if (judged) for (let s = from; s < to; s++) judgedSeconds.push(s);
    minutes.push({
      minute: m,
      target: t,
      admissions,
      fewestWaiting: fewest,
      controllerWaiting: lastView?.waiting ?? null,
      judged,
      error: t === null || t === 0 ? null : (admissions - t) / t,
    });
  }
  return { minutes, judgedSeconds, queueStart };
}

/** The busiest 10 judged seconds, held to 1.3 times the target's share or what chance alone gives; null under 10 judged seconds. */
export function busiestFigure(
  result: RunResult,
  admissionsPerSecond: readonly number[],
  judgedSeconds: readonly number[],
  target: Target,
): BusiestFigure | null {
  if (judgedSeconds.length < 10) return null;
  const b = busiestTen(admissionsPerSecond, judgedSeconds);
  const tenShare = (target(b.at * 1000) ?? 0) / 6;
  const p99 = poissonBusiest99(
    (s) => (target(s * 1000) ?? 0) / 60,
    judgedSeconds,
    `${result.seed}/${result.scenario.name}`,
  );
  const poissonRatio99 = p99 / Math.max(1e-9, tenShare);
  return {
    count: b.count,
    atSecond: b.at,
    share: tenShare,
    ratio: b.count / tenShare,
    poissonRatio99,
    limit: Math.max(1.3, poissonRatio99),
  };
}
