// The shape of a run's figures: what the report states and the tests check (computed in figures.ts).
import type { LaneFigures } from './lane-figures.js';
import type { BotFigures } from './bot-figures.js';
import type { ControlFigures } from './control-figures.js';
import type { EventFigures } from './event-figures.js';
import type { OriginFigures } from './origin-figures.js';
import type { CrossRoomFigures } from './cross-room.js';
import type { Group } from './visitors.js';
import type { Interval } from './stats.js';

export interface Percentiles {
  p25: number | null;
  p50: number | null;
  p75: number | null;
}

export interface Smoothness {
  /** Admissions in the busiest second, and which second of the run it was. */
  peak: number;
  peakSecond: number;
  /** Where in its window the busiest second fell (seconds after the boundary). */
  peakOffsetInWindow: number;
  /** Mean admissions per second from the first admission to the last. */
  mean: number;
  peakToMean: number;
  /**
   * The burstiest second against its own window: max over seconds of count / (mean per second of the
   * window it is in), over windows averaging at least 5 (below that, one visitor is a "burst").
   * Unlike peak/mean this is not inflated by a crowd that simply decays (the flash crowd), nor by a
   * setting change (windows start on the change).
   */
  peakToLocalMean: number | null;
  burstiestSecond: number | null;
  /**
   * Share of admissions in the first tenth of a window. With returns jittered over the whole window this
   * is about 0.1; if visitors came back on the boundary it would approach 1.
   */
  boundaryShare: number;
  boundaryExpected: number;
}

export interface WaitFigures {
  /** allow_percentage in force when these visitors saw their first waiting page; null: set by the controller. */
  allowPercentage: number | null;
  /** Percentiles of the wait from the first waiting page to admission (Kaplan-Meier: leavers are censored). */
  observed: Percentiles;
  /** Mean of what the waiting pages showed at the first visit. */
  predicted: Percentiles;
  /** Share of visitors admitted within their own predicted 25th/50th/75th percentile (ideal: .25/.5/.75). */
  coverage: Percentiles;
  /** Relative error of the observed median against the predicted one. */
  medianError: number | null;
  visitors: number;
}

export interface PhaseFigures {
  label: string;
  allowPercentage: string;
  admissionsPerSecond: number;
  drawWinShare: number | null;
}

export interface GroupFigures {
  group: Group;
  actors: number;
  admittedInHorizon: number;
  /** Chance of admission within the horizon (windows after the arrival window). */
  chance: Interval | null;
  /** That chance over an honest visitor's, with a 95% interval. */
  ratio: Interval | null;
  /** The same within a horizon in seconds: shows the head start a refresher gets from skipping the jitter. */
  chanceBySeconds: Interval | null;
  ratioBySeconds: Interval | null;
  /** Largest number of distinct tokens one identity had drawn in one window. */
  maxDrawsPerWindow: number;
  /**
   * Most draws any identity of the group got beyond what an honest visitor gets in the same time: an
   * honest visitor who arrived in window a has had at most L - a - 1 draws by window L. The room
   * promises 0 (tokens are one per identity and boundary, and each draws once).
   */
  maxExtraDraws: number;
  meanDraws: number;
  /** friend only: how many handed-over tokens reached the origin. */
  handoverAdmitted: number | null;
}

export interface ScenarioFigures {
  name: string;
  title: string;
  summary: string;
  seed: string;
  settings: Record<string, string>;
  changes: { atMs: number; key: string; value: string }[];
  visitors: number;
  actors: number;
  admitted: number;
  abandoned: number;
  stillWaiting: number;
  decisions: number;
  elapsedMs: number;
  drawsWon: number;
  drawsLost: number;
  renewals: number;
  reasons: Record<string, number>;
  smoothness: Smoothness | null;
  waits: WaitFigures[];
  /** Share of honest visitors' draws that came a window late (the page's return overshot the window). */
  lateDrawShare: number | null;
  /** Share of the draws made in the first tenth of their window, per group (page jitter vs refreshers). */
  drawsNearBoundary: Partial<Record<Group, number>>;
  /** Spearman correlation of arrival order and admission order (1 = first come, first served). */
  spearman: number | null;
  /** The same for visitors who arrived before the first setting change (the on-sale's early birds). */
  spearmanBeforeChange: number | null;
  phases: PhaseFigures[];
  /** Controlled scenarios: the controller's figures. */
  control: ControlFigures | null;
  /** The proof of work's scenarios: the groups' admissions, the farm, honest devices' CPU (bot-figures.ts). */
  bots: BotFigures | null;
  /** Scheduled events and first-come queues (docs/events.md). */
  events: EventFigures | null;
  /** Several rooms on one service: each room's figures and the check between them. */
  rooms: RoomsFigures | null;
  /** An origin behind the room (origin-figures.ts): its health and capacity against the admissions. */
  origin: OriginFigures | null;
  /** Priority lanes (lane-figures.ts): each lane's share of the admissions by minute, and its waits. */
  lanes: LaneFigures | null;
  groups: GroupFigures[];
  horizonWindows: number | null;
  /** What the groups' chances are of, in words, e.g. "within 7 windows after the arrival window". */
  compareLabel: string | null;
  series: {
    /** Admissions in each second of the run. */
    admissionsPerSecond: number[];
    /**
     * Share of all admissions by second within the window (index 0 = the boundary second). Flat means
     * no burst at boundaries; the room's due offsets leave the last seconds of a window empty on purpose.
     */
    windowProfile: number[];
    /** Arrivals per second, for the same chart. */
    arrivalsPerSecond: number[];
    /**
     * Admitted visitors by arrival bucket and wait bucket (both in seconds, bucket start; the last wait
     * bucket holds all longer waits), with each cell's share of its arrival bucket.
     */
    heatmap: { arrival: number; waitBucket: number; visitors: number; share: number }[];
    heatmapBucketSeconds: number;
    heatmapArrivalSeconds: number;
    /** Wait histogram (seconds, bucket start; the last bucket holds all longer waits). */
    waitHistogram: { waitBucket: number; waitBucketEnd: number; visitors: number }[];
    waitHistogramBucketSeconds: number;
  };
}

// Several rooms on one service (rooms-figures.ts computes them).

export interface RoomFigures {
  id: string;
  target: number | null;
  figures: ScenarioFigures;
}

/** Before the event's start, room by room: the countdown answers and the admissions. */
export interface EventEffect {
  /** The room with the event, and its start (ms since the run began). */
  room: string;
  startMs: number;
  admittedBefore: number;
  countdownAnswers: number;
  others: { room: string; admittedBefore: number; countdownAnswers: number }[];
}

export interface RoomsFigures {
  rooms: RoomFigures[];
  event: EventEffect | null;
  crossRoom: CrossRoomFigures;
  routing: string[];
}
