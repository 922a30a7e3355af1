// The origin's health as the decision lines tell it: every request the edge forwarded carries the
// origin's time to response headers (`originMs`) and its status (`originStatus`). Counted by second
// for the autopilot's law (pace.ts reads the last half minute) and by minute for the dashboard's hour,
// each with a histogram of times in 5% steps, so any percentile over any span costs the same.
import type { DecisionLine, OriginMinute, OriginStatus } from '../types.js';

/** An error for the objective: no answer at all, 429 (the origin shedding load), or 500 and above. */
export function isOriginError(status: OriginStatus): boolean {
  return typeof status === 'string' || status === 429 || status >= 500;
}

/** Histogram bins: bin i holds times in [STEP^(i-1), STEP^i) ms; the last one everything past ~10 minutes. */
const STEP = 1.05;
const BINS = 280;
const binOf = (ms: number): number => Math.min(BINS - 1, ms < 1 ? 0 : 1 + Math.floor(Math.log(ms) / Math.log(STEP)));
/** A bin's upper edge, ms: a percentile reads at most 5% high. */
const upperOf = (bin: number): number => STEP ** bin;

interface Bucket {
  requests: number;
  errors: number;
  /** Times of the requests that were answered or timed out (a refused connection says nothing of the origin's pace). */
  timed: number;
  hist: Uint32Array;
}

const emptyBucket = (): Bucket => ({ requests: 0, errors: 0, timed: 0, hist: new Uint32Array(BINS) });

/** Requests, errors and the time at a percentile over some span. */
export interface HealthReading {
  requests: number;
  /** Share of errors, 0..1; null without a request. */
  errorShare: number | null;
  /** Time to headers at the percentile asked, ms; null without a timed request. */
  latencyMs: number | null;
}

/** How long the seconds are kept: the law reads at most a minute back. */
const SECONDS_KEPT_MS = 120_000;
const MINUTES_KEPT_MS = 3_600_000;

export class OriginHealth {
  private readonly seconds = new Map<number, Bucket>();
  private readonly minutes = new Map<number, Bucket>();

  /** Counts a line that carries the origin's answer; any other line is left alone. */
  observe(line: DecisionLine): void {
    const status = line.originStatus;
    if (status === undefined) return;
    const second = Math.floor(line.tsMs / 1000) * 1000;
    const minute = Math.floor(line.tsMs / 60_000) * 60_000;
    for (const [map, key] of [
      [this.seconds, second],
      [this.minutes, minute],
    ] as const) {
      let b = map.get(key);
      if (b === undefined) map.set(key, (b = emptyBucket()));
      b.requests++;
      if (isOriginError(status)) b.errors++;
      if (line.originMs !== undefined && status !== 'refused' && status !== 'failed') {
        b.timed++;
        b.hist[binOf(line.originMs)]!++;
      }
    }
  }

  /** Requests from `fromMs` (inclusive) to `toMs` (exclusive), whole seconds, at `percentile` (50..99.9). */
  reading(fromMs: number, toMs: number, percentile: number): HealthReading {
    const buckets: Bucket[] = [];
    for (const [s, b] of this.seconds) if (s >= fromMs && s < toMs) buckets.push(b);
    return readingOf(buckets, percentile);
  }

  /** The minute starting at `startMs`, for the dashboard's row. */
  minute(startMs: number, percentile: number): OriginMinute {
    const b = this.minutes.get(startMs);
    return readingOf(b === undefined ? [] : [b], percentile);
  }

  /** Forgets seconds past two minutes and minutes past an hour before `nowMs`. */
  prune(nowMs: number): void {
    for (const s of this.seconds.keys()) if (s < nowMs - SECONDS_KEPT_MS) this.seconds.delete(s);
    for (const m of this.minutes.keys()) if (m < nowMs - MINUTES_KEPT_MS) this.minutes.delete(m);
  }
}

function readingOf(buckets: readonly Bucket[], percentile: number): HealthReading {
  let requests = 0;
  let errors = 0;
  let timed = 0;
  for (const b of buckets) (requests += b.requests), (errors += b.errors), (timed += b.timed);
  if (requests === 0) return { requests: 0, errorShare: null, latencyMs: null };
  const errorShare = errors / requests;
  if (timed === 0) return { requests, errorShare, latencyMs: null };
  // The smallest time with at least `percentile`% of the timed requests at or under it.
  const rank = Math.max(1, Math.ceil((percentile / 100) * timed));
  let seen = 0;
  for (let bin = 0; bin < BINS; bin++) {
    for (const b of buckets) seen += b.hist[bin]!;
    if (seen >= rank) return { requests, errorShare, latencyMs: Math.round(upperOf(bin)) };
  }
  return { requests, errorShare, latencyMs: Math.round(upperOf(BINS - 1)) };
}
