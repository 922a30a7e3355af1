// The figures of a controlled scenario: admissions per minute against new_users_per_minute, the
// busiest 10 seconds against what chance alone would give at the target rate, active sessions
// against total_active_users, and each POP against its ceiling.
import { parseConfig } from '../src/core/settings/index.js';
import { chanceFor } from '../src/core/decision/index.js';
import type { RunResult } from './run.js';
import { createRandom } from '../lib/random.js';
import { quantileOf } from '../lib/quantiles.js';
import { eventStartMs } from './event-figures.js';
import { EPOCH_MS } from './room.js';

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

export interface ControlFigures {
  pops: {
    name: string;
    share: number;
    propagationMs: number;
    logDelayMs: number;
    admissions: number;
    busiest10s: number;
  }[];
  minutes: MinuteFigure[];
  judged: number;
  withinTenPercent: number;
  /** The judged minute furthest from its target, relative. */
  worstError: number | null;
  /** When the queue formed (s): the first second a window's share of the target was waiting. */
  queueStartSecond: number | null;
  busiest: {
    count: number;
    atSecond: number;
    /** The target's 10-second share there. */
    share: number;
    ratio: number;
    /** The busiest 10 s a Poisson process at exactly the target rate shows over the same seconds, 99th percentile of 200 runs, over the share. */
    poissonRatio99: number;
    /** The limit the figure is held to: 1.3, or the Poisson bound where chance alone goes higher. */
    limit: number;
  } | null;
  active: { cap: number | null; max: number; atSecond: number; ratio: number | null; sessionMinutes: number };
  ceiling: {
    perSecond: number;
    worstPop: string;
    worst10s: number;
    limit10s: number;
    heldWinners: number;
    lostWins: number;
  } | null;
  writes: number;
  writesPerHour: number;
  /** The controller's API calls an hour over the run (as Fastly's API counts them), by kind, and the most in any trailing hour. */
  apiPerHour: { reads: number; writes: number; heartbeats: number; busiestHour: number };
  linesDelivered: number;
  badLines: number;
  stoppedAtMs: number | null;
  series: {
    /** Active sessions every 10 s. */
    active: { second: number; active: number }[];
    /** Admissions per POP per 10 s. */
    popTenSeconds: { second: number; pop: string; admissions: number }[];
    /** The chance each window was drawn at, as the largest POP had it at the window's middle. */
    chances: { minute: number; pct: number }[];
  };
}

function targetAt(result: RunResult): (ms: number) => number | null {
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
function activePerSecond(result: RunResult, seconds: number, idleMs: number): number[] {
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

function busiestTen(counts: readonly number[], seconds: readonly number[]): { count: number; at: number } {
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

export function controlFigures(result: RunResult, admissionsPerSecond: readonly number[]): ControlFigures | null {
  const control = result.control;
  if (control === null) return null;
  const { scenario, trace } = result;
  const seconds = Math.ceil(scenario.durationMs / 1000);
  const d = result.waitPeriodSeconds;
  const target = targetAt(result);
  const waiting = waitingPerSecond(result, seconds);

  // The queue: from the first second a window's share of the target waits; minutes are judged from
  // two minutes after it (and after any change of target), while that many keep waiting.
  const share = (s: number): number => ((target(s * 1000) ?? 0) * d) / 60;
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

  const sessionMinutes = Number(scenario.settings.session_duration ?? 5);
  const active = activePerSecond(result, seconds, sessionMinutes * 60_000);
  const capText = scenario.settings.total_active_users;
  const cap = capText === undefined ? null : Number(capText);
  const views = control.views;
  const minutes: MinuteFigure[] = [];
  const judgedSeconds: number[] = [];
  for (let m = 0; m * 60 < seconds; m++) {
    const from = m * 60;
    const to = Math.min(seconds, from + 60);
    const t = target(from * 1000);
    const slice = waiting.slice(from, to);
    const fewest = Math.min(...slice);
    const admissions = admissionsPerSecond.slice(from, to).reduce((a, b) => a + b, 0);
    const lastView = views.filter((v) => v.atMs >= from * 1000 && v.atMs < to * 1000).at(-1);
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
  const judged = minutes.filter((m) => m.judged);
  const worst = judged.reduce<number | null>(
    (w, m) => (w === null || Math.abs(m.error!) > Math.abs(w) ? m.error : w),
    null,
  );

  let busiest: ControlFigures['busiest'] = null;
  if (judgedSeconds.length >= 10) {
    const b = busiestTen(admissionsPerSecond, judgedSeconds);
    const tenShare = (target(b.at * 1000) ?? 0) / 6;
    const p99 = poissonBusiest99((s) => (target(s * 1000) ?? 0) / 60, judgedSeconds, `${result.seed}/${scenario.name}`);
    const poissonRatio99 = p99 / Math.max(1e-9, tenShare);
    busiest = {
      count: b.count,
      atSecond: b.at,
      share: tenShare,
      ratio: b.count / tenShare,
      poissonRatio99,
      limit: Math.max(1.3, poissonRatio99),
    };
  }

  let maxActive = 0;
  let maxAt = 0;
  active.forEach((n, s) => {
    if (n > maxActive) [maxActive, maxAt] = [n, s];
  });

  // Per POP: admissions in every 10 s, and the busiest such span.
  const popCounts = result.pops.map(() => new Array<number>(seconds).fill(0));
  trace.admissionsMs.forEach((t, i) => {
    const s = Math.floor(t / 1000);
    if (s < seconds) popCounts[trace.admissionPops[i]!]![s]!++;
  });
  const allSeconds = Array.from({ length: seconds }, (_, s) => s);
  const pops = result.pops.map((p, i) => ({
    name: p.name,
    share: result.popShares[i]!,
    propagationMs: p.propagationMs,
    logDelayMs: result.logDelaysMs[i]!,
    admissions: popCounts[i]!.reduce((a, b) => a + b, 0),
    busiest10s: busiestTen(popCounts[i]!, allSeconds).count,
  }));
  const ceilingText = scenario.settings.pop_admissions_per_second;
  const worstPop = [...pops].sort((a, b) => b.busiest10s - a.busiest10s)[0]!;
  const held = trace.actors.filter((a) => a.heldWinner);

  // The chance each window drew at, at the largest POP (the first): the operator's changes and the
  // controller's writes as they reached it, read by the room's own parser and draw rule.
  const chances: { minute: number; pct: number }[] = [];
  const values = new Map(Object.entries(scenario.settings));
  const delay = result.pops[0]!.propagationMs;
  const updates = [
    ...scenario.changes.map((c) => ({ atMs: c.atMs, values: { [c.key]: c.value } })),
    ...control.writes,
  ].sort((x, y) => x.atMs - y.atMs);
  let config = parseConfig((k) => values.get(k) ?? null).config;
  for (let w = 0; w * d < seconds; w++) {
    let changed = false;
    while (updates.length > 0 && updates[0]!.atMs + delay <= (w * d + d / 2) * 1000) {
      for (const [k, v] of Object.entries(updates.shift()!.values)) {
        if (v === '') values.delete(k);
        else values.set(k, v);
      }
      changed = true;
    }
    if (changed) config = parseConfig((k) => values.get(k) ?? null).config;
    // A window's draws are of the cohort that expires at its start; outside (0, 100) nobody draws.
    const p = config.allowPercentage;
    chances.push({ minute: (w * d) / 60, pct: p > 0 && p < 100 ? chanceFor(config, EPOCH_MS / 1000 + w * d) : p });
  }

  return {
    pops,
    minutes,
    judged: judged.length,
    withinTenPercent: judged.filter((m) => Math.abs(m.error!) <= 0.1).length,
    worstError: worst,
    queueStartSecond: queueStart,
    busiest,
    active: { cap, max: maxActive, atSecond: maxAt, ratio: cap === null ? null : maxActive / cap, sessionMinutes },
    ceiling:
      ceilingText === undefined
        ? null
        : {
            perSecond: Number(ceilingText),
            worstPop: worstPop.name,
            worst10s: worstPop.busiest10s,
            limit10s: Number(ceilingText) * 10,
            heldWinners: held.length,
            lostWins: held.filter((a) => a.admittedMs === null).length,
          },
    writes: control.writes.length,
    writesPerHour: control.writes.length / (scenario.durationMs / 3_600_000),
    apiPerHour: apiPerHour(control.apiCalls ?? [], scenario.durationMs),
    linesDelivered: control.linesDelivered,
    badLines: control.badLines,
    stoppedAtMs: control.stoppedAtMs,
    series: {
      active: active.flatMap((n, s) => (s % 10 === 0 ? [{ second: s, active: n }] : [])),
      popTenSeconds: result.pops.flatMap((p, i) =>
        Array.from({ length: Math.ceil(seconds / 10) }, (_, k) => ({
          second: k * 10,
          pop: p.name,
          admissions: popCounts[i]!.slice(k * 10, k * 10 + 10).reduce((a, b) => a + b, 0),
        })),
      ),
      chances,
    },
  };
}

/** API calls an hour by kind over a run, and the most calls in any trailing hour (the whole run when shorter). */
export function apiPerHour(
  calls: readonly { atMs: number; kind: 'read' | 'write' | 'heartbeat'; calls: number }[],
  durationMs: number,
): ControlFigures['apiPerHour'] {
  const hours = durationMs / 3_600_000;
  const sum = (kind: string): number => calls.filter((c) => c.kind === kind).reduce((a, c) => a + c.calls, 0);
  let busiest = 0;
  let from = 0;
  let inHour = 0;
  for (const c of calls) {
    inHour += c.calls;
    while (calls[from]!.atMs <= c.atMs - 3_600_000) inHour -= calls[from++]!.calls;
    busiest = Math.max(busiest, inHour);
  }
  return {
    reads: sum('read') / hours,
    writes: sum('write') / hours,
    heartbeats: sum('heartbeat') / hours,
    busiestHour: busiest,
  };
}
