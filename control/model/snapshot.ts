// What the model shows the operator (the dashboard, `npm run control`'s state): the last hour minute
// by minute, the POPs of the last minute, the queue's cursor. The ledger keeps only now, so the
// waiting and active counts of past minutes are kept here as last seen in them.
import type { MinutePoint, ModelSnapshot, PopRow, Targets } from '../types.js';
import type { CursorView } from './cursor-plan.js';
import type { Ledger } from './ledger.js';
import type { WindowPlan } from './plan.js';

type WaitingCounts = ReturnType<Ledger['waiting']>;

/** The model's decisions, as a snapshot reports them. */
export interface ModelState {
  targets: Targets;
  mode: ModelSnapshot['mode'];
  why: string;
  /** allow_percentage as the edge has it. */
  edgePct: number;
  /** Chances fixed so far, by window start. */
  firm: ReadonlyMap<number, number>;
  /** The last queueing plan (its first window stands in for a next window not yet fixed). */
  plan: readonly WindowPlan[];
  idleMs: number;
  queue: CursorView;
}

export class ModelSnapshots {
  /** Waiting counts read a second ago at most: they walk every ticket. */
  private lastWaiting: { atMs: number; counts: WaitingCounts } | null = null;
  private readonly minuteWaiting = new Map<number, number>();
  private readonly minuteActive = new Map<number, number>();

  constructor(private readonly ledger: Ledger) {}

  /** The tickets waiting for window `current` and later, counted now (and kept for the next snapshot). */
  countWaiting(nowMs: number, current: number): WaitingCounts {
    this.lastWaiting = { atMs: nowMs, counts: this.ledger.waiting(current) };
    return this.lastWaiting.counts;
  }

  snapshot(nowMs: number, state: ModelState): ModelSnapshot {
    const { ledger, minuteWaiting, minuteActive } = this;
    const { targets, mode, firm, edgePct } = state;
    const d = ledger.period;
    const nowSec = Math.floor(nowMs / 1000);
    const current = d === null ? 0 : Math.floor(nowSec / d) * d;
    const active = ledger.activeSessions(nowMs, state.idleMs);
    if (d !== null && (this.lastWaiting === null || nowMs - this.lastWaiting.atMs >= 1000)) this.countWaiting(nowMs, current);
    const waiting = d === null || this.lastWaiting === null ? { total: 0, byPop: new Map<string, number>() } : this.lastWaiting.counts;
    const minute = Math.floor(nowMs / 60_000) * 60_000;
    const minutes: MinutePoint[] = [];
    for (let m = minute - 59 * 60_000; m <= minute; m += 60_000) {
      const c = ledger.minutes.get(m);
      if (c === undefined && minutes.length === 0) continue;
      const pcts = d === null ? [] : [...firm].filter(([w]) => w * 1000 >= m && w * 1000 < m + 60_000).map(([, p]) => p);
      minutes.push({
        startMs: m,
        waiting: m === minute ? waiting.total : (minuteWaiting.get(m) ?? 0),
        draws: c?.draws ?? 0,
        admissions: c?.admissions ?? 0,
        target: targets.newUsersPerMinute,
        allowPercentage: pcts.length > 0 ? pcts.reduce((a, b) => a + b, 0) / pcts.length : edgePct,
        activeSessions: m === minute ? active.total : (minuteActive.get(m) ?? 0),
        activeCap: targets.totalActiveUsers,
      });
    }
    minuteWaiting.set(minute, waiting.total);
    minuteActive.set(minute, active.total);
    for (const m of minuteWaiting.keys()) if (m < minute - 3_600_000) (minuteWaiting.delete(m), minuteActive.delete(m));
    const lastMinute = minute - 60_000;
    const totalLines = [...ledger.pops.values()].reduce((s, p) => s + (p.minutes.get(lastMinute)?.lines ?? 0), 0);
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
    const next = d === null ? undefined : (firm.get(current + d) ?? state.plan[0]?.pct);
    const q = state.queue;
    return {
      nowMs,
      waitPeriodSeconds: d,
      targets,
      mode,
      why: state.why,
      allowPercentage: mode === 'queueing' ? (next ?? null) : edgePct,
      waiting: waiting.total,
      activeSessions: active.total,
      minutes,
      popMinuteStartMs: lastMinute,
      pops: pops.sort((a, b) => b.share - a.share),
      queue: q.role === 'none' ? null : { role: q.role, cursor: q.cursor, perMinute: q.speed === null ? null : q.speed * 60, prequeue: q.prequeue, ahead: q.ahead, survival: q.survival },
    };
  }
}
