// The adversary scenarios' comparison: each group's chance of admission within a horizon of windows
// (from its arrival, or from a raise), against honest visitors' over the same horizon, and how many
// draws each group took.
import type { Actor } from './population.js';
import type { RunResult } from './run.js';
import { mean, riskRatio, wilson } from './stats.js';
import { adversaryGroups, type Group } from './visitors.js';
import type { GroupFigures, ScenarioFigures } from './figure-types.js';

function groupFigures(result: RunResult, compare: NonNullable<RunResult['scenario']['compare']>): GroupFigures[] {
  const horizon = compare.windows;
  const d = result.waitPeriodSeconds * 1000;
  const win = (ms: number): number => Math.floor(ms / d);
  const change = result.scenario.changes[0]?.atMs ?? 0;
  // Where each actor's horizon starts; null: not judged (admitted before a raise, or arrived after it).
  const from = (a: Actor): number | null => {
    if (compare.from === 'arrival') return a.arrivalMs;
    if (a.arrivalMs >= change || (a.admittedMs !== null && a.admittedMs < change)) return null;
    return change;
  };
  const inHorizon = (a: Actor): boolean => a.admittedMs !== null && win(a.admittedMs) <= win(from(a)!) + horizon;
  const inSeconds = (a: Actor): boolean => a.admittedMs !== null && a.admittedMs - from(a)! <= horizon * d;
  // Only actors whose whole horizon fits in the run are judged.
  const judged = (a: Actor): boolean => {
    const start = from(a);
    return start !== null && (win(start) + horizon + 1) * d <= result.scenario.durationMs;
  };
  const byGroup = new Map<Group, Actor[]>();
  for (const a of result.trace.actors) {
    if (!judged(a)) continue;
    const list = byGroup.get(a.group) ?? [];
    list.push(a);
    byGroup.set(a.group, list);
  }
  const honest = byGroup.get('honest') ?? [];
  const hWins = honest.filter(inHorizon).length;
  const hWinsSec = honest.filter(inSeconds).length;
  const groups: Group[] = ['honest', ...adversaryGroups, 'holder', 'hoarder'];
  return groups
    .filter((g) => byGroup.has(g))
    .map((group) => {
      const actors = byGroup.get(group)!;
      const wins = actors.filter(inHorizon).length;
      const winsSec = actors.filter(inSeconds).length;
      let maxDraws = 0;
      let maxExtra = Number.NEGATIVE_INFINITY;
      for (const a of actors) {
        const distinct = new Set<string>();
        for (const tokens of a.drawnTokens.values()) {
          maxDraws = Math.max(maxDraws, tokens.size);
          for (const t of tokens) distinct.add(t);
        }
        if (a.drawnTokens.size === 0) continue;
        const lastWindow = Math.max(...a.drawnTokens.keys());
        maxExtra = Math.max(maxExtra, distinct.size - (lastWindow - win(a.arrivalMs) - 1));
      }
      return {
        group,
        actors: actors.length,
        admittedInHorizon: wins,
        chance: wilson(wins, actors.length),
        ratio: riskRatio(wins, actors.length, hWins, honest.length),
        chanceBySeconds: wilson(winsSec, actors.length),
        ratioBySeconds: riskRatio(winsSec, actors.length, hWinsSec, honest.length),
        maxDrawsPerWindow: maxDraws,
        maxExtraDraws: Number.isFinite(maxExtra) ? maxExtra : 0,
        meanDraws: mean(actors.map((a) => a.draws)) ?? 0,
        handoverAdmitted: group === 'friend' ? actors.filter((a) => a.handoverAdmitted === true).length : null,
      };
    });
}

/** The groups' figures, their horizon and what their chances are of, in words; empty outside the adversary runs. */
export function comparisonFigures(
  result: RunResult,
): Pick<ScenarioFigures, 'groups' | 'horizonWindows' | 'compareLabel'> {
  const { compare } = result.scenario;
  return {
    groups: compare === undefined ? [] : groupFigures(result, compare),
    horizonWindows: compare?.windows ?? null,
    compareLabel:
      compare === undefined
        ? null
        : compare.from === 'arrival'
          ? `within ${compare.windows} windows after the arrival window`
          : `in the window of the raise or the ${compare.windows === 1 ? 'next' : `${compare.windows} after it`}`,
  };
}
