// The priority lanes' figures (docs/lanes.md): each lane's share of the admissions minute by minute
// against its setting, with how many of it waited, and each lane's waits.
import type { RunResult } from './run-types.js';
import { GENERAL_LANE, parseConfig } from '../src/core/settings/index.js';
import { MINUTE } from './arrivals.js';

export interface LaneMinute {
  minute: number;
  admissions: number;
  /** Admissions of each lane this minute, by lane id (the general lane as `general`). */
  byLane: Record<string, number>;
  /** Visitors of each lane waiting at the minute's start. */
  waiting: Record<string, number>;
}

export interface LaneWaits {
  lane: string;
  /** Its share of the room's admissions (setting), percent. */
  share: number;
  visitors: number;
  admitted: number;
  gaveUp: number;
  /** Waits of the admitted, from their first waiting page, seconds: median and 90th percentile. */
  waitP50: number | null;
  waitP90: number | null;
}

export interface LaneFigures {
  /** The room declares the lanes (false: a room without lanes whose visitors bring lane invitations). */
  declared: boolean;
  lanes: LaneWaits[];
  minutes: LaneMinute[];
}

const quantile = (sorted: readonly number[], q: number): number | null =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Null for a scenario whose room declares no lanes. */
export function laneFigures(result: RunResult): LaneFigures | null {
  const { config } = parseConfig((k) => result.scenario.settings[k] ?? null);
  const actors = result.trace.actors;
  // A room without lanes whose visitors bring lane invitations (the comparison run): counted by the
  // lane their invitation named, each at no share.
  const named = [...new Set(actors.flatMap((a) => (a.lane === undefined ? [] : [a.lane])))];
  if (config.lanes.length === 0 && named.length === 0) return null;
  const declared = config.lanes.reduce((s, l) => s + l.share, 0);
  const lanes = [
    ...(config.lanes.length > 0
      ? config.lanes.map((l) => ({ id: l.id, share: l.share }))
      : named.map((id) => ({ id, share: 0 }))),
    { id: GENERAL_LANE, share: 100 - declared },
  ];
  const laneOf = (a: (typeof actors)[number]): string => a.lane ?? GENERAL_LANE;
  const minutes: LaneMinute[] = [];
  for (let m = 0; m * MINUTE < result.scenario.durationMs; m++) {
    const from = m * MINUTE;
    const byLane: Record<string, number> = {};
    const waiting: Record<string, number> = {};
    for (const l of lanes) (byLane[l.id] = 0), (waiting[l.id] = 0);
    for (const a of actors) {
      const lane = laneOf(a);
      if (a.admittedMs !== null && a.admittedMs >= from && a.admittedMs < from + MINUTE) byLane[lane]!++;
      const left = a.admittedMs ?? a.abandonedMs ?? Number.POSITIVE_INFINITY;
      if (a.queuedMs !== null && a.queuedMs <= from && left > from) waiting[lane]!++;
    }
    minutes.push({ minute: m, admissions: Object.values(byLane).reduce((s, x) => s + x, 0), byLane, waiting });
  }
  return {
    declared: config.lanes.length > 0,
    lanes: lanes.map((l) => {
      const mine = actors.filter((a) => laneOf(a) === l.id);
      const waits = mine
        .filter((a) => a.admittedMs !== null && a.queuedMs !== null)
        .map((a) => (a.admittedMs! - a.queuedMs!) / 1000)
        .sort((x, y) => x - y);
      return {
        lane: l.id,
        share: l.share,
        visitors: mine.length,
        admitted: mine.filter((a) => a.admittedMs !== null).length,
        gaveUp: mine.filter((a) => a.abandonedMs !== null).length,
        waitP50: quantile(waits, 0.5),
        waitP90: quantile(waits, 0.9),
      };
    }),
    minutes,
  };
}
