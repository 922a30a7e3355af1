// The autopilot (`target_mode = auto`, docs/control/auto.md): the rate of new visitors a minute the
// plan holds, chosen from the origin's health rather than typed in. Every PACE_TICK_MS it reads the
// last READ_SPAN_MS of forwarded requests (origin-health.ts) and moves the rate. A visitor admitted
// now asks the origin for minutes, so the load a rate brings builds over a visit (VISIT_MS): the law
// compares the origin with the rate admitted over the last visit, which is what made its load.
//
// - an error storm (errors at least STORM_SHARE, and 5 times the objective): nobody new is admitted
//   (those inside keep browsing) until two readings in a row keep the error objective; then it
//   reopens at half the rate it had, and climbs back at twice the usual pace;
// - the objective broken: cut at once to the rate admitted over the last visit times the square
//   root of objective / reading (0.5 to 0.9; errors alone: 0.7); again only once that cut had a visit
//   to reach the origin, or on a reading half as bad again;
// - comfortably within it (the time at most HEALTHY of the objective, errors at most half): raised by
//   0.5 x (1 - reading / objective), 5% to 25% (doubled before any breach, while the reading is
//   under half the objective), once the rate admitted over the last visit is LANDED of the rate (its
//   load has reached the origin); towards the rate of the last breach, by 5% at most;
// - in between, or while the crowd does not fill the rate: held.
// Pure: time comes from the arguments.
import type { PaceSettings } from '../../src/core/types.js';
import type { PaceSnapshot } from '../types.js';
import type { HealthReading } from './origin-health.js';

/** How often the law reads the origin. */
export const PACE_TICK_MS = 10_000;
/** How much of the log a reading spans. */
export const READ_SPAN_MS = 30_000;
/** Fewer forwarded requests than this in a reading say nothing. */
export const MIN_REQUESTS = 20;
/** An error storm: at least this share of errors (and five times the objective). */
export const STORM_SHARE = 0.1;
/** Raised only while the reading is at most this share of the objective's time. */
export const HEALTHY = 0.8;
/** The shortest time between two changes of the rate. */
export const SETTLE_MS = 30_000;
/** How long an admitted visitor's requests keep coming: the span whose admissions make the origin's load. */
export const VISIT_MS = 180_000;
/** A raise waits until the rate admitted over the last visit is this share of the rate: its load has landed. */
export const LANDED = 0.8;
/** How long the rate of a breach is remembered: raises near it are small until then. */
export const BREACH_MEMORY_MS = 900_000;

export interface PaceState {
  /** New visitors a minute the plan holds; null until auto first ran (it then starts at the floor). */
  rate: number | null;
  state: PaceSnapshot['state'];
  why: string;
  /** When the rate last changed, ms. */
  changedMs: number;
  lastTickMs: number;
  /** The rate when a storm stopped admissions (reopening climbs back to it); null outside one. */
  beforeStorm: number | null;
  /** Readings in a row within the error objective during a storm. */
  calm: number;
  /** The rate admitted when the objective was last broken, and when; the reading then. */
  breach: { rate: number; atMs: number; latencyMs: number | null } | null;
  /** The rate admitted over the last visit at the last reading within the objective: what the origin was seen to carry. */
  carried: number | null;
  /** The last reading. */
  last: HealthReading;
}

export const initialPace = (): PaceState => ({
  rate: null,
  state: 'starting',
  why: 'waiting for the first reading of the origin',
  changedMs: Number.NEGATIVE_INFINITY,
  lastTickMs: Number.NEGATIVE_INFINITY,
  beforeStorm: null,
  calm: 0,
  breach: null,
  carried: null,
  last: { requests: 0, errorShare: null, latencyMs: null },
});

/** What one tick of the law reads. */
export interface PaceInput {
  nowMs: number;
  settings: PaceSettings;
  /** new_users_per_minute: the ceiling. */
  ceiling: number;
  /** The origin over the last READ_SPAN_MS of log read. */
  reading: HealthReading;
  /** Admissions a minute over the last minute of log read. */
  admittedPerMinute: number;
  /** Admissions a minute over the last VISIT_MS of log read: the rate that made the origin's load now. */
  visitPerMinute: number;
  /** Visitors waiting now: while some do, the crowd fills the rate. */
  waiting: number;
}

/** The floor: auto_floor_per_minute, or a tenth of the ceiling. */
export const floorOf = (settings: PaceSettings, ceiling: number): number =>
  Math.min(ceiling, settings.floorPerMinute ?? ceiling / 10);

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const round = (x: number): number => Math.round(x * 10) / 10;

/** One tick of the law, when due: moves `p.rate` and says why. */
export function paceTick(p: PaceState, input: PaceInput): void {
  if (input.nowMs - p.lastTickMs < PACE_TICK_MS) return;
  p.lastTickMs = input.nowMs;
  const { ceiling, settings, reading } = input;
  const floor = floorOf(settings, ceiling);
  p.last = reading;
  if (p.rate === null) set(p, floor, input.nowMs, 'starting', `starting at the floor, ${round(floor)} a minute`);
  // The operator's bounds win over anything learned (they may have moved since).
  if (p.state !== 'stopped') p.rate = clamp(p.rate!, floor, ceiling);
  const o = settings.objective;
  if (reading.requests < MIN_REQUESTS) return quiet(p, input, floor);
  const errors = reading.errorShare ?? 0;
  if (errors >= Math.max(STORM_SHARE, 5 * o.errorShare)) return storm(p, input);
  if (p.state === 'stopped') {
    p.calm = errors <= o.errorShare ? p.calm + 1 : 0;
    if (p.calm < 2)
      return void (p.why = `stopped: the origin fails ${pct(errors)} of requests; waiting for it to recover`);
    const back = Math.max(floor, (p.beforeStorm ?? floor) / 2);
    set(p, back, input.nowMs, 'reopening', `the storm is over: reopening at ${round(back)} a minute`);
    return;
  }
  const latency = reading.latencyMs ?? 0;
  if (latency > o.latencyMs || errors > o.errorShare) return cut(p, input, floor, latency, errors);
  if (input.visitPerMinute > 0) p.carried = input.visitPerMinute;
  if (latency > HEALTHY * o.latencyMs || errors > o.errorShare / 2)
    return hold(
      p,
      `holding: near the objective (p${o.percentile} ${latency} ms of ${o.latencyMs}, ${pct(errors)} errors)`,
    );
  raise(p, input, ceiling, latency);
}

function set(p: PaceState, rate: number, nowMs: number, state: PaceState['state'], why: string): void {
  p.rate = rate;
  p.changedMs = nowMs;
  p.state = state;
  p.why = why;
}

function hold(p: PaceState, why: string): void {
  if (p.state !== 'reopening' || why.startsWith('holding: near')) p.state = 'holding';
  p.why = why;
}

/** Too few requests to judge. While stopped with nobody inside, a trickle at the floor probes the origin. */
function quiet(p: PaceState, input: PaceInput, floor: number): void {
  if (p.state === 'stopped' && input.nowMs - p.changedMs >= 2 * READ_SPAN_MS) {
    set(
      p,
      floor,
      input.nowMs,
      'reopening',
      'stopped, and nobody inside asks the origin anything: a trickle at the floor probes it',
    );
    return;
  }
  if (p.state !== 'stopped')
    hold(p, `holding: ${input.reading.requests} forwarded requests in the last 30 s, too few to judge`);
}

function storm(p: PaceState, input: PaceInput): void {
  const errors = input.reading.errorShare ?? 0;
  p.calm = 0;
  if (p.state === 'stopped') return void (p.why = `stopped: the origin fails ${pct(errors)} of requests`);
  p.beforeStorm = p.rate;
  set(p, 0, input.nowMs, 'stopped', `stopped: the origin fails ${pct(errors)} of requests; nobody new is admitted`);
}

function cut(p: PaceState, input: PaceInput, floor: number, latency: number, errors: number): void {
  const o = input.settings.objective;
  const { nowMs } = input;
  // The visitors inside keep the origin busy for a visit after a cut: cut again only once it had that
  // time, or when the reading is half as bad again, else the law cuts for the same breach many times.
  const last = p.breach;
  const landing = last !== null && p.state === 'cutting' && nowMs - last.atMs < VISIT_MS;
  if (landing && latency < (last.latencyMs ?? 0) * 1.5 && errors < STORM_SHARE)
    return void (p.why = `cutting: p${o.percentile} ${latency} ms is over ${o.latencyMs}; the last cut is still reaching the origin`);
  // The load comes from the visitors admitted over the last visit: the rate to cut from is theirs.
  const made = input.visitPerMinute > 0 ? input.visitPerMinute : input.admittedPerMinute;
  const base = made > 0 ? Math.min(p.rate!, made) : p.rate!;
  // The square root: times grow faster than load near a queue's capacity, so the ratio overstates the excess.
  const factor = latency > o.latencyMs ? clamp(Math.sqrt(o.latencyMs / latency), 0.5, 0.9) : 0.7;
  const rate = Math.max(floor, base * factor);
  // Where the capacity lies: under the rate that made this load, and the origin carried the rate of
  // its last good reading. Lines come late, so the breach is read when more than that was let in.
  p.breach = { rate: Math.min(base, p.carried ?? base), atMs: nowMs, latencyMs: latency };
  const what = latency > o.latencyMs ? `p${o.percentile} ${latency} ms over ${o.latencyMs}` : `${pct(errors)} errors`;
  set(p, rate, nowMs, 'cutting', `cut to ${round(rate)} a minute: ${what}`);
}

function raise(p: PaceState, input: PaceInput, ceiling: number, latency: number): void {
  const { nowMs } = input;
  const o = input.settings.objective;
  const rate = p.rate!;
  if (rate >= ceiling)
    return hold(p, `holding at the ceiling, ${round(ceiling)} a minute: the origin keeps the objective`);
  if (input.waiting === 0 && input.admittedPerMinute < 0.85 * rate)
    return hold(p, `holding: the crowd does not fill ${round(rate)} a minute`);
  const reopening = p.state === 'reopening' && p.beforeStorm !== null && rate < p.beforeStorm;
  if (nowMs - p.changedMs < SETTLE_MS) return hold(p, 'holding: the last change is still reaching the origin');
  // Back from a storm the rate before it is known to have been fine: the last minute is enough. Else
  // the origin must have carried this rate's load, which takes a visit.
  const landed = reopening ? input.admittedPerMinute >= 0.85 * rate : input.visitPerMinute >= LANDED * rate;
  if (!landed) return hold(p, `holding: ${round(rate)} a minute has not reached the origin in full yet`);
  const room = 1 - latency / o.latencyMs;
  // A tenth past the rate that broke the objective, landed, with the reading under half of it: the origin has room
  // again (a slow dependency recovered, workers back), and the breach no longer says where its capacity is.
  if (p.breach !== null && room > 0.5 && rate >= 1.1 * p.breach.rate) p.breach = null;
  // Before any breach (or once one is forgotten) nothing is known of the origin's capacity: while the reading is under
  // half the objective the rate may double (a slow start, as TCP's), each step waiting for its load to land.
  let step = p.breach === null && room > 0.5 ? 1 : clamp(0.5 * room, 0.05, 0.25);
  // Near the rate that broke the objective lately: small steps, so it is probed, not hit again.
  if (p.breach !== null && nowMs - p.breach.atMs < BREACH_MEMORY_MS && rate * (1 + step) > 0.9 * p.breach.rate)
    step = Math.min(step, 0.05);
  const next = Math.min(ceiling, rate * (1 + step));
  if (!reopening || next >= (p.beforeStorm ?? 0)) p.beforeStorm = null;
  set(
    p,
    next,
    nowMs,
    reopening ? 'reopening' : 'raising',
    `raised to ${round(next)} a minute: p${o.percentile} ${latency} ms of ${o.latencyMs}`,
  );
}

/**
 * The rate the plan holds, new visitors a minute: new_users_per_minute in manual; in auto the rate
 * the law chose (the floor before its first tick); null without new_users_per_minute.
 */
export function targetPerMinute(ceiling: number | null, settings: PaceSettings, p: PaceState): number | null {
  if (ceiling === null || settings.mode !== 'auto') return ceiling;
  return p.rate ?? floorOf(settings, ceiling);
}

/** targetPerMinute for a model's state. */
export const planRate = (s: {
  settings: { targets: { newUsersPerMinute: number | null }; pace: PaceSettings };
  pace: PaceState;
}): number | null => targetPerMinute(s.settings.targets.newUsersPerMinute, s.settings.pace, s.pace);

const pct = (share: number): string => `${Math.round(share * 1000) / 10}%`;

/** What the dashboard shows of the autopilot. */
export function paceSnapshot(p: PaceState, settings: PaceSettings, ceiling: number): PaceSnapshot {
  return {
    state: p.state,
    why: p.why,
    ratePerMinute: p.rate ?? floorOf(settings, ceiling),
    floorPerMinute: floorOf(settings, ceiling),
    ceilingPerMinute: ceiling,
    objective: settings.objective,
    latencyMs: p.last.latencyMs,
    errorShare: p.last.errorShare,
    requests: p.last.requests,
  };
}
