// A room's origin minute by minute, as the page shows it: the requests sent to it, their time to
// headers at the objective's percentile (90 unless the journal says otherwise), the errors' share,
// against the objective when the journal says the room was in auto, beside the rate the autopilot
// chose. A minute holds the objective when both its time and its error share are within it.
import { paceAt, percentileAt, type JournalObjective, type PaceEntry } from './journal-pace.js';
import type { OriginMinuteFigures } from './origin.js';

export interface OriginRow {
  startMs: number;
  /** Requests sent to the origin in the minute. */
  requests: number;
  /** Their time to headers at `percentile`, ms; null when none was timed. */
  latencyMs: number | null;
  percentile: number;
  errors: number;
  /** errors / requests, 0..1; null without a request. */
  errorShare: number | null;
  /** The objective in force while the room was in auto (journal); null otherwise. */
  objective: JournalObjective | null;
  /** New visitors a minute the autopilot chose (journal pace_rate), and its state; null when not said. */
  rate: number | null;
  state: string | null;
  /** Within the objective: null without an objective or a request. */
  held: boolean | null;
}

export interface OriginRoomFigures {
  minutes: OriginRow[];
  totals: {
    requests: number;
    errors: number;
    /** Minutes judged against an objective, and of them those that held it. */
    judged: number;
    held: number;
  };
  /** Some minute had the room in auto, by the journal. */
  auto: boolean;
}

/** One minute against the objective: its time at the percentile and its error share within it. */
function heldIn(row: Omit<OriginRow, 'held'>): boolean | null {
  if (row.objective === null || row.requests === 0) return null;
  const timeOk = row.latencyMs === null || row.latencyMs <= row.objective.latencyMs;
  return timeOk && (row.errorShare ?? 0) <= row.objective.errorShare;
}

/** The room's origin rows over `span` (minute starts); null when neither the log nor the journal says anything of it. */
export function originFigures(
  byMinute: Map<number, OriginMinuteFigures> | undefined,
  pace: readonly PaceEntry[] | undefined,
  span: readonly number[],
): OriginRoomFigures | null {
  if (byMinute === undefined && (pace === undefined || pace.length === 0)) return null;
  const minutes = span.map((startMs): OriginRow => {
    const m = byMinute?.get(startMs);
    const inForce = paceAt(pace, startMs);
    const percentile = percentileAt(pace, startMs);
    const requests = m?.requests ?? 0;
    const time = m?.times.quantile(percentile / 100) ?? null;
    const row = {
      startMs,
      requests,
      latencyMs: time === null ? null : Math.round(time),
      percentile,
      errors: m?.errors ?? 0,
      errorShare: requests === 0 ? null : (m?.errors ?? 0) / requests,
      objective: inForce?.auto ? inForce.objective : null,
      rate: inForce?.auto ? inForce.rate : null,
      state: inForce?.auto ? inForce.state : null,
    };
    return { ...row, held: heldIn(row) };
  });
  const sum = (f: (r: OriginRow) => number): number => minutes.reduce((s, r) => s + f(r), 0);
  return {
    minutes,
    totals: {
      requests: sum((r) => r.requests),
      errors: sum((r) => r.errors),
      judged: sum((r) => (r.held === null ? 0 : 1)),
      held: sum((r) => (r.held === true ? 1 : 0)),
    },
    auto: minutes.some((r) => r.objective !== null || r.rate !== null),
  };
}
