// Decision lines of requests sent to the origin, as the edge writes them (originMs, originStatus), and
// journal write lines of a room in auto, for the report's origin tests.
import { admittedLine } from '../control/lines.js';

/** Admission `i` in `room` at `ms`, its request answered by the origin after `originMs` with `originStatus` (any value: garbage too). */
export function originLine(
  ms: number,
  i: number,
  room: string | null,
  originMs: unknown,
  originStatus: unknown,
): string {
  const o = JSON.parse(admittedLine(ms, i, 'LHR', room ?? 'x')) as Record<string, unknown>;
  // A request no room decided: a bypass rule's line, with no room.
  if (room === null)
    Object.assign(o, { room: null, rule: 'webhooks', reason: 'rule_bypass', newTid: null, newDec: null });
  return JSON.stringify({ ...o, originMs, originStatus });
}

/** `n` requests at `ms` + i*100 ms, each taking the time `times(i)` with status `status(i)`, from admission `from` on. */
export function minuteOfRequests(
  ms: number,
  n: number,
  from: number,
  times: (i: number) => number,
  status: (i: number) => number | string = () => 200,
  room = 'shop',
): string[] {
  return Array.from({ length: n }, (_, i) => originLine(ms + i * 100, from + i, room, times(i), status(i)));
}

/** A journal write line whose rooms carry `rooms` (an auto room's fields as the controller writes them). */
export function journalWrite(ms: number, rooms: Record<string, Record<string, string>>): string {
  return JSON.stringify({
    ts: new Date(ms).toISOString(),
    kind: 'write',
    ok: true,
    status: null,
    calls: 0,
    keys: Object.keys(rooms).map((r) => `room.${r}.live`),
    rooms,
    remaining: null,
    error: null,
  });
}

/** An auto room's fields on a write line (control/store/journal-targets.ts paceFields). */
export const autoFields = (rate: number, state: string, latencyMs = 800, percentile = 90, errorPercent = 1) => ({
  target_mode: 'auto',
  pace_rate: String(rate),
  pace_state: state,
  origin_latency_ms: String(latencyMs),
  origin_latency_percentile: String(percentile),
  origin_error_percent: String(errorPercent),
});
