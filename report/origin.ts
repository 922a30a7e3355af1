// The origin as the decision log measures it, per room and minute: the requests the room sent to the
// origin (lines with `originStatus`), the time each took to the origin's headers (`originMs`) in a
// histogram, and the errors among them (a failure, 429, or a status of 500 or above). As the autopilot
// reads it (control/model/origin-health.ts): the origin is every room's, so a request no room decided
// (a bypass rule) counts for each room, and a refused or failed connection is an error with no time.
// A line whose origin fields cannot be read is left out of these figures and counted; the rest of the
// line still counts everywhere else.
import type { DecisionLine } from '../control/types.js';
import { TimeHistogram } from './time-histogram.js';

export interface OriginMinuteFigures {
  /** Requests sent to the origin (lines with an originStatus). */
  requests: number;
  /** Of them, errors: no answer (timeout, refused, failed), 429, or 500 and above. */
  errors: number;
  /** Their times to the origin's headers, ms, answered or timed out (report/time-histogram.ts). */
  times: TimeHistogram;
}

export interface OriginLogFigures {
  /** Room -> minute start (ms) -> figures; a room appears once one of its lines has an originStatus. */
  rooms: Map<string, Map<number, OriginMinuteFigures>>;
  /** Lines whose originMs or originStatus was there but unreadable: left out of the origin's figures. */
  unreadable: number;
}

/** An error for the objective: the origin did not answer, refused with 429, or failed with 500 and above. */
export function isOriginError(status: NonNullable<DecisionLine['originStatus']>): boolean {
  return typeof status === 'string' || status === 429 || status >= 500;
}

/** The raw line names an origin field (whatever its value): a field the parser left out was unreadable. */
const names = (text: string, field: 'originMs' | 'originStatus'): boolean => text.includes(`"${field}":`);
const WORDS = new Set(['timeout', 'refused', 'failed']);
const goodStatus = (s: unknown): boolean =>
  typeof s === 'string' ? WORDS.has(s) : Number.isInteger(s) && (s as number) >= 100 && (s as number) <= 599;
const goodMs = (ms: unknown): boolean => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms < 86_400_000;

const emptyMinute = (): OriginMinuteFigures => ({ requests: 0, errors: 0, times: new TimeHistogram() });

export class OriginTally {
  private readonly rooms = new Map<string, Map<number, OriginMinuteFigures>>();
  /** Minutes of the requests no room decided: every room's. */
  private readonly unrouted = new Map<number, OriginMinuteFigures>();
  private unreadable = 0;

  /** One decision line (the line's text beside it, to tell an unreadable field from none). */
  add(line: DecisionLine, text: string): void {
    const status = line.originStatus;
    const ms = line.originMs;
    const unreadable =
      (status === undefined ? names(text, 'originStatus') : !goodStatus(status)) ||
      (ms === undefined ? names(text, 'originMs') : !goodMs(ms));
    if (unreadable) {
      this.unreadable++;
      return;
    }
    if (status === undefined) return;
    let byMinute = this.unrouted;
    if (line.room !== null) {
      byMinute = this.rooms.get(line.room) ?? new Map();
      this.rooms.set(line.room, byMinute);
    }
    const minute = Math.floor(line.tsMs / 60_000) * 60_000;
    let m = byMinute.get(minute);
    if (m === undefined) byMinute.set(minute, (m = emptyMinute()));
    m.requests++;
    if (isOriginError(status)) m.errors++;
    if (ms !== undefined && status !== 'refused' && status !== 'failed') m.times.add(ms);
  }

  /** The figures of `rooms` (the log's), each with the requests no room decided added to its own. */
  finish(rooms: Iterable<string>): OriginLogFigures {
    const out = new Map<string, Map<number, OriginMinuteFigures>>();
    for (const room of rooms) {
      const own = this.rooms.get(room);
      if (own === undefined && this.unrouted.size === 0) continue;
      const byMinute = new Map<number, OriginMinuteFigures>();
      for (const source of [own ?? new Map<number, OriginMinuteFigures>(), this.unrouted])
        for (const [minute, f] of source) {
          const m = byMinute.get(minute) ?? emptyMinute();
          m.requests += f.requests;
          m.errors += f.errors;
          m.times.merge(f.times);
          byMinute.set(minute, m);
        }
      out.set(room, byMinute);
    }
    return { rooms: out, unreadable: this.unreadable };
  }
}
