// The figures of a controlled scenario: admissions per minute against new_users_per_minute, the
// busiest 10 seconds against what chance alone would give at the target rate, active sessions
// against total_active_users, and each POP against its ceiling.
import { parseConfig } from '../src/core/settings/index.js';
import { chanceFor } from '../src/core/decision/index.js';
import type { ControlTrace } from './control.js';
import type { RunResult } from './run.js';
import {
  activePerSecond,
  type BusiestFigure,
  busiestFigure,
  busiestTen,
  judgedMinutes,
  type MinuteFigure,
  targetAt,
} from './control-minutes.js';
import { EPOCH_MS } from './room.js';

// The judged minutes live in control-minutes.ts; the report and the charts take their shapes from here.
export type { BusiestFigure, MinuteFigure };

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
  busiest: BusiestFigure | null;
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

type Pop = ControlFigures['pops'][number];

/** Admitted visitors active at each second, and the most at once against total_active_users. */
function activeFigure(result: RunResult, seconds: number): { perSecond: number[]; figure: ControlFigures['active'] } {
  const { settings } = result.scenario;
  const sessionMinutes = Number(settings.session_duration ?? 5);
  const perSecond = activePerSecond(result, seconds, sessionMinutes * 60_000);
  const capText = settings.total_active_users;
  const cap = capText === undefined ? null : Number(capText);
  let max = 0;
  let atSecond = 0;
  perSecond.forEach((n, s) => {
    if (n > max) [max, atSecond] = [n, s];
  });
  return { perSecond, figure: { cap, max, atSecond, ratio: cap === null ? null : max / cap, sessionMinutes } };
}

/** Per POP: admissions in every second, their total and the busiest 10 s span. */
function popFigures(result: RunResult, seconds: number): { pops: Pop[]; popCounts: number[][] } {
  const { trace } = result;
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
  return { pops, popCounts };
}

/** The busiest POP's 10 s against pop_admissions_per_second, and the winners it held; null without a ceiling. */
function ceilingFigure(result: RunResult, pops: readonly Pop[]): ControlFigures['ceiling'] {
  const ceilingText = result.scenario.settings.pop_admissions_per_second;
  if (ceilingText === undefined) return null;
  const worstPop = [...pops].sort((a, b) => b.busiest10s - a.busiest10s)[0]!;
  const held = result.trace.actors.filter((a) => a.heldWinner);
  return {
    perSecond: Number(ceilingText),
    worstPop: worstPop.name,
    worst10s: worstPop.busiest10s,
    limit10s: Number(ceilingText) * 10,
    heldWinners: held.length,
    lostWins: held.filter((a) => a.admittedMs === null).length,
  };
}

/**
 * The chance each window drew at, at the largest POP (the first): the operator's changes and the
 * controller's writes as they reached it, read by the room's own parser and draw rule.
 */
function chanceSeries(result: RunResult, control: ControlTrace, seconds: number): { minute: number; pct: number }[] {
  const { scenario } = result;
  const d = result.waitPeriodSeconds;
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
  return chances;
}

export function controlFigures(result: RunResult, admissionsPerSecond: readonly number[]): ControlFigures | null {
  const control = result.control;
  if (control === null) return null;
  const { scenario } = result;
  const seconds = Math.ceil(scenario.durationMs / 1000);
  const target = targetAt(result);
  const active = activeFigure(result, seconds);
  const { minutes, judgedSeconds, queueStart } = judgedMinutes(
    result,
    admissionsPerSecond,
    active.perSecond,
    active.figure.cap,
    target,
  );
  const judged = minutes.filter((m) => m.judged);
  const worst = judged.reduce<number | null>(
    (w, m) => (w === null || Math.abs(m.error!) > Math.abs(w) ? m.error : w),
    null,
  );
  const busiest = busiestFigure(result, admissionsPerSecond, judgedSeconds, target);
  const { pops, popCounts } = popFigures(result, seconds);
  return {
    pops,
    minutes,
    judged: judged.length,
    withinTenPercent: judged.filter((m) => Math.abs(m.error!) <= 0.1).length,
    worstError: worst,
    queueStartSecond: queueStart,
    busiest,
    active: active.figure,
    ceiling: ceilingFigure(result, pops),
    writes: control.writes.length,
    writesPerHour: control.writes.length / (scenario.durationMs / 3_600_000),
    apiPerHour: apiPerHour(control.apiCalls ?? [], scenario.durationMs),
    linesDelivered: control.linesDelivered,
    badLines: control.badLines,
    stoppedAtMs: control.stoppedAtMs,
    series: {
      active: active.perSecond.flatMap((n, s) => (s % 10 === 0 ? [{ second: s, active: n }] : [])),
      popTenSeconds: result.pops.flatMap((p, i) =>
        Array.from({ length: Math.ceil(seconds / 10) }, (_, k) => ({
          second: k * 10,
          pop: p.name,
          admissions: popCounts[i]!.slice(k * 10, k * 10 + 10).reduce((a, b) => a + b, 0),
        })),
      ),
      chances: chanceSeries(result, control, seconds),
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
