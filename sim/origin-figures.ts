// The figures of a run with an origin behind the room: minute by minute, the origin's time to headers
// at the objective's percentile and its error share against the objective, and admissions against
// its real capacity; how long the room took to reach that capacity and to recover from each event;
// and its admissions against a clairvoyant operator's, who set the capacity by hand all along.
import type { OriginObjective } from '../control/types.js';
import type { RunResult } from './run.js';
import type { MinuteFigure } from './control-minutes.js';
import { capacityAt, type CapacitySpan, keeps, originMinutes } from './origin-capacity.js';
import { isOriginError, type OriginEvent, type OriginSpec } from './origin.js';
import type { ForwardedRequest } from './origin-run.js';

const MINUTE = 60_000;
/** Admissions are "at the capacity" in a minute within this share of it, for this many minutes in a row. */
const WITHIN = 0.1;
const IN_A_ROW = 3;

export interface OriginMinuteRow {
  minute: number;
  /** Requests the room forwarded in the minute, the time to headers at the objective's percentile (ms), the error share. */
  requests: number;
  latencyMs: number | null;
  errorShare: number | null;
  /** Both within the objective (a minute without a request is). */
  kept: boolean;
  admissions: number;
  /** The origin's real capacity in force at the minute's start, new visitors a minute. */
  capacity: number;
  /** The rate the controller aimed at, the mean of its ticks in the minute: the autopilot's, else new_users_per_minute. */
  rate: number | null;
  /** Enough waited at every second (a window's share of the capacity) that the room could have admitted the capacity. */
  fillable: boolean;
  /** Fillable and admissions within ±10% of the capacity. */
  atCapacity: boolean;
  /** The clairvoyant operator's admissions in the minute, and whether its origin kept the objective; null when not run. */
  clairvoyantAdmissions: number | null;
  clairvoyantKept: boolean | null;
}

export interface OriginEventFigure {
  kind: OriginEvent['kind'];
  fromMinute: number;
  untilMinute: number | null;
  /** The capacity while it lasts. */
  capacity: number;
  /** Minutes from its start to the first of two minutes in a row within the objective; 0: never out of it. */
  objectiveMinutes: number | null;
  /** Minutes from its start to the first of three in a row at the capacity in force; null: never. */
  admissionsMinutes: number | null;
}

export interface OriginFigures {
  spec: OriginSpec;
  objective: OriginObjective;
  spans: CapacitySpan[];
  minutes: OriginMinuteRow[];
  requests: number;
  errors: number;
  /** Minutes with a forwarded request, and those of them out of the objective. */
  minutesWithRequests: number;
  breachMinutes: number;
  /** Minutes from the start to the first of three in a row at the capacity; null: never. */
  reachMinutes: number | null;
  admitted: number;
  clairvoyantAdmitted: number | null;
  /** The minutes the clairvoyant operator's origin was out of the objective, of those with a request. */
  clairvoyantBreachMinutes: number | null;
  /** admitted / clairvoyantAdmitted. */
  ratio: number | null;
  events: OriginEventFigure[];
  /** The controller's aim every 10 s, for the chart. */
  rates: { second: number; rate: number }[];
}

/** The first minute from `from` that starts `IN_A_ROW` minutes at the capacity, as minutes after `from`; null: none. */
export function firstAtCapacity(rows: readonly Pick<OriginMinuteRow, 'atCapacity'>[], from: number): number | null {
  for (let m = from; m + IN_A_ROW <= rows.length; m++) {
    if (rows.slice(m, m + IN_A_ROW).every((r) => r.atCapacity)) return m - from;
  }
  return null;
}

/** The first minute from `from` that starts two minutes in a row within the objective (or the last minute, kept), as minutes after `from`. */
export function firstKept(rows: readonly Pick<OriginMinuteRow, 'kept'>[], from: number): number | null {
  for (let m = from; m < rows.length; m++) {
    if (rows[m]!.kept && (m + 1 === rows.length || rows[m + 1]!.kept)) return m - from;
  }
  return null;
}

/** Whether `admissions` is within ±10% of `capacity` (exactly 0 for a capacity of 0). */
export const nearCapacity = (admissions: number, capacity: number): boolean =>
  Math.abs(admissions - capacity) <= WITHIN * capacity;

/** The controller's aim, the mean of its ticks in each minute, and every 10 s. */
function aims(result: RunResult, minutes: number): { perMinute: (number | null)[]; rates: OriginFigures['rates'] } {
  const views = result.control?.views ?? [];
  const sums = new Array<number>(minutes).fill(0);
  const counts = new Array<number>(minutes).fill(0);
  const rates: OriginFigures['rates'] = [];
  for (const v of views) {
    if (v.rate === null) continue;
    const m = Math.floor(v.atMs / MINUTE);
    if (m < minutes) {
      sums[m]! += v.rate;
      counts[m]!++;
    }
    if (v.atMs % 10_000 === 0) rates.push({ second: v.atMs / 1000, rate: v.rate });
  }
  return { perMinute: sums.map((s, m) => (counts[m] === 0 ? null : s / counts[m]!)), rates };
}

/** Each minute's origin health against the objective, from the requests a run forwarded. */
function health(requests: readonly ForwardedRequest[], count: number, objective: OriginObjective) {
  const answered = requests.map((r) => ({ atMs: r.atMs, ms: r.ms, error: isOriginError(r.status) }));
  return originMinutes(answered, count, objective.percentile).map((h) => ({ ...h, kept: keeps(h, objective) }));
}

const perMinute = (timesMs: readonly number[], count: number): number[] => {
  const out = new Array<number>(count).fill(0);
  for (const t of timesMs) if (t >= 0 && t < count * MINUTE) out[Math.floor(t / MINUTE)]!++;
  return out;
};

export function originFigures(
  result: RunResult,
  control: readonly MinuteFigure[],
  admissionsPerSecond: readonly number[],
): OriginFigures | null {
  const run = result.origin;
  if (run === undefined || result.scenario.origin === undefined) return null;
  const { objective, spans } = run;
  const count = Math.ceil(result.scenario.durationMs / MINUTE);
  const own = health(run.requests, count, objective);
  const other = run.clairvoyant;
  const otherHealth = other === null ? null : health(other.requests, count, objective);
  const otherAdmissions = other === null ? null : perMinute(other.admissionsMs, count);
  const aim = aims(result, count);
  const d = result.waitPeriodSeconds;
  const minutes: OriginMinuteRow[] = own.map((h, m) => {
    const capacity = capacityAt(spans, m * MINUTE);
    const admissions = admissionsPerSecond.slice(m * 60, m * 60 + 60).reduce((a, b) => a + b, 0);
    const fillable = (control[m]?.fewestWaiting ?? 0) >= (capacity * d) / 60;
    return {
      minute: m,
      ...h,
      admissions,
      capacity,
      rate: aim.perMinute[m] ?? null,
      fillable,
      atCapacity: fillable && nearCapacity(admissions, capacity),
      clairvoyantAdmissions: otherAdmissions?.[m] ?? null,
      clairvoyantKept: otherHealth?.[m]?.kept ?? null,
    };
  });
  const withRequests = minutes.filter((m) => m.requests > 0);
  const admitted = result.trace.admissionsMs.length;
  const clairvoyant = other?.admissionsMs.length ?? null;
  return {
    spec: result.scenario.origin,
    objective,
    spans,
    minutes,
    requests: run.requests.length,
    errors: run.requests.filter((r) => isOriginError(r.status)).length,
    minutesWithRequests: withRequests.length,
    breachMinutes: withRequests.filter((m) => !m.kept).length,
    reachMinutes: firstAtCapacity(minutes, 0),
    admitted,
    clairvoyantAdmitted: clairvoyant,
    clairvoyantBreachMinutes: otherHealth === null ? null : otherHealth.filter((h) => h.requests > 0 && !h.kept).length,
    ratio: clairvoyant === null || clairvoyant === 0 ? null : admitted / clairvoyant,
    events: result.scenario.origin.events.map((e) => {
      const from = Math.floor(e.fromMs / MINUTE);
      return {
        kind: e.kind,
        fromMinute: from,
        untilMinute: e.untilMs === undefined ? null : e.untilMs / MINUTE,
        capacity: capacityAt(spans, e.fromMs),
        objectiveMinutes: firstKept(minutes, from),
        admissionsMinutes: firstAtCapacity(minutes, from),
      };
    }),
    rates: aim.rates,
  };
}
