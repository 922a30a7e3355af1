// What the model shows the operator (the dashboard, `npm run control`'s state): the last hour minute
// by minute as history.ts recorded it on each tick, the POPs of the last minute, the queue's cursor.
// It only reads: nothing here counts or records, so a snapshot costs the same whoever asks, and a
// closed dashboard loses nothing.
import type { ModelSnapshot, PopRow } from '../types.js';
import type { CursorView } from './cursor-plan.js';
import type { History } from './history.js';
import { currentProofSeconds } from './proof-schedule.js';
import { effectiveShare } from './proof-share.js';
import type { Ledger } from './ledger.js';
import { paceSnapshot } from './pace.js';
import { laneSnapshot } from './lanes.js';
import type { ModelState } from './state.js';

export function modelSnapshot(
  nowMs: number,
  s: Readonly<ModelState>,
  ledger: Ledger,
  history: History,
  q: CursorView,
): ModelSnapshot {
  const { targets, edgePct } = s.settings;
  const { mode } = s.status;
  const { firm } = s.draws;
  const d = ledger.period;
  const nowSec = Math.floor(nowMs / 1000);
  const current = d === null ? 0 : Math.floor(nowSec / d) * d;
  const { waiting, active } = history.now();
  const lastMinute = Math.floor(nowMs / 60_000) * 60_000 - 60_000;
  const totalLines = [...ledger.pops.values()].reduce((sum, p) => sum + (p.minutes.get(lastMinute)?.lines ?? 0), 0);
  const pops: PopRow[] = [...ledger.pops].map(([pop, p]) => {
    const c = p.minutes.get(lastMinute);
    return {
      pop,
      share: totalLines > 0 ? (c?.lines ?? 0) / totalLines : 0,
      waiting: waiting.byPop.get(pop) ?? 0,
      drawsPerMinute: c?.draws ?? 0,
      admissionsPerMinute: c?.admissions ?? 0,
      activeSessions: active.byPop.get(pop) ?? 0,
      lastSeenMs: p.lastSeenMs,
    };
  });
  const next = d === null ? undefined : (firm.get(current + d) ?? s.draws.lastPlan[0]?.pct);
  return {
    nowMs,
    waitPeriodSeconds: d,
    targets,
    mode,
    why: s.status.why,
    allowPercentage: mode === 'queueing' ? (next ?? null) : edgePct,
    proofSeconds: currentProofSeconds(s, d === null ? null : current),
    lanes: laneSnapshot(s.lanes, lastMinute, d === null ? null : current),
    proofShare: !s.proof.asked ? null : d === null ? 1 : effectiveShare(s.proof.draws, current, d),
    waiting: waiting.total,
    activeSessions: active.total,
    minutes: history.minutes(nowMs),
    popMinuteStartMs: lastMinute,
    pops: pops.sort((a, b) => b.share - a.share),
    pace:
      s.settings.pace.mode === 'auto' && targets.newUsersPerMinute !== null
        ? paceSnapshot(s.pace, s.settings.pace, targets.newUsersPerMinute)
        : null,
    queue:
      q.role === 'none'
        ? null
        : {
            role: q.role,
            cursor: q.cursor,
            perMinute: q.speed === null ? null : q.speed * 60,
            prequeue: q.prequeue,
            ahead: q.ahead,
            survival: q.survival,
          },
  };
}
