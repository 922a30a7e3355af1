// The proof of work's figures (docs/bots.md, "What it costs"): who got the admissions, how long honest
// visitors waited, what the farm solved, and what solving cost honest devices.
import type { Actor } from './actor.js';
import type { RunResult } from './run-types.js';
import { survivalQuantiles } from './stats.js';
import { farmGroups, honestDevices, type Group } from './visitors.js';

export interface BotGroupFigures {
  group: Group;
  identities: number;
  admitted: number;
  /** This group's share of all admissions. */
  share: number | null;
  /** How its draws were judged while a proof was asked (valid, failed, skipped, missing), and those that won. */
  proof: Record<string, number>;
  won: Record<string, number>;
}

export interface BotFigures {
  groups: BotGroupFigures[];
  /** Honest visitors (every device): admitted, and their wait from the first waiting page (Kaplan-Meier, s). */
  honest: { visitors: number; admitted: number; waitP50: number | null; waitP90: number | null };
  farm: {
    identities: number;
    cores: number;
    coreRate: number;
    /** Solutions completed in time, and a second over the span the farm had work. */
    solutions: number;
    solutionsPerSecond: number | null;
    /** Share of the farm's draws that came with a valid solution (the rest: `none` or no header). */
    drawsSolved: number | null;
    /** Puzzles it gave up (not ready when due). */
    givenUp: number;
  };
  /** CPU-seconds of solving per admitted honest visitor, by device (their battery). */
  cpu: { group: Group; admitted: number; p50: number | null; p90: number | null; mean: number | null }[];
  /** Mean admissions a minute over the judged minutes, and the target. */
  judgedMean: number | null;
  target: number | null;
}

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function waitSample(a: Actor, endMs: number): { time: number; admitted: boolean } | null {
  if (a.queuedMs === null) return null;
  if (a.admittedMs !== null) return { time: (a.admittedMs - a.queuedMs) / 1000, admitted: true };
  return { time: ((a.abandonedMs ?? endMs) - a.queuedMs) / 1000, admitted: false };
}

export function botFigures(result: RunResult, judgedMean: number | null): BotFigures | null {
  if (result.bots === undefined) return null;
  const { farm, checks } = result.bots;
  const actors = result.trace.actors;
  const admittedAll = actors.filter((a) => a.admittedMs !== null).length;
  const present = [...honestDevices, ...farmGroups].filter((g) => actors.some((a) => a.group === g));
  const groups = present.map((group) => {
    const mine = actors.filter((a) => a.group === group);
    const admitted = mine.filter((a) => a.admittedMs !== null).length;
    return {
      group,
      identities: mine.length,
      admitted,
      share: admittedAll === 0 ? null : admitted / admittedAll,
      proof: checks[group] ?? {},
      won: result.bots!.wins[group] ?? {},
    };
  });
  const honest = actors.filter((a) => honestDevices.includes(a.group));
  const samples = honest.map((a) => waitSample(a, result.scenario.durationMs)).filter((s) => s !== null);
  const [waitP50, waitP90] = survivalQuantiles(samples, [0.5, 0.9]);
  const farmDraws = farmGroups
    .map((g) => checks[g] ?? {})
    .reduce((n, c) => n + Object.values(c).reduce((x, y) => x + y, 0), 0);
  const farmValid = farmGroups.reduce((n, g) => n + (checks[g]?.valid ?? 0), 0);
  const spanS = farm.firstJobMs === null || farm.lastJobMs === null ? 0 : (farm.lastJobMs - farm.firstJobMs) / 1000;
  const cpu = (['phone', 'laptop'] as const).map((group) => {
    const spent = actors
      .filter((a) => a.group === group && a.admittedMs !== null)
      .map((a) => a.solveSeconds ?? 0)
      .sort((x, y) => x - y);
    return {
      group,
      admitted: spent.length,
      p50: quantile(spent, 0.5),
      p90: quantile(spent, 0.9),
      mean: spent.length === 0 ? null : spent.reduce((x, y) => x + y, 0) / spent.length,
    };
  });
  const target = Number(result.scenario.settings.new_users_per_minute);
  return {
    groups,
    honest: {
      visitors: honest.length,
      admitted: honest.filter((a) => a.admittedMs !== null).length,
      waitP50: waitP50 ?? null,
      waitP90: waitP90 ?? null,
    },
    farm: {
      identities: actors.filter((a) => farmGroups.includes(a.group)).length,
      cores: farm.cores,
      coreRate: farm.coreRate,
      solutions: farm.solutions,
      solutionsPerSecond: spanS > 0 ? farm.solutions / spanS : null,
      drawsSolved: farmDraws === 0 ? null : farmValid / farmDraws,
      givenUp: farm.givenUp,
    },
    cpu,
    judgedMean,
    target: Number.isFinite(target) ? target : null,
  };
}
