// A run with an origin behind the room (origin.ts): the origin the room's forwarded requests go to,
// what it answered each, and the same crowd under a clairvoyant operator for the comparison, who
// sets new_users_per_minute to the origin's real capacity and changes it at each event.
import type { OriginObjective, OriginStatus } from '../control/types.js';
import { capacitySpans, type CapacitySpan } from './origin-capacity.js';
import { Origin, type OriginAnswer } from './origin.js';
import type { Random } from '../lib/random.js';
import type { Scenario } from './scenario-types.js';

/** One request the room forwarded, as the origin answered it. */
export interface ForwardedRequest {
  /** When the room sent it, ms since the run began. */
  atMs: number;
  /** Time to headers (to the timeout, when none came), ms. */
  ms: number;
  status: OriginStatus;
}

/** What a run with an origin adds to its result. */
export interface OriginRun {
  objective: OriginObjective;
  /** Every request the room forwarded, in the order sent. */
  requests: ForwardedRequest[];
  /** The origin's real capacity in new visitors a minute, span by span (origin-capacity.ts). */
  spans: CapacitySpan[];
  /** The same crowd, same seed, under a clairvoyant operator: its admissions and what its origin answered; null when not run. */
  clairvoyant: { admissionsMs: number[]; requests: ForwardedRequest[] } | null;
}

/** The objective as the room's settings state it, with the settings' defaults (800 ms at the 90th percentile, 1% errors). */
export function objectiveOf(settings: Readonly<Record<string, string>>): OriginObjective {
  return {
    latencyMs: Number(settings.origin_latency_ms ?? 800),
    percentile: Number(settings.origin_latency_percentile ?? 90),
    errorShare: Number(settings.origin_error_percent ?? 1) / 100,
  };
}

/** The origin of a scenario, and the log of what it answered: `answer` is the room's call for each request it forwards. */
export function originFor(
  scenario: Scenario,
  rng: Random,
): { answer: (nowMs: number) => OriginAnswer; requests: ForwardedRequest[] } | null {
  if (scenario.origin === undefined) return null;
  const origin = new Origin(scenario.origin, rng);
  const requests: ForwardedRequest[] = [];
  return {
    requests,
    answer: (atMs) => {
      const a = origin.request(atMs);
      requests.push({ atMs, ms: a.ms, status: a.status });
      return a;
    },
  };
}

/** The capacity spans of a scenario's origin, for its crowd's browsing and its room's objective. */
export function spansOf(scenario: Scenario): CapacitySpan[] {
  return capacitySpans(scenario.origin!, scenario.behaviour, objectiveOf(scenario.settings));
}

/** The settings the autopilot reads and a manual room refuses beside a low target (a floor above it). */
const AUTO_KEYS = ['target_mode', 'auto_floor_per_minute'];

/**
 * The scenario as a clairvoyant operator runs it: manual, new_users_per_minute at the capacity in
 * force, changed at each event's start and end. A capacity of 0 (an error storm no rate keeps within
 * the objective) is set as 1 a minute, the least the setting takes that admits anyone at all.
 */
export function clairvoyantOf(scenario: Scenario, spans: readonly CapacitySpan[]): Scenario {
  const target = (perMinute: number): string => String(Math.max(1, perMinute));
  const settings = Object.fromEntries(Object.entries(scenario.settings).filter(([k]) => !AUTO_KEYS.includes(k)));
  settings.new_users_per_minute = target(spans[0]!.perMinute);
  // The same name: the run's random streams are named after it, so the crowd and the origin's draws are the same.
  return {
    ...scenario,
    settings,
    changes: [
      ...scenario.changes.filter((c) => c.key !== 'new_users_per_minute'),
      ...spans.slice(1).map((s) => ({ atMs: s.fromMs, key: 'new_users_per_minute', value: target(s.perMinute) })),
    ].sort((a, b) => a.atMs - b.atMs),
  };
}
