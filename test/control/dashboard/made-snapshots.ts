// Dashboard snapshots made by hand for the browser tests, so each figure the page formats is known.
import type { DashboardSnapshot, MinutePoint, ModelSnapshot } from '../../../control/types.js';

// Made snapshots: 17:04 to 17:06 UTC, the page read at 17:06:20 (the browser runs in UTC).
export const at = (hhmmss: string): number => Date.parse(`2026-11-24T${hhmmss}Z`);
export const minute = (hhmm: string, p: Partial<MinutePoint>): MinutePoint => ({
  startMs: at(`${hhmm}:00`),
  waiting: 0,
  draws: 0,
  admissions: 0,
  target: 120,
  allowPercentage: 100,
  activeSessions: 0,
  activeCap: null,
  origin: { requests: 0, latencyMs: null, errorShare: null },
  ...p,
});
export function modelOf(model: Partial<ModelSnapshot>): ModelSnapshot {
  return {
    nowMs: at('17:06:20'),
    waitPeriodSeconds: 20,
    targets: { newUsersPerMinute: 120, totalActiveUsers: null, sessionDurationMinutes: 5 },
    mode: 'queueing',
    why: 'queueing',
    allowPercentage: null,
    proofSeconds: null,
    proofShare: null,
    waiting: 0,
    activeSessions: 0,
    minutes: [],
    popMinuteStartMs: at('17:05:00'),
    pops: [],
    pace: null,
    queue: null,
    ...model,
  };
}
export function made(model: Partial<ModelSnapshot>, rest: Partial<DashboardSnapshot> = {}): DashboardSnapshot {
  return {
    rooms: [{ id: 'default', model: modelOf(model), lines: 123_456 }],
    unrouted: {},
    source: {
      name: 'stdin',
      state: 'ok',
      lagMs: 800,
      lastLineMs: at('17:06:19'),
      lines: 123456,
      bad: 0,
      foreign: 12,
      previews: 0,
      error: null,
    },
    lastWrite: null,
    writes: { done: 3, failed: 0, deferred: 40, minIntervalSeconds: 10, budgetPerHour: 360 },
    api: {
      perHour: 300,
      usedLastHour: { reads: 60, writes: 120, heartbeats: 0, logTails: 0 },
      remaining: 812,
      backoffUntilMs: null,
      why: 'the API budget allows a write every 15 s',
      nextReadMs: at('17:07:00'),
    },
    holding: false,
    holdingWhy: null,
    ...rest,
  };
}
export const popRow = (pop: string, admissions: number) => ({
  pop,
  share: 0.2,
  waiting: 12_345,
  drawsPerMinute: 1_234,
  admissionsPerMinute: admissions,
  activeSessions: 23_456,
  lastSeenMs: at('17:06:19'),
});
