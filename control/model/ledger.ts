// What the controller knows, built from decision lines alone: the wait tickets of each cohort (with
// their draw numbers and, for new ones, their successors), who drew and who got in, the active
// sessions, and counts per minute, per window and per POP. Counts are of distinct tokens, never of
// lines: every device behind one identity holds the same token, and pages come back many times.
//
// Under a sampled log (log_sample_rate, docs/control/log.md) it tracks only the tickets whose ids are in
// the sample, each standing for 1/rate tickets: cohort sizes, arrivals, reissues, draws and waiting
// counts add up those weights; admissions and sessions (never sampled) count one by one. It bounds
// itself too: past `maxTickets` it halves its own rate and forgets the tickets outside the smaller
// sample, so its memory and the plan's time stay bounded whatever the crowd.
import { inLogSample, isWaitingDecision } from '../../src/core/log/index.js';
import type { DecisionLine } from '../types.js';
import { Sessions } from './sessions.js';
import { drawValueOfId } from './ticket-id.js';

export interface Ticket {
  u: number;
  /** Its cohort: the window start it expires at (epoch s). */
  exp: number;
  pop: string;
  drawn: boolean;
  /** Issued to a holder under an id no successor named (see `reissues`): its cohort's offset; else null. */
  reissued: number | null;
  /** ms of the line that last showed the ticket alive. */
  seenMs: number;
  /** How many tickets it stands for: 1/rate of the sample it was tracked in (1 without sampling). */
  w: number;
  /**
   * A new visitor's ticket: ms of the line that issued it (the correction by cohort tells the new
   * visitors a plan did not see yet from the rest). Absent otherwise (and in a ticket saved before it was kept).
   */
  arrivedMs?: number;
}

/**
 * A cohort past its grace window: how many of its tracked tickets were drawn, in all and of the
 * reissued ones. Counts of tickets, not weights: a share (drawn of size) and how much it rests on.
 */
export interface ClosedCohort {
  exp: number;
  size: number;
  drawn: number;
  /** The draws its drawn tickets stand for (weighted, under a sampled log), and their ids. */
  drawnWeight: number;
  drawnIds: string[];
  /** Of its drawn tickets, the new visitors': the ms of the line that issued each, and its weight, by id. */
  drawnArrivals: Map<string, { ms: number; w: number }>;
  /** Of its reissued tickets, by offset: how many, and how many drawn. */
  reissued: Map<number, { size: number; drawn: number }>;
}

export interface Counts {
  /** Tickets drawn (weighted). */
  draws: number;
  admissions: number;
  lines: number;
}

export interface LedgerOptions {
  /** The most tickets it tracks (MAX_TICKETS by default). */
  maxTickets?: number;
}

/** The most tickets a ledger tracks: ~60 MB, and a plan pass well under a second. */
export const MAX_TICKETS = 200_000;

const DRAWS = new Set(['draw_won', 'draw_lost']);

const emptyCounts = (): Counts => ({ draws: 0, admissions: 0, lines: 0 });

function bump<K>(map: Map<K, Counts>, key: K, field: keyof Counts, by = 1): void {
  let c = map.get(key);
  if (c === undefined) map.set(key, (c = emptyCounts()));
  c[field] += by;
}

const add = <K>(map: Map<K, number>, key: K, by: number): void => void map.set(key, (map.get(key) ?? 0) + by);

export class Ledger {
  /** d as the edge last logged it. */
  period: number | null = null;
  /** Newest decision time seen, ms. */
  latestMs = 0;
  /** Oldest decision time seen, ms (null before the first line). */
  firstMs: number | null = null;
  readonly tickets = new Map<string, Ticket>();
  /** Cohort (window start) -> ids of its tickets. */
  readonly cohorts = new Map<number, Set<string>>();
  /** A new wait ticket's id -> the id its holder gets on losing its draw on time. */
  readonly successors = new Map<string, string>();
  /** Successor ids named so far (in the sample): a ticket issued under one of them was foreseen. */
  readonly foreseen = new Set<string>();
  /** Window start -> new visitors (a wait ticket for someone who held none) in that window. */
  readonly arrivals = new Map<number, number>();
  /**
   * Window start -> cohort offset (in windows) -> tickets that no successor named, issued in that
   * window to someone who held one: the token a holder back after their grace window draws at once
   * (offset -1), the successor of that draw when lost (offset 0), or a ticket a place holder renews
   * to. Nobody can name them before they exist, so the forecast counts them as a rate, like new visitors.
   */
  readonly reissues = new Map<number, Map<number, number>>();
  /** Window start -> deny pages shown in it (the room closed): visitors who will come back. */
  readonly denials = new Map<number, number>();
  /** By time: minute start (ms) and window start (s). */
  readonly minutes = new Map<number, Counts>();
  readonly windows = new Map<number, Counts>();
  /** POP -> minute start -> counts, and when it was last heard from. */
  readonly pops = new Map<string, { lastSeenMs: number; minutes: Map<number, Counts> }>();
  readonly sessions = new Sessions();
  /** Cohorts that expire before this (epoch s) are closed. */
  closedBefore = Number.NEGATIVE_INFINITY;
  /** The sample rate the edge's waiting lines say (1/w), and the ledger's own (halved past maxTickets). */
  edgeRate = 1;
  ownRate = 1;
  readonly maxTickets: number;

  constructor(options: LedgerOptions = {}) {
    this.maxTickets = options.maxTickets ?? MAX_TICKETS;
  }

  /** The share of token ids whose tickets it tracks now. */
  get rate(): number {
    return Math.min(this.edgeRate, this.ownRate);
  }

  /**
   * How far the log has been read, ms: the newest line of the POP that lags most among those heard
   * from in the last minute. Arrivals after it may have happened and not been seen yet.
   */
  seenUntilMs(nowMs: number): number {
    let horizon = nowMs;
    for (const p of this.pops.values()) if (p.lastSeenMs >= nowMs - 60_000) horizon = Math.min(horizon, p.lastSeenMs);
    return horizon;
  }

  observe(line: DecisionLine): void {
    this.period = line.period;
    if (line.tsMs > this.latestMs) this.latestMs = line.tsMs;
    if (this.firstMs === null || line.tsMs < this.firstMs) this.firstMs = line.tsMs;
    // The edge's rate, as its waiting lines say it; an always-logged line's tickets are tracked at it too.
    if (isWaitingDecision(line.outcome, line.dec, line.newDec)) this.edgeRate = 1 / line.weight;
    const minute = Math.floor(line.tsMs / 60_000) * 60_000;
    const win = line.win;
    let pop = this.pops.get(line.pop);
    if (pop === undefined) this.pops.set(line.pop, (pop = { lastSeenMs: 0, minutes: new Map() }));
    pop.lastSeenMs = Math.max(pop.lastSeenMs, line.tsMs);
    bump(this.minutes, minute, 'lines');
    bump(pop.minutes, minute, 'lines');
    // A check refused for hammering (src/core/answer/hammer.ts): its token was read without being verified,
    // and nothing was decided, so it tells nothing about tickets (a forged one would read as a reissue).
    // A token of the infinite queue (`bot`) never wins: counted, it would be demand that never comes
    // in, and the law would plan for it. Both still say the POP's log is flowing (above).
    // `bot_queued` is where a holder leaves the real queue for the infinite one (a proof failed or
    // skipped at the draw, or a routing rule): the ticket it used is real and is closed below, as a
    // lost draw; the bot token it set, and the successor it names, are never tracked.
    const intoBotQueue = line.reason === 'bot_queued';
    if (line.reason === 'hammering' || (line.bot === true && !intoBotQueue)) return;

    if (line.dec === 'wait' && line.tid !== null && line.exp !== null) {
      const fresh = !this.tickets.has(line.tid);
      const ticket = this.ticket(line.tid, line.exp, line.pop);
      if (ticket !== null) {
        ticket.seenMs = Math.max(ticket.seenMs, line.tsMs);
        // A ticket first seen as the one used, once the log has run long enough to have seen every
        // live ticket issued: the edge made it on the spot for a holder back after their grace window.
        if (fresh && this.firstMs !== null && line.tsMs - this.firstMs >= 2_000 * line.period)
          this.unforeseen(ticket, line.tid, win, line.exp, line.period);
        this.foreseen.delete(line.tid);
        if ((DRAWS.has(line.reason) || line.reason === 'ceiling_held' || intoBotQueue) && !ticket.drawn) {
          ticket.drawn = true;
          bump(this.minutes, minute, 'draws', ticket.w);
          bump(this.windows, win, 'draws', ticket.w);
          bump(pop.minutes, minute, 'draws', ticket.w);
        }
      }
    }
    if (intoBotQueue) return;
    if (line.newDec === 'wait' && line.newTid !== null && line.newExp !== null) {
      const fresh = !this.tickets.has(line.newTid);
      const ticket = this.ticket(line.newTid, line.newExp, line.pop);
      if (ticket !== null) {
        ticket.seenMs = Math.max(ticket.seenMs, line.tsMs);
        // Someone who held no ticket: a new arrival (a loser's or a stale holder's ticket is not one).
        if (fresh && line.dec === null) {
          add(this.arrivals, win, ticket.w);
          ticket.arrivedMs = line.tsMs;
        }
        // A loser's next ticket is the successor the plan expects of any ticket, named in the log or not.
        else if (fresh && line.reason !== 'draw_lost')
          this.unforeseen(ticket, line.newTid, win, line.newExp, line.period);
        if (line.nextTid !== null && drawValueOfId(line.nextTid) !== null) {
          this.successors.set(line.newTid, line.nextTid);
          // Expected only in the sample: a successor outside it is never tracked.
          if (inLogSample(line.nextTid, this.rate)) this.foreseen.add(line.nextTid);
        }
      }
      this.foreseen.delete(line.newTid);
    }
    if (line.reason === 'deny_all') add(this.denials, win, line.weight);
    // A newcomer the open room let straight in is an arrival too: the crowd the queue will face.
    if (line.dec === null && line.newDec === 'allow' && line.reason === 'allow_all') add(this.arrivals, win, 1);
    if (this.sessions.observe(line)) {
      bump(this.minutes, minute, 'admissions');
      bump(this.windows, win, 'admissions');
      bump(pop.minutes, minute, 'admissions');
    }
  }

  /** A ticket for a holder that no successor named: counted in `reissues` by its cohort's offset. */
  private unforeseen(ticket: Ticket, tid: string, win: number, exp: number, period: number): void {
    if (this.foreseen.has(tid) || !(period > 0)) return;
    const k = Math.round((exp - win) / period);
    ticket.reissued = k;
    let byOffset = this.reissues.get(win);
    if (byOffset === undefined) this.reissues.set(win, (byOffset = new Map()));
    add(byOffset, k, ticket.w);
  }

  /** The ticket `tid`, tracked from now on if new and in the sample; null when it is not tracked. */
  private ticket(tid: string, exp: number, pop: string): Ticket | null {
    const known = this.tickets.get(tid);
    if (known !== undefined) return known;
    // A cohort already closed (its return rate taken) is not opened again by a holder who comes back
    // after its grace window: that ticket can no longer be drawn, and counting it as an undrawn
    // member of a new cohort would read as visitors who never came back.
    if (exp < this.closedBefore) return null;
    const rate = this.rate;
    if (rate < 1 && !inLogSample(tid, rate)) return null;
    const u = drawValueOfId(tid);
    if (u === null) return null;
    const ticket: Ticket = { u, exp, pop, drawn: false, reissued: null, seenMs: 0, w: 1 / rate };
    this.track(tid, ticket);
    if (this.tickets.size > this.maxTickets) this.shrink();
    return this.tickets.has(tid) ? ticket : null;
  }

  /** Files a ticket under its cohort (also how ledger-saved.ts restores one). */
  track(tid: string, ticket: Ticket): void {
    this.tickets.set(tid, ticket);
    let cohort = this.cohorts.get(ticket.exp);
    if (cohort === undefined) this.cohorts.set(ticket.exp, (cohort = new Set()));
    cohort.add(tid);
  }

  /** Halves its own rate until it tracks at most maxTickets: the tickets kept weigh more, the rest go. */
  private shrink(): void {
    while (this.tickets.size > this.maxTickets && this.ownRate > 1e-9) {
      this.ownRate /= 2;
      for (const [id, t] of this.tickets) {
        if (inLogSample(id, this.ownRate)) {
          t.w = Math.max(t.w, 1 / this.ownRate);
          continue;
        }
        this.tickets.delete(id);
        this.cohorts.get(t.exp)?.delete(id);
        this.successors.delete(id);
      }
      for (const id of this.foreseen) if (!inLogSample(id, this.ownRate)) this.foreseen.delete(id);
    }
  }

  /** Sessions with a request in the last `idleMs`, overall and per POP. */
  activeSessions(nowMs: number, idleMs: number): { total: number; byPop: Map<string, number> } {
    return this.sessions.active(nowMs, idleMs);
  }

  /** Undrawn tickets of cohorts still drawable (from the window before `win` on), weighted: one per waiting identity. */
  waiting(win: number): { total: number; byPop: Map<string, number> } {
    const d = this.period ?? 30;
    const byPop = new Map<string, number>();
    let total = 0;
    for (const [exp, ids] of this.cohorts) {
      if (exp < win - d) continue;
      for (const id of ids) {
        const t = this.tickets.get(id)!;
        if (t.drawn) continue;
        total += t.w;
        add(byPop, t.pop, t.w);
      }
    }
    return { total, byPop };
  }

  /**
   * Forget what can no longer matter: cohorts past their grace window (handing their return rate to
   * `onCohortClosed` first), idle sessions, and counts older than an hour.
   */
  prune(nowMs: number, idleMs: number, onCohortClosed: (closed: ClosedCohort) => void): void {
    const d = this.period ?? 30;
    const nowSec = Math.floor(nowMs / 1000);
    this.closedBefore = Math.max(this.closedBefore, nowSec - 2 * d + 1);
    for (const [exp, ids] of this.cohorts) {
      if (exp + 2 * d > nowSec) continue;
      const closed: ClosedCohort = {
        exp,
        size: ids.size,
        drawn: 0,
        drawnWeight: 0,
        drawnIds: [],
        drawnArrivals: new Map(),
        reissued: new Map(),
      };
      for (const id of ids) {
        const t = this.tickets.get(id);
        if (t?.drawn) {
          closed.drawn++;
          closed.drawnWeight += t.w;
          closed.drawnIds.push(id);
          if (t.arrivedMs !== undefined) closed.drawnArrivals.set(id, { ms: t.arrivedMs, w: t.w });
        }
        if (t !== undefined && t.reissued !== null) {
          const r = closed.reissued.get(t.reissued) ?? { size: 0, drawn: 0 };
          r.size++;
          if (t.drawn) r.drawn++;
          closed.reissued.set(t.reissued, r);
        }
        this.tickets.delete(id);
        const next = this.successors.get(id);
        if (next !== undefined) this.foreseen.delete(next);
        this.successors.delete(id);
      }
      onCohortClosed(closed);
      this.cohorts.delete(exp);
    }
    this.sessions.prune(nowMs, idleMs);
    const hourAgo = nowMs - 3_600_000;
    for (const m of this.minutes.keys()) if (m < hourAgo) this.minutes.delete(m);
    for (const w of this.windows.keys()) if (w * 1000 < hourAgo) this.windows.delete(w);
    for (const w of this.arrivals.keys()) if (w * 1000 < hourAgo) this.arrivals.delete(w);
    for (const w of this.reissues.keys()) if (w * 1000 < hourAgo) this.reissues.delete(w);
    for (const w of this.denials.keys()) if (w * 1000 < hourAgo) this.denials.delete(w);
    for (const p of this.pops.values()) for (const m of p.minutes.keys()) if (m < hourAgo) p.minutes.delete(m);
  }
}
