// The figures of a scheduled event or a first-come queue (docs/events.md): does the shuffled start
// ignore arrival time, does the pre-queue go first, does `fifo` keep arrival order, is the place in
// line the page shows the place the visitor had, and does anyone gain by bending the rules.
import { lowerBound } from '../control/model/index.js';
import type { Actor } from './population.js';
import { EPOCH_MS } from './room.js';
import type { RunResult } from './run.js';
import { mean, spearman, type Interval } from './stats.js';
import { median } from '../lib/quantiles.js';
import type { Group } from './visitors.js';

export interface GroupGain {
  group: Group;
  actors: number;
  admitted: number;
  /**
   * How much earlier than their due order the group's admitted visitors got in, as a share of the
   * cohort (0.1 = ten percentiles ahead). Due order: arrival order in `fifo`, the place the seed drew
   * in a shuffled pre-queue. Mean with its 95% interval; an honest visitor's is the yardstick.
   */
  gain: Interval | null;
}

export interface PlaceFigures {
  /** Visitors whose first waiting page showed a place, and were later admitted. */
  visitors: number;
  /** Median of (visitors shown ahead) / (visitors admitted between that page and their own admission). */
  medianRatio: number | null;
  /** Share of them whose shown place was within ±10% of that count (places under 20 left out: ±10% of 5 is noise). */
  withinTenPercent: number | null;
  /** Median turn the page promised, and the median wait lived from that page to admission, seconds. */
  promisedMedian: number | null;
  livedMedian: number | null;
  /** (promised - lived) / lived, medians. */
  turnError: number | null;
}

export interface EventFigures {
  method: 'random' | 'fifo';
  /** The event's start, ms since the run began; null without an event. */
  startMs: number | null;
  prequeue: {
    /** Honest visitors who saw the countdown, and how many of them were admitted. */
    visitors: number;
    admitted: number;
    /** Spearman correlation of arrival time and admission order among those admitted: 0 = no head start. */
    spearman: number | null;
    /** The last honest pre-queued visitor's admission, and visitors who arrived after the start admitted before it. */
    lastAdmissionMs: number | null;
    latecomersBefore: number;
    latecomersAdmitted: number;
    /** Pre-queue tokens a sharer handed to another identity after the start: tried, and let in on it. */
    replayed: { tried: number; admitted: number };
    groups: GroupGain[];
  } | null;
  fifo: {
    admitted: number;
    /** Spearman correlation of arrival time and admission order among honest visitors admitted. */
    spearman: number | null;
    place: PlaceFigures;
    groups: GroupGain[];
  } | null;
  /** A controller that stopped: admissions in each minute after it (nothing should freeze). */
  afterStop: { minute: number; admissions: number; waiting: number }[];
  /** Distinct diagnostics the edge reported during the run. */
  diagnostics: string[];
  series: {
    /** Honest visitors admitted: arrival and admission minute, and whether they were in the pre-queue (at most 2,000, evenly sampled). */
    order: { arrival: number; admitted: number; prequeued: boolean }[];
    /** First-come visitors: the place shown and the number admitted before them (at most 2,000). */
    place: { shown: number; actual: number }[];
  };
}

/** At most `max` items, evenly spaced: charts stay small whatever the crowd. */
function sample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = items.length / max;
  return Array.from({ length: max }, (_, i) => items[Math.floor(i * step)]!);
}

/** Ranks 0..n-1 by `key`, ties in input order. */
function percentiles<T>(items: readonly T[], key: (item: T) => number): Map<T, number> {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  const n = Math.max(1, sorted.length - 1);
  return new Map(sorted.map((item, i) => [item, i / n]));
}

function meanInterval(values: readonly number[]): Interval | null {
  const m = mean(values);
  if (m === null || values.length < 2) return null;
  const variance = values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1);
  const half = 1.96 * Math.sqrt(variance / values.length);
  return { value: m, low: m - half, high: m + half };
}

/**
 * Per group: admitted share and the gain in admission order over the due order, among the cohort's
 * admitted visitors that `due` places (null: left out, e.g. a pre-queue visitor who never checked in
 * with their place).
 */
function gains(cohort: readonly Actor[], due: (a: Actor) => number | null): GroupGain[] {
  const admitted = cohort.filter((a) => a.admittedMs !== null && due(a) !== null);
  const byAdmission = percentiles(admitted, (a) => a.admittedMs!);
  const byDue = percentiles(admitted, (a) => due(a)!);
  const groups = [...new Set(cohort.map((a) => a.group))].sort((a, b) =>
    a === 'honest' ? -1 : b === 'honest' ? 1 : a.localeCompare(b),
  );
  return groups.map((group) => {
    const mine = cohort.filter((a) => a.group === group);
    const got = mine.filter((a) => a.admittedMs !== null);
    return {
      group,
      actors: mine.length,
      admitted: got.length,
      gain: meanInterval(got.filter((a) => byDue.has(a)).map((a) => byDue.get(a)! - byAdmission.get(a)!)),
    };
  });
}

function placeFigures(
  actors: readonly Actor[],
  admissionsMs: readonly number[],
): PlaceFigures & { points: { shown: number; actual: number }[] } {
  const sorted = [...admissionsMs].sort((a, b) => a - b);
  const countBetween = (from: number, to: number): number => lowerBound(sorted, to) - lowerBound(sorted, from);
  const shown = actors.filter((a) => a.placeShown !== null && a.admittedMs !== null);
  const ratios: number[] = [];
  const points: { shown: number; actual: number }[] = [];
  let judged = 0;
  let within = 0;
  for (const a of shown) {
    const actual = countBetween(a.placeShown!.atMs, a.admittedMs!);
    if (actual > 0) ratios.push(a.placeShown!.ahead / actual);
    points.push({ shown: a.placeShown!.ahead, actual });
    if (actual >= 20) {
      judged++;
      if (Math.abs(a.placeShown!.ahead - actual) <= 0.1 * actual) within++;
    }
  }
  const promised = shown.flatMap((a) => (a.placeShown!.turnSeconds === null ? [] : [a.placeShown!.turnSeconds]));
  const lived = shown.map((a) => (a.admittedMs! - a.placeShown!.atMs) / 1000);
  const promisedMedian = median(promised);
  const livedMedian = median(lived);
  return {
    visitors: shown.length,
    medianRatio: median(ratios),
    withinTenPercent: judged === 0 ? null : within / judged,
    promisedMedian,
    livedMedian,
    turnError:
      promisedMedian === null || livedMedian === null || livedMedian === 0
        ? null
        : (promisedMedian - livedMedian) / livedMedian,
    points,
  };
}

/** The event start (ms since the run began) of a scenario's settings, or null. */
export function eventStartMs(settings: Readonly<Record<string, string>>): number | null {
  const start = settings.event_start;
  return start === undefined ? null : Date.parse(start) - EPOCH_MS;
}

export function eventFigures(result: RunResult, diagnostics: readonly string[]): EventFigures | null {
  const { scenario, trace } = result;
  const method = scenario.settings.queueing_method === 'fifo' ? 'fifo' : 'random';
  const startMs = eventStartMs(scenario.settings);
  if (startMs === null && method === 'random') return null;
  const actors = trace.actors;

  let prequeue: EventFigures['prequeue'] = null;
  if (startMs !== null) {
    const pre = actors.filter((a) => a.prequeued && a.group !== 'replayer');
    const honest = pre.filter((a) => a.group === 'honest' && a.admittedMs !== null);
    const late = actors.filter((a) => a.arrivalMs >= startMs && a.admittedMs !== null);
    // "Who stays": honest visitors keep their place; a visitor who clears their cookies throws it away.
    const lastAdmissionMs = honest.reduce<number | null>((m, a) => Math.max(m ?? 0, a.admittedMs!), null);
    const replayers = actors.filter((a) => a.group === 'replayer');
    prequeue = {
      visitors: pre.filter((a) => a.group === 'honest').length,
      admitted: honest.length,
      spearman: spearman(
        honest.map((a) => a.arrivalMs),
        honest.map((a) => a.admittedMs!),
      ),
      lastAdmissionMs,
      latecomersBefore: lastAdmissionMs === null ? 0 : late.filter((a) => a.admittedMs! < lastAdmissionMs).length,
      latecomersAdmitted: late.length,
      replayed: { tried: replayers.length, admitted: replayers.filter((a) => a.handoverAdmitted === true).length },
      // Due order: the place the event seed gave them, which nothing a visitor does can change.
      groups: gains(pre, (a) => (a.pos !== null && a.pos < startMs / 1000 + EPOCH_MS / 1000 ? a.pos : null)),
    };
  }

  let fifo: EventFigures['fifo'] = null;
  let placePoints: { shown: number; actual: number }[] = [];
  if (method === 'fifo') {
    // Those who came after any pre-queue: the first-come queue proper.
    const cohort = actors.filter((a) => !a.prequeued && a.group !== 'replayer' && a.group !== 'friend');
    const honest = cohort.filter((a) => a.group === 'honest' && a.admittedMs !== null);
    const { points, ...place } = placeFigures(
      cohort.filter((a) => a.group === 'honest'),
      trace.admissionsMs,
    );
    placePoints = points;
    fifo = {
      admitted: honest.length,
      spearman: spearman(
        honest.map((a) => a.arrivalMs),
        honest.map((a) => a.admittedMs!),
      ),
      place,
      groups: gains(cohort, (a) => a.arrivalMs),
    };
  }

  const stop = result.control?.stoppedAtMs ?? null;
  const afterStop: EventFigures['afterStop'] = [];
  if (stop !== null) {
    const minutes = Math.ceil((scenario.durationMs - stop) / 60_000);
    for (let m = 0; m < minutes; m++) {
      const from = stop + m * 60_000;
      const to = from + 60_000;
      afterStop.push({
        minute: Math.round(from / 60_000),
        admissions: trace.admissionsMs.filter((t) => t >= from && t < to).length,
        waiting: actors.filter(
          (a) => a.queuedMs !== null && a.queuedMs < to && (a.admittedMs ?? a.abandonedMs ?? Infinity) >= to,
        ).length,
      });
    }
  }
  const admitted = actors.filter((a) => a.group === 'honest' && a.admittedMs !== null);
  const series = {
    order: sample(admitted, 2000).map((a) => ({
      arrival: a.arrivalMs / 60_000,
      admitted: a.admittedMs! / 60_000,
      prequeued: a.prequeued,
    })),
    place: sample(placePoints, 2000),
  };
  return { method, startMs, prequeue, fifo, afterStop, diagnostics: [...diagnostics], series };
}
