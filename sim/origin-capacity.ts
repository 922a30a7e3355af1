// The origin's real capacity in new visitors a minute, which only the simulator knows: the highest
// steady admission rate at which the origin keeps its objective, found by bisection with the origin
// model alone, fed the requests that admitted visitors make (the population's own browsing: a page at
// admission, then one every think time until the session ends). A rate keeps the objective when at
// least 90% of the judged minutes of a steady run (minutes 10 to 70, once sessions have reached their
// steady mix) keep it, each minute judged as the controller judges one: the time to headers at the
// objective's percentile and the error share of the requests sent in it.
import type { OriginObjective } from '../control/types.js';
import { quantile } from '../lib/quantiles.js';
import { createRandom } from '../lib/random.js';
import { sessionMs, thinkMs } from './arrivals.js';
import { isOriginError, Origin, type OriginEvent, type OriginSpec } from './origin.js';
import type { Behaviour } from './visitors.js';

const MINUTE = 60_000;
/** A steady run: 70 minutes, judged from minute 10; at least this share of its minutes must keep the objective. */
const RUN_MS = 70 * MINUTE;
const JUDGED_FROM_MS = 10 * MINUTE;
const KEPT_SHARE = 0.9;

/** Request times of visitors admitted at `perMinute` (a Poisson process) over `untilMs`, browsing as `behaviour` says; sorted. */
export function requestTimes(perMinute: number, untilMs: number, behaviour: Behaviour, seed: string): number[] {
  const rng = createRandom(seed);
  const times: number[] = [];
  if (perMinute <= 0) return times;
  for (let t = rng.exponential(MINUTE / perMinute); t < untilMs; t += rng.exponential(MINUTE / perMinute)) {
    times.push(t);
    const end = t + sessionMs(rng, behaviour);
    for (let next = t + thinkMs(rng, behaviour); next <= end && next < untilMs; next += thinkMs(rng, behaviour))
      times.push(next);
  }
  return times.sort((a, b) => a - b);
}

/** One minute of the origin: its requests' time to headers at `percentile` (ms; null without one) and their error share. */
export interface OriginMinuteFigure {
  requests: number;
  latencyMs: number | null;
  errorShare: number | null;
}

/** Per minute of requests sent at `atMs`: the time at the percentile and the error share. */
export function originMinutes(
  requests: readonly { atMs: number; ms: number; error: boolean }[],
  minutes: number,
  percentile: number,
): OriginMinuteFigure[] {
  const ms: number[][] = Array.from({ length: minutes }, () => []);
  const errors = new Array<number>(minutes).fill(0);
  for (const r of requests) {
    const m = Math.floor(r.atMs / MINUTE);
    if (m < 0 || m >= minutes) continue;
    ms[m]!.push(r.ms);
    if (r.error) errors[m]!++;
  }
  return ms.map((list, m) => {
    list.sort((a, b) => a - b);
    return list.length === 0
      ? { requests: 0, latencyMs: null, errorShare: null }
      : { requests: list.length, latencyMs: quantile(list, percentile / 100), errorShare: errors[m]! / list.length };
  });
}

/** Whether a minute keeps the objective: a minute without a request does. */
export function keeps(minute: OriginMinuteFigure, objective: OriginObjective): boolean {
  return (
    minute.requests === 0 || (minute.latencyMs! <= objective.latencyMs && minute.errorShare! <= objective.errorShare)
  );
}

/** The share of the minutes from `fromMs` on in which the origin keeps `objective` under these requests. */
export function keptShare(
  spec: OriginSpec,
  times: readonly number[],
  objective: OriginObjective,
  fromMs: number,
  seed: string,
): number {
  const origin = new Origin(spec, createRandom(seed));
  const answered = times.map((atMs) => {
    const answer = origin.request(atMs);
    return { atMs, ms: answer.ms, error: isOriginError(answer.status) };
  });
  const minutes = originMinutes(answered, Math.ceil(RUN_MS / MINUTE), objective.percentile).slice(fromMs / MINUTE);
  return minutes.filter((m) => keeps(m, objective)).length / minutes.length;
}

/** The origin with one event in force for the whole run (its span dropped), or none. */
export function steadyOrigin(spec: OriginSpec, event: OriginEvent | null): OriginSpec {
  return { ...spec, events: event === null ? [] : [{ ...event, fromMs: 0, untilMs: undefined } as OriginEvent] };
}

/**
 * The highest whole rate of new visitors a minute that keeps the objective, by bisection between 0 and
 * the rate at which every worker would be busy with first pages alone; 0 when even one a minute breaks it.
 */
export function steadyCapacity(spec: OriginSpec, behaviour: Behaviour, objective: OriginObjective): number {
  const seed = 'origin-capacity';
  const ok = (rate: number): boolean =>
    keptShare(spec, requestTimes(rate, RUN_MS, behaviour, seed), objective, JUDGED_FROM_MS, seed) >= KEPT_SHARE;
  let low = 0;
  let high = Math.ceil((spec.workers * MINUTE) / spec.serviceMs);
  if (!ok(1)) return 0;
  low = 1;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (ok(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/** A span of the run with one capacity: from `fromMs` until the next span. */
export interface CapacitySpan {
  fromMs: number;
  perMinute: number;
  /** What is in force: "the origin as built", or the event's kind. */
  label: string;
}

const cache = new Map<string, number>();

/** The capacity the origin has over the run, span by span: its own, and each event's while it lasts. */
export function capacitySpans(spec: OriginSpec, behaviour: Behaviour, objective: OriginObjective): CapacitySpan[] {
  const of = (event: OriginEvent | null): number => {
    const steady = steadyOrigin(spec, event);
    const key = JSON.stringify([steady, behaviour.sessionSecondsMedian, behaviour.thinkSeconds, objective]);
    if (!cache.has(key)) cache.set(key, steadyCapacity(steady, behaviour, objective));
    return cache.get(key)!;
  };
  const base = of(null);
  const bounds = [...new Set(spec.events.flatMap((e) => [e.fromMs, ...(e.untilMs === undefined ? [] : [e.untilMs])]))];
  const spans: CapacitySpan[] = [{ fromMs: 0, perMinute: base, label: 'the origin as built' }];
  for (const at of bounds.sort((a, b) => a - b)) {
    const live = spec.events.filter((e) => at >= e.fromMs && at < (e.untilMs ?? Number.POSITIVE_INFINITY));
    if (live.length > 1) throw new Error('origin events overlap: the simulator measures one at a time');
    const event = live[0] ?? null;
    spans.push({
      fromMs: at,
      perMinute: event === null ? base : of(event),
      label: event?.kind ?? 'the origin as built',
    });
  }
  return spans;
}

/** The capacity in force at `ms`. */
export function capacityAt(spans: readonly CapacitySpan[], ms: number): number {
  let value = spans[0]!.perMinute;
  for (const s of spans) if (s.fromMs <= ms) value = s.perMinute;
  return value;
}
