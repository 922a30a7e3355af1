// The ledger as saved for a restart (issue 22, the state file): JSON-safe (no Map, no Set, no
// Infinity) and compact, tickets as tuples with their POP by index. A save of another version is
// refused with a clear error, never half-read.
import type { Counts, Ledger, Ticket } from './ledger.js';
import type { SessionSaved } from './sessions.js';
import { drawValueOfId } from './ticket-id.js';

export const LEDGER_SAVED_VERSION = 1;

/**
 * [id, cohort (exp), POP index, drawn 0/1, reissued offset or null, last seen ms, weight, and a new
 * visitor's ticket's ms of issue (absent otherwise, and in a file saved before it was kept)].
 */
export type TicketSaved = [string, number, number, 0 | 1, number | null, number, number, number?];
type CountsSaved = [number, number, number];

export interface LedgerSaved {
  version: number;
  period: number | null;
  firstMs: number | null;
  latestMs: number;
  /** Cohorts before this (epoch s) are closed; null: none yet. */
  closedBefore: number | null;
  edgeRate: number;
  ownRate: number;
  pops: string[];
  tickets: TicketSaved[];
  successors: [string, string][];
  foreseen: string[];
  arrivals: [number, number][];
  reissues: [number, [number, number][]][];
  denials: [number, number][];
  /** [minute or window start, draws, admissions, lines]. */
  minutes: [number, ...CountsSaved][];
  windows: [number, ...CountsSaved][];
  /** [POP, last heard ms, its minutes]. */
  popMinutes: [string, number, [number, ...CountsSaved][]][];
  sessions: SessionSaved[];
}

const countsOut = (m: Map<number, Counts>): [number, ...CountsSaved][] =>
  [...m].map(([k, c]) => [k, c.draws, c.admissions, c.lines]);
const countsIn = (rows: readonly [number, ...CountsSaved][], into: Map<number, Counts>): void => {
  for (const [k, draws, admissions, lines] of rows) into.set(k, { draws, admissions, lines });
};

export function saveLedger(l: Ledger): LedgerSaved {
  const popIndex = new Map<string, number>();
  const tickets: TicketSaved[] = [];
  for (const [id, t] of l.tickets) {
    let p = popIndex.get(t.pop);
    if (p === undefined) popIndex.set(t.pop, (p = popIndex.size));
    const saved: TicketSaved = [id, t.exp, p, t.drawn ? 1 : 0, t.reissued, t.seenMs, t.w];
    if (t.arrivedMs !== undefined) saved.push(t.arrivedMs);
    tickets.push(saved);
  }
  return {
    version: LEDGER_SAVED_VERSION,
    period: l.period,
    firstMs: l.firstMs,
    latestMs: l.latestMs,
    closedBefore: Number.isFinite(l.closedBefore) ? l.closedBefore : null,
    edgeRate: l.edgeRate,
    ownRate: l.ownRate,
    pops: [...popIndex.keys()],
    tickets,
    successors: [...l.successors],
    foreseen: [...l.foreseen],
    arrivals: [...l.arrivals],
    reissues: [...l.reissues].map(([w, byOffset]) => [w, [...byOffset]]),
    denials: [...l.denials],
    minutes: countsOut(l.minutes),
    windows: countsOut(l.windows),
    popMinutes: [...l.pops].map(([pop, p]) => [pop, p.lastSeenMs, countsOut(p.minutes)]),
    sessions: l.sessions.save(),
  };
}

/** Fills the empty ledger `l` from `saved`; a save of another version throws. */
export function restoreLedger(l: Ledger, saved: LedgerSaved): void {
  if (saved.version !== LEDGER_SAVED_VERSION) {
    throw new Error(
      `the saved ledger is version ${JSON.stringify(saved.version)}, this controller reads version ${LEDGER_SAVED_VERSION}: start without the state file to re-learn`,
    );
  }
  l.period = saved.period;
  l.firstMs = saved.firstMs;
  l.latestMs = saved.latestMs;
  l.closedBefore = saved.closedBefore ?? Number.NEGATIVE_INFINITY;
  l.edgeRate = saved.edgeRate;
  l.ownRate = saved.ownRate;
  for (const [id, exp, p, drawn, reissued, seenMs, w, arrivedMs] of saved.tickets) {
    const u = drawValueOfId(id);
    if (u === null)
      throw new Error(
        `the saved ledger holds ${JSON.stringify(id)}, which is not a token id: the state file is damaged`,
      );
    const ticket: Ticket = { u, exp, pop: saved.pops[p] ?? 'local', drawn: drawn === 1, reissued, seenMs, w };
    if (arrivedMs !== undefined) ticket.arrivedMs = arrivedMs;
    l.track(id, ticket);
  }
  for (const [a, b] of saved.successors) l.successors.set(a, b);
  for (const id of saved.foreseen) l.foreseen.add(id);
  for (const [w, n] of saved.arrivals) l.arrivals.set(w, n);
  for (const [w, rows] of saved.reissues) l.reissues.set(w, new Map(rows));
  for (const [w, n] of saved.denials) l.denials.set(w, n);
  countsIn(saved.minutes, l.minutes);
  countsIn(saved.windows, l.windows);
  for (const [pop, lastSeenMs, rows] of saved.popMinutes) {
    const minutes = new Map<number, Counts>();
    countsIn(rows, minutes);
    l.pops.set(pop, { lastSeenMs, minutes });
  }
  l.sessions.restore(saved.sessions);
}
