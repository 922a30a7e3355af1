// Admitted visitors' sessions, from decision lines: an admission starts one, a renewal carries it to
// the new token, any request keeps it alive. Admission, renewal and allow lines are never sampled
// (src/core/log/log-sample.ts), so sessions are counted one by one.
import type { DecisionLine } from '../types.js';

/** Reasons whose allow token starts a session (not a renewal of one). */
const ADMITS = new Set(['draw_won', 'won_admitted', 'allow_all', 'cursor_passed', 'event_passed']);

interface Session {
  lastSeenMs: number;
  pop: string;
  ids: string[];
}

/** A session as saved: [id, last seen ms, POP, its tokens' ids]. */
export type SessionSaved = [string, number, string, string[]];

export class Sessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sessionOf = new Map<string, string>();

  /** Follows the line's session; true when the line admitted someone new (a session begins). */
  observe(line: DecisionLine): boolean {
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
      return false;
    }
    if (
      line.newDec === 'allow' &&
      line.newTid !== null &&
      ADMITS.has(line.reason) &&
      !this.sessionOf.has(line.newTid)
    ) {
      this.sessions.set(line.newTid, { lastSeenMs: line.tsMs, pop: line.pop, ids: [line.newTid] });
      this.sessionOf.set(line.newTid, line.newTid);
      return true;
    }
    return false;
  }

  /** Sessions with a request in the last `idleMs`, overall and per POP. */
  active(nowMs: number, idleMs: number): { total: number; byPop: Map<string, number> } {
    const byPop = new Map<string, number>();
    let total = 0;
    for (const s of this.sessions.values()) {
      if (s.lastSeenMs < nowMs - idleMs) continue;
      total++;
      byPop.set(s.pop, (byPop.get(s.pop) ?? 0) + 1);
    }
    return { total, byPop };
  }

  /** Forgets sessions idle for longer than `idleMs`. */
  prune(nowMs: number, idleMs: number): void {
    for (const [id, s] of this.sessions) {
      if (s.lastSeenMs >= nowMs - idleMs) continue;
      this.sessions.delete(id);
      for (const alias of s.ids) this.sessionOf.delete(alias);
    }
  }

  save(): SessionSaved[] {
    return [...this.sessions].map(([id, s]) => [id, s.lastSeenMs, s.pop, [...s.ids]]);
  }

  restore(saved: readonly SessionSaved[]): void {
    this.sessions.clear();
    this.sessionOf.clear();
    for (const [id, lastSeenMs, pop, ids] of saved) {
      this.sessions.set(id, { lastSeenMs, pop, ids: [...ids] });
      for (const alias of ids) this.sessionOf.set(alias, id);
    }
  }
}

/**
 * How long after an admitted visitor's last request they still count as active, ms: the room's
 * session_duration. Here, with the sessions, so the planners need nothing of the model's state but its type.
 */
export const idleMs = (s: { settings: { targets: { sessionDurationMinutes: number } } }): number =>
  s.settings.targets.sessionDurationMinutes * 60_000;
