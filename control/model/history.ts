// The dashboard's last hour, minute by minute, recorded on every plan() tick whether or not anyone
// looks: the ledger keeps only now, so the waiting and active counts of a minute, the target and the
// chance in force are kept here as last seen in it. snapshot.ts only reads these rows, and save()
// carries them over a restart (a closed tab or a restarted controller still shows the past hour).
import type { MinutePoint, OriginMinute, Targets } from '../types.js';
import type { Ledger } from './ledger.js';

export type Counts = { total: number; byPop: Map<string, number> };

/** What the model has in force at a tick, for the minute's row. */
export interface TickFacts {
  targets: Targets;
  /** Chances fixed so far, by window start. */
  firm: ReadonlyMap<number, number>;
  /** allow_percentage as the edge has it. */
  edgePct: number;
  idleMs: number;
  /** The rate the plan holds, a minute: new_users_per_minute, or the autopilot's choice (pace.ts). */
  rate: number | null;
  /** The origin's minute starting at a time, as the decision lines measured it (origin-health.ts). */
  origin: (minuteStartMs: number) => OriginMinute;
}

const NO_ORIGIN: OriginMinute = { requests: 0, latencyMs: null, errorShare: null };

const HOUR_MS = 3_600_000;

export class History {
  /** Waiting counts read a second ago at most: they walk every ticket. */
  private waitingNow: { atMs: number; counts: Counts } | null = null;
  private activeNow: Counts | null = null;
  private readonly rows = new Map<number, MinutePoint>();

  constructor(private readonly ledger: Ledger) {}

  /** The tickets waiting for window `current` and later, counted now (and kept for the minute's row). */
  countWaiting(nowMs: number, current: number): Counts {
    this.waitingNow = { atMs: nowMs, counts: this.ledger.waiting(current) };
    return this.waitingNow.counts;
  }

  /** Records the tick: the minute's waiting and active counts, targets and chance, and every minute's draws and admissions the ledger still counts (lines come late). */
  record(nowMs: number, facts: TickFacts): void {
    const d = this.ledger.period;
    if (d === null) return;
    const nowSec = Math.floor(nowMs / 1000);
    const current = Math.floor(nowSec / d) * d;
    if (this.waitingNow === null || nowMs - this.waitingNow.atMs >= 1000) this.countWaiting(nowMs, current);
    this.activeNow = this.ledger.activeSessions(nowMs, facts.idleMs);
    const minute = Math.floor(nowMs / 60_000) * 60_000;
    const pcts = [...facts.firm].filter(([w]) => w * 1000 >= minute && w * 1000 < minute + 60_000).map(([, p]) => p);
    const row = this.row(minute);
    row.waiting = this.waitingNow!.counts.total;
    row.activeSessions = this.activeNow.total;
    row.target = facts.rate;
    row.activeCap = facts.targets.totalActiveUsers;
    row.allowPercentage = pcts.length > 0 ? pcts.reduce((a, b) => a + b, 0) / pcts.length : facts.edgePct;
    for (const [m, c] of this.ledger.minutes) {
      if (m > minute || m < minute - HOUR_MS) continue;
      const r = this.row(m, row);
      r.draws = c.draws;
      r.admissions = c.admissions;
    }
    // The origin's minute, and the one before (its last lines come late).
    for (const m of [minute - 60_000, minute]) if (this.rows.has(m)) this.rows.get(m)!.origin = facts.origin(m);
    for (const m of this.rows.keys()) if (m <= minute - HOUR_MS) this.rows.delete(m);
  }

  /** A minute's row, made if new (with the targets and chance of `like`, else none known). */
  private row(minute: number, like?: MinutePoint): MinutePoint {
    let r = this.rows.get(minute);
    if (r === undefined) {
      r = {
        startMs: minute,
        waiting: 0,
        draws: 0,
        admissions: 0,
        target: like?.target ?? null,
        allowPercentage: like?.allowPercentage ?? null,
        activeSessions: 0,
        activeCap: like?.activeCap ?? null,
        origin: NO_ORIGIN,
      };
      this.rows.set(minute, r);
    }
    return r;
  }

  /** The last hour up to `nowMs`'s minute, from the first minute recorded; a minute nothing was recorded in reads 0. */
  minutes(nowMs: number): MinutePoint[] {
    const minute = Math.floor(nowMs / 60_000) * 60_000;
    const out: MinutePoint[] = [];
    for (let m = minute - 59 * 60_000; m <= minute; m += 60_000) {
      const r = this.rows.get(m);
      if (r === undefined && out.length === 0) continue;
      out.push(
        r === undefined
          ? {
              startMs: m,
              waiting: 0,
              draws: 0,
              admissions: 0,
              target: null,
              allowPercentage: null,
              activeSessions: 0,
              activeCap: null,
              origin: NO_ORIGIN,
            }
          : { ...r, origin: { ...r.origin } },
      );
    }
    return out;
  }

  /** Waiting and active visitors (overall and by POP) as last recorded: none before the first tick. */
  now(): { waiting: Counts; active: Counts } {
    const none = (): Counts => ({ total: 0, byPop: new Map() });
    return { waiting: this.waitingNow?.counts ?? none(), active: this.activeNow ?? none() };
  }

  save(): MinutePoint[] {
    return [...this.rows.values()].map((r) => ({ ...r, origin: { ...r.origin } }));
  }

  restore(rows: readonly MinutePoint[]): void {
    this.rows.clear();
    // Rows saved before the origin was measured have none.
    for (const r of rows) this.rows.set(r.startMs, { ...r, origin: { ...(r.origin ?? NO_ORIGIN) } });
  }
}
