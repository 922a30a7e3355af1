// From a run's trace to the numbers the report states and the tests check.
import { laneFigures } from './lane-figures.js';
import { botFigures } from './bot-figures.js';
import { controlFigures } from './control-figures.js';
import { eventFigures } from './event-figures.js';
import { originFigures } from './origin-figures.js';
import { roomsFigures } from './rooms-figures.js';
import type { Actor } from './population.js';
import type { RunResult } from './run.js';
import { comparisonFigures } from './group-figures.js';
import { mean, spearman, survivalQuantiles } from './stats.js';
import type { Group } from './visitors.js';
import type {
  GroupFigures,
  Percentiles,
  PhaseFigures,
  ScenarioFigures,
  Smoothness,
  WaitFigures,
} from './figure-types.js';

// The shapes live in figure-types.ts; the report and the charts take them from here.
export type { Percentiles, Smoothness, WaitFigures, PhaseFigures, GroupFigures, ScenarioFigures };

const sortNum = (xs: number[]): number[] => xs.sort((a, b) => a - b);

function perSecond(timesMs: readonly number[], durationMs: number): number[] {
  const out = new Array<number>(Math.ceil(durationMs / 1000)).fill(0);
  for (const t of timesMs) {
    const s = Math.floor(t / 1000);
    if (s >= 0 && s < out.length) out[s]!++;
  }
  return out;
}

function smoothness(admissionsMs: readonly number[], counts: readonly number[], d: number): Smoothness | null {
  if (admissionsMs.length === 0) return null;
  let first = counts.findIndex((c) => c > 0);
  let last = counts.length - 1;
  while (last > first && counts[last] === 0) last--;
  if (first < 0) first = 0;
  let peak = 0;
  let peakSecond = 0;
  for (let s = first; s <= last; s++) {
    if (counts[s]! > peak) {
      peak = counts[s]!;
      peakSecond = s;
    }
  }
  const m = admissionsMs.length / (last - first + 1);
  let peakToLocalMean: number | null = null;
  let burstiestSecond: number | null = null;
  for (let w = 0; w * d < counts.length; w++) {
    const seconds = counts.slice(w * d, (w + 1) * d);
    const local = seconds.reduce((x, y) => x + y, 0) / d;
    if (local < 5) continue;
    for (let i = 0; i < seconds.length; i++) {
      if (peakToLocalMean === null || seconds[i]! / local > peakToLocalMean) {
        peakToLocalMean = seconds[i]! / local;
        burstiestSecond = w * d + i;
      }
    }
  }
  const tenth = (d * 1000) / 10;
  const nearBoundary = admissionsMs.filter((t) => t % (d * 1000) < tenth).length;
  return {
    peak,
    peakSecond,
    peakOffsetInWindow: peakSecond % d,
    mean: m,
    peakToMean: peak / m,
    peakToLocalMean,
    burstiestSecond,
    boundaryShare: nearBoundary / admissionsMs.length,
    boundaryExpected: 0.1,
  };
}

/** How long an actor waited once queued, and whether the wait ended in admission. */
function waitOf(a: Actor, endMs: number): { time: number; admitted: boolean } | null {
  if (a.queuedMs === null) return null;
  if (a.admittedMs !== null) return { time: (a.admittedMs - a.queuedMs) / 1000, admitted: true };
  return { time: ((a.abandonedMs ?? endMs) - a.queuedMs) / 1000, admitted: false };
}

function waitFigures(allowPercentage: number | null, actors: readonly Actor[], endMs: number): WaitFigures {
  const samples = actors
    .map((a) => waitOf(a, endMs))
    .filter((s): s is { time: number; admitted: boolean } => s !== null);
  const [p25, p50, p75] = survivalQuantiles(samples, [0.25, 0.5, 0.75]);
  const observed = { p25: p25 ?? null, p50: p50 ?? null, p75: p75 ?? null };
  const withPrediction = actors.filter((a) => a.predicted !== null);
  const predictedMean = (k: 'p25' | 'p50' | 'p75'): number | null => mean(withPrediction.map((a) => a.predicted![k]));
  const coverage = (k: 'p25' | 'p50' | 'p75'): number | null => {
    // A visitor who left before its own predicted time tells nothing about it: left out, not counted as late.
    let inTime = 0;
    let known = 0;
    for (const a of withPrediction) {
      const w = waitOf(a, endMs)!;
      const promised = a.predicted![k];
      if (w.admitted && w.time <= promised) inTime++;
      if (w.admitted || w.time > promised) known++;
    }
    return known === 0 ? null : inTime / known;
  };
  const predicted = { p25: predictedMean('p25'), p50: predictedMean('p50'), p75: predictedMean('p75') };
  return {
    allowPercentage,
    observed,
    predicted,
    coverage: { p25: coverage('p25'), p50: coverage('p50'), p75: coverage('p75') },
    medianError:
      observed.p50 !== null && predicted.p50 !== null && predicted.p50 > 0
        ? (observed.p50 - predicted.p50) / predicted.p50
        : null,
    visitors: samples.length,
  };
}

/** Admissions and the share of draws won in the 3 minutes before and after each allow_percentage change. */
function phases(result: RunResult, admissionsMs: readonly number[]): PhaseFigures[] {
  const span = 3 * 60_000;
  const log = result.trace.drawLog;
  const phase = (label: string, allowPercentage: string, from: number, to: number): PhaseFigures => {
    const draws = log.filter((e) => e.atMs >= from && e.atMs < to);
    return {
      label,
      allowPercentage,
      admissionsPerSecond: admissionsMs.filter((t) => t >= from && t < to).length / (span / 1000),
      drawWinShare: draws.length === 0 ? null : draws.filter((e) => e.won).length / draws.length,
    };
  };
  const out: PhaseFigures[] = [];
  let previous = result.scenario.settings.allow_percentage ?? '100';
  for (const change of result.scenario.changes) {
    if (change.key !== 'allow_percentage') continue;
    const minute = change.atMs / 60_000;
    out.push(phase(`3 min before minute ${minute}`, previous, change.atMs - span, change.atMs));
    out.push(phase(`3 min after minute ${minute}`, change.value, change.atMs, change.atMs + span));
    previous = change.value;
  }
  return out;
}

/** The scenario as run and what became of its visitors, in the order figures.json states them. */
function runSummary(
  result: RunResult,
): Pick<
  ScenarioFigures,
  | 'name'
  | 'title'
  | 'summary'
  | 'seed'
  | 'settings'
  | 'changes'
  | 'visitors'
  | 'actors'
  | 'admitted'
  | 'abandoned'
  | 'stillWaiting'
  | 'decisions'
  | 'elapsedMs'
  | 'drawsWon'
  | 'drawsLost'
  | 'renewals'
  | 'reasons'
> {
  const { trace, scenario } = result;
  return {
    name: scenario.name,
    title: scenario.title,
    summary: scenario.summary,
    seed: result.seed,
    settings: scenario.settings,
    changes: scenario.changes,
    visitors: result.visitors,
    actors: trace.actors.length,
    admitted: trace.actors.filter((a) => a.admittedMs !== null).length,
    abandoned: trace.actors.filter((a) => a.abandonedMs !== null).length,
    stillWaiting: trace.actors.filter((a) => a.admittedMs === null && a.abandonedMs === null && !a.done).length,
    decisions: result.decisions,
    elapsedMs: Math.round(result.elapsedMs),
    drawsWon: trace.drawsWon,
    drawsLost: trace.drawsLost,
    renewals: trace.renewals,
    reasons: Object.fromEntries(trace.reasons),
  };
}

/**
 * Waits per allow_percentage in force when the visitor was first queued: each has its own promise.
 * Under the controller every window has its own chance and the page's estimate reads them all: one group.
 */
function waitsByAllowance(result: RunResult, honestLike: readonly Actor[]): WaitFigures[] {
  const end = result.scenario.durationMs;
  if (result.control !== null) return [waitFigures(null, honestLike, end)];
  const allowValues = [...new Set(honestLike.map((a) => a.allowAtQueue).filter((v): v is number => v !== null))];
  return allowValues.map((allow) =>
    waitFigures(
      allow,
      honestLike.filter((a) => a.allowAtQueue === allow),
      end,
    ),
  );
}

/** Each group's share of its draws made in the first tenth of a window. */
function drawsNearBoundary(drawLog: RunResult['trace']['drawLog'], d: number): Partial<Record<Group, number>> {
  const nearBoundary: Partial<Record<Group, number>> = {};
  for (const group of new Set(drawLog.map((e) => e.group))) {
    const draws = drawLog.filter((e) => e.group === group);
    nearBoundary[group] = draws.filter((e) => e.atMs % (d * 1000) < d * 100).length / draws.length;
  }
  return nearBoundary;
}

/** Admitted visitors' waits: by arrival (the heatmap) and all together (the histogram). */
function waitSeries(
  admittedActors: readonly Actor[],
  d: number,
): Pick<
  ScenarioFigures['series'],
  'heatmap' | 'heatmapBucketSeconds' | 'heatmapArrivalSeconds' | 'waitHistogram' | 'waitHistogramBucketSeconds'
> {
  // Buckets of two windows, and everything past 20 windows in one top bucket: the tail is thin and
  // would otherwise take most of the chart.
  const bucket = 2 * d;
  const cap = 20 * d;
  // Arrival columns: minutes as in the Cloudflare seed, finer when everyone came within a few minutes.
  // A loop, not Math.max(...): a million admitted visitors are more arguments than the stack holds.
  const lastArrival = admittedActors.reduce((m, a) => Math.max(m, a.arrivalMs), 0) / 1000;
  const arrivalBucket = [5, 10, 30, 60].find((b) => lastArrival / b <= 24) ?? 60;
  const heat = new Map<string, number>();
  const hist = new Map<number, number>();
  const histBucket = Math.max(5, d / 2);
  for (const a of admittedActors) {
    const w = (a.admittedMs! - (a.queuedMs ?? a.arrivalMs)) / 1000;
    const key = `${Math.floor(a.arrivalMs / 1000 / arrivalBucket) * arrivalBucket}|${Math.min(cap, Math.floor(w / bucket) * bucket)}`;
    heat.set(key, (heat.get(key) ?? 0) + 1);
    const hb = Math.min(cap, Math.floor(w / histBucket) * histBucket);
    hist.set(hb, (hist.get(hb) ?? 0) + 1);
  }
  return {
    heatmap: heatmapCells(heat),
    heatmapBucketSeconds: bucket,
    heatmapArrivalSeconds: arrivalBucket,
    waitHistogram: [...hist]
      .map(([waitBucket, visitors]) => ({ waitBucket, waitBucketEnd: waitBucket + histBucket, visitors }))
      .sort((a, b) => a.waitBucket - b.waitBucket),
    waitHistogramBucketSeconds: histBucket,
  };
}

/** Whether admissions kept arrival order: overall, and among those who came before the room opened (the on-sale). */
function orderFigures(
  result: RunResult,
  admittedActors: readonly Actor[],
): Pick<ScenarioFigures, 'spearman' | 'spearmanBeforeChange'> {
  const { scenario } = result;
  // Early birds only matter where the room was closed at first (the on-sale).
  const firstChange = scenario.settings.allow_percentage === '0' ? (scenario.changes[0]?.atMs ?? null) : null;
  const early = firstChange === null ? [] : admittedActors.filter((a) => a.arrivalMs < firstChange);
  return {
    spearman: spearman(
      admittedActors.map((a) => a.arrivalMs),
      admittedActors.map((a) => a.admittedMs!),
    ),
    spearmanBeforeChange:
      early.length < 2
        ? null
        : spearman(
            early.map((a) => a.arrivalMs),
            early.map((a) => a.admittedMs!),
          ),
  };
}

export function computeFigures(result: RunResult): ScenarioFigures {
  const { trace, scenario } = result;
  const d = result.waitPeriodSeconds;
  const end = scenario.durationMs;
  const admissions = sortNum([...trace.admissionsMs]);
  const counts = perSecond(admissions, end);
  const control = controlFigures(result, counts);
  const judged = control?.minutes.filter((m) => m.judged) ?? [];
  const honestLike = trace.actors.filter((a) => a.group === 'honest');
  const admittedActors = honestLike.filter((a) => a.admittedMs !== null);
  const honestDraws = trace.drawLog.filter((e) => e.group === 'honest');
  return {
    ...runSummary(result),
    smoothness: smoothness(admissions, counts, d),
    // Adversary runs stop at a horizon, so their waits are cut short: no wait figures there.
    waits: scenario.compare === undefined ? waitsByAllowance(result, honestLike) : [],
    lateDrawShare: honestDraws.length === 0 ? null : honestDraws.filter((e) => e.late).length / honestDraws.length,
    drawsNearBoundary: drawsNearBoundary(trace.drawLog, d),
    ...orderFigures(result, admittedActors),
    phases: phases(result, admissions),
    control,
    bots: botFigures(result, judged.length === 0 ? null : mean(judged.map((m) => m.admissions))),
    events: eventFigures(result, result.diagnostics),
    rooms: result.rooms ? roomsFigures(result.rooms, computeFigures) : null,
    origin: control === null ? null : originFigures(result, control.minutes, counts),
    lanes: laneFigures(result),
    ...comparisonFigures(result),
    series: {
      admissionsPerSecond: counts,
      windowProfile: windowProfile(counts, d, admissions.length),
      arrivalsPerSecond: perSecond(
        trace.actors.filter((a) => a.group !== 'friend').map((a) => a.arrivalMs),
        end,
      ),
      ...waitSeries(admittedActors, d),
    },
  };
}

function windowProfile(counts: readonly number[], d: number, total: number): number[] {
  const profile = new Array<number>(d).fill(0);
  counts.forEach((c, s) => (profile[s % d]! += c));
  return profile.map((c) => (total === 0 ? 0 : c / total));
}

function heatmapCells(heat: Map<string, number>): ScenarioFigures['series']['heatmap'] {
  const cells = [...heat].map(([k, visitors]) => {
    const [arrival, waitBucket] = k.split('|').map(Number);
    return { arrival: arrival!, waitBucket: waitBucket!, visitors, share: 0 };
  });
  const columns = new Map<number, number>();
  for (const c of cells) columns.set(c.arrival, (columns.get(c.arrival) ?? 0) + c.visitors);
  for (const c of cells) c.share = c.visitors / columns.get(c.arrival)!;
  return cells;
}
