// What the aggregator (report/aggregate.ts) fills from the decision log and the report (report/figures.ts)
// reads: per-minute figures by room and by POP, and the log's totals.
import { WaitHistogram } from './histogram.js';
import type { LaneAdmissions } from './lanes.js';
import type { OriginLogFigures } from './origin.js';
import type { VariantCounts } from './variants.js';

export interface MinuteFigures {
  /** Admissions (distinct allow tokens a draw, the open room or the cursor gave). */
  admissions: number;
  /** Of them, straight in: a newcomer the open room let in without a wait. */
  straightIn: number;
  /**
   * Visitors waiting: the most holding a ticket for one draw in the minute (each waiting visitor holds
   * one ticket a window, so a window's tickets are its crowd), plus the pre-queue's distinct tickets seen
   * in it; each ticket scaled by its weight. Filled in by finish().
   */
  waiting: number;
  /** Tickets drawn, scaled. */
  draws: number;
  /** Tickets last seen in the minute that stopped coming before being drawn, scaled. */
  leavers: number;
  /** Waits lived by the minute's admissions, seconds. */
  waits: WaitHistogram;
  lines: number;
}

export interface LogFigures {
  firstMs: number | null;
  lastMs: number | null;
  lines: {
    read: number;
    used: number;
    foreign: number;
    /** Preview links' lines: pages an operator looked at, no visitor's (docs/operating.md). */
    previews: number;
    bad: number;
    otherRooms: number;
    noRoom: number;
    badWhy: Record<string, number>;
  };
  /** True when some line carried a weight (`w`): the log was sampled. */
  sampled: boolean;
  /** Room -> minute start (ms) -> figures. */
  rooms: Map<string, Map<number, MinuteFigures>>;
  /** POP -> minute start -> figures (every room shown). */
  pops: Map<string, Map<number, MinuteFigures>>;
  /** Room -> window start (s) -> mean chance the draws used. */
  chances: Map<string, Map<number, number>>;
  /**
   * Room -> language tag -> waiting visitors answered in it (each counted once, in the language of the
   * first answer of theirs that names one: the line's `lang`), scaled by the sample's weight.
   */
  languages: Map<string, Map<string, number>>;
  /** Room -> variant of the waiting page -> its visitors, admissions, leavers and waits (report/variants.ts). */
  variants: Map<string, Map<string, VariantCounts>>;
  /** Admissions whose wait could not be measured: their chain began before the log did. */
  waitsUnknown: number;
  /** Room -> minute -> priority lane -> admissions (report/lanes.ts). */
  lanes: LaneAdmissions;
  /** The origin's requests, times to headers and errors, per room and minute (report/origin.ts). */
  origin: OriginLogFigures;
}

export const emptyMinute = (): MinuteFigures => ({
  admissions: 0,
  straightIn: 0,
  waiting: 0,
  draws: 0,
  leavers: 0,
  waits: new WaitHistogram(),
  lines: 0,
});

/** The figures of `key`'s minute, made empty the first time it is asked for. */
export function minuteOf(map: Map<string, Map<number, MinuteFigures>>, key: string, minute: number): MinuteFigures {
  let byMinute = map.get(key);
  if (byMinute === undefined) map.set(key, (byMinute = new Map()));
  let m = byMinute.get(minute);
  if (m === undefined) byMinute.set(minute, (m = emptyMinute()));
  return m;
}
