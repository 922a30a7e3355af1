// What the controller knows, built from decision lines alone: the wait tickets of each cohort (with
// their draw numbers and, for new ones, their successors), who drew and who got in, the active
// sessions, and counts per minute, per window and per POP. Counts are of distinct tokens, never of
// lines: every device behind one identity holds the same token, and pages come back many times.
import type { DecisionLine } from '../types.js';
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
}

interface Session {
  lastSeenMs: number;
  pop: string;
  ids: string[];
}

/** A cohort past its grace window: how many of its tickets were drawn, in all and of the reissued ones. */
export interface ClosedCohort {
  exp: number;
  size: number;
  drawn: number;
  /** Of its reissued tickets, by offset: how many, and how many drawn. */
  reissued: Map<number, { size: number; drawn: number }>;
}

export interface Counts {
  draws: number;
  admissions: number;
  lines: number;
}

const DRAWS = new Set(['draw_won', 'draw_lost']);
/** Reasons whose allow token starts a session (not a renewal of one). */
const ADMITS = new Set(['draw_won', 'won_admitted', 'allow_all', 'cursor_passed', 'event_passed']);

const emptyCounts = (): Counts => ({ draws: 0, admissions: 0, lines: 0 });

function bump<K>(map: Map<K, Counts>, key: K, field: keyof Counts): void {
  let c = map.get(key);
  if (c === undefined) map.set(key, (c = emptyCounts()));
  c[field]++;
}

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
  /** Successor ids named so far: a ticket issued under one of them was foreseen. */
  private readonly foreseen = new Set<string>();
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

  /**
   * How far the log has been read, ms: the newest line of the POP that lags most among those heard
   * from in the last minute. Arrivals after it may have happened and not been seen yet.
   */
  seenUntilMs(nowMs: number): number {
    let horizon = nowMs;
    for (const p of this.pops.values()) if (p.lastSeenMs >= nowMs - 60_000) horizon = Math.min(horizon, p.lastSeenMs);
    return horizon;
  }
  /** Cohorts that expire before this (epoch s) are closed. */
  private closedBefore = Number.NEGATIVE_INFINITY;
  private readonly sessions = new Map<string, Session>();
  private readonly sessionOf = new Map<string, string>();

  observe(line: DecisionLine): void {
    this.period = line.period;
    if (line.tsMs > this.latestMs) this.latestMs = line.tsMs;
    if (this.firstMs === null || line.tsMs < this.firstMs) this.firstMs = line.tsMs;
    const minute = Math.floor(line.tsMs / 60_000) * 60_000;
    const win = line.win;
    let pop = this.pops.get(line.pop);
    if (pop === undefined) this.pops.set(line.pop, (pop = { lastSeenMs: 0, minutes: new Map() }));
    pop.lastSeenMs = Math.max(pop.lastSeenMs, line.tsMs);
    bump(this.minutes, minute, 'lines');
    bump(pop.minutes, minute, 'lines');

    if (line.dec === 'wait' && line.tid !== null && line.exp !== null) {
      const fresh = !this.tickets.has(line.tid);
      const ticket = this.ticket(line.tid, line.exp, line.pop);
      if (ticket !== null) {
        ticket.seenMs = Math.max(ticket.seenMs, line.tsMs);
        // A ticket first seen as the one used, once the log has run long enough to have seen every
        // live ticket issued: the edge made it on the spot for a holder back after their grace window.
        if (fresh && this.firstMs !== null && line.tsMs - this.firstMs >= 2_000 * line.period) this.unforeseen(ticket, line.tid, win, line.exp, line.period);
        this.foreseen.delete(line.tid);
        if ((DRAWS.has(line.reason) || line.reason === 'ceiling_held') && !ticket.drawn) {
          ticket.drawn = true;
          bump(this.minutes, minute, 'draws');
          bump(this.windows, win, 'draws');
          bump(pop.minutes, minute, 'draws');
        }
      }
    }
    if (line.newDec === 'wait' && line.newTid !== null && line.newExp !== null) {
      const fresh = !this.tickets.has(line.newTid);
      const ticket = this.ticket(line.newTid, line.newExp, line.pop);
      if (ticket !== null) ticket.seenMs = Math.max(ticket.seenMs, line.tsMs);
      // Someone who held no ticket: a new arrival (a loser's or a stale holder's ticket is not one).
      if (fresh && line.dec === null) this.arrivals.set(win, (this.arrivals.get(win) ?? 0) + 1);
      // A loser's next ticket is the successor the plan expects of any ticket, named in the log or not.
      else if (fresh && ticket !== null && line.reason !== 'draw_lost') this.unforeseen(ticket, line.newTid, win, line.newExp, line.period);
      this.foreseen.delete(line.newTid);
      if (line.nextTid !== null && drawValueOfId(line.nextTid) !== null) {
        this.successors.set(line.newTid, line.nextTid);
        this.foreseen.add(line.nextTid);
      }
    }
    if (line.reason === 'deny_all') this.denials.set(win, (this.denials.get(win) ?? 0) + 1);
    // A newcomer the open room let straight in is an arrival too: the crowd the queue will face.
    if (line.dec === null && line.newDec === 'allow' && line.reason === 'allow_all') this.arrivals.set(win, (this.arrivals.get(win) ?? 0) + 1);
    this.sessionLine(line, minute, win, pop.minutes);
  }

  /** A ticket for a holder that no successor named: counted in `reissues` by its cohort's offset. */
  private unforeseen(ticket: Ticket, tid: string, win: number, exp: number, period: number): void {
    if (this.foreseen.has(tid) || !(period > 0)) return;
    const k = Math.round((exp - win) / period);
    ticket.reissued = k;
    let byOffset = this.reissues.get(win);
    if (byOffset === undefined) this.reissues.set(win, (byOffset = new Map()));
    byOffset.set(k, (byOffset.get(k) ?? 0) + 1);
  }

  private ticket(tid: string, exp: number, pop: string): Ticket | null {
    const known = this.tickets.get(tid);
    if (known !== undefined) return known;
    // A cohort already closed (its return rate taken) is not opened again by a holder who comes back
    // after its grace window: that ticket can no longer be drawn, and counting it as an undrawn
    // member of a new cohort would read as visitors who never came back.
    if (exp < this.closedBefore) return null;
    const u = drawValueOfId(tid);
    if (u === null) return null;
    const ticket: Ticket = { u, exp, pop, drawn: false, reissued: null, seenMs: 0 };
    this.tickets.set(tid, ticket);
    let cohort = this.cohorts.get(exp);
    if (cohort === undefined) this.cohorts.set(exp, (cohort = new Set()));
    cohort.add(tid);
    return ticket;
  }

  /** Sessions: an admission starts one, a renewal carries it to the new token, any request keeps it alive. */
  private sessionLine(line: DecisionLine, minute: number, win: number, popMinutes: Map<number, Counts>): void {
    if (line.dec === 'allow' && line.tid !== null) {
      let id = this.sessionOf.get(line.tid);
      if (id === undefined) {
        // A session that began before the controller did: known from now on, not counted as an admission.
        id = line.tid;
        this.sessions.set(id, { lastSeenMs: line.tsMs, pop: line.pop, ids: [id] });
        this.sessionOf.set(id, id);
      }
      const session = this.sessions.get(id)!;
      session.lastSeenMs = Math.max(session.lastSeenMs, line.tsMs);
      if (line.newDec === 'allow' && line.newTid !== null && !this.sessionOf.has(line.newTid)) {
        this.sessionOf.set(line.newTid, id);
        session.ids.push(line.newTid);
      }
      return;
    }
    if (line.newDec === 'allow' && line.newTid !== null && ADMITS.has(line.reason) && !this.sessionOf.has(line.newTid)) {
      this.sessions.set(line.newTid, { lastSeenMs: line.tsMs, pop: line.pop, ids: [line.newTid] });
      this.sessionOf.set(line.newTid, line.newTid);
      bump(this.minutes, minute, 'admissions');
      bump(this.windows, win, 'admissions');
      bump(popMinutes, minute, 'admissions');
    }
  }

  /** Sessions with a request in the last `idleMs`, overall and per POP. */
  activeSessions(nowMs: number, idleMs: number): { total: number; byPop: Map<string, number> } {
    const byPop = new Map<string, number>();
    let total = 0;
    for (const s of this.sessions.values()) {
      if (s.lastSeenMs < nowMs - idleMs) continue;
      total++;
      byPop.set(s.pop, (byPop.get(s.pop) ?? 0) + 1);
    }
    return { total, byPop };
  }

  /** Undrawn tickets of cohorts still drawable (from the window before `win` on): one per waiting identity. */
  waiting(win: number): { total: number; byPop: Map<string, number> } {
    const d = this.period ?? 30;
    const byPop = new Map<string, number>();
    let total = 0;
    for (const [exp, ids] of this.cohorts) {
      if (exp < win - d) continue;
      for (const id of ids) {
        const t = this.tickets.get(id)!;
        if (t.drawn) continue;
        total++;
        byPop.set(t.pop, (byPop.get(t.pop) ?? 0) + 1);
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
      const closed: ClosedCohort = { exp, size: ids.size, drawn: 0, reissued: new Map() };
      for (const id of ids) {
        const t = this.tickets.get(id);
        if (t?.drawn) closed.drawn++;
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
    for (const [id, s] of this.sessions) {
      if (s.lastSeenMs >= nowMs - idleMs) continue;
      this.sessions.delete(id);
      for (const alias of s.ids) this.sessionOf.delete(alias);
    }
    const hourAgo = nowMs - 3_600_000;
    for (const m of this.minutes.keys()) if (m < hourAgo) this.minutes.delete(m);
    for (const w of this.windows.keys()) if (w * 1000 < hourAgo) this.windows.delete(w);
    for (const w of this.arrivals.keys()) if (w * 1000 < hourAgo) this.arrivals.delete(w);
    for (const w of this.reissues.keys()) if (w * 1000 < hourAgo) this.reissues.delete(w);
    for (const w of this.denials.keys()) if (w * 1000 < hourAgo) this.denials.delete(w);
    for (const p of this.pops.values()) for (const m of p.minutes.keys()) if (m < hourAgo) p.minutes.delete(m);
  }
}
