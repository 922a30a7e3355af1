// The check that one room's admission is no way into another: kept beside the rooms, from what the
// browser sent and what each room answered, never from the room's own reasons. A token's room is read
// from its payload here, without the room's code, so a mistake in the room cannot hide itself.
import type { RoomAnswer } from './room.js';

/** A request's answer, with the room the routing put it in (null: none, straight to the origin). */
export interface ServiceAnswer extends RoomAnswer {
  room: string | null;
}

/** The claims of a room token as its payload says (unverified: the check only reads them). */
function claimsOf(token: string): { room?: unknown; dec?: unknown } | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as { room?: unknown; dec?: unknown }) : null;
  } catch {
    return null;
  }
}

export interface CrossRoomFigures {
  /** Requests that reached a room's origin pages. */
  originRequests: number;
  /**
   * Of those, requests let through without the visitor's own admission in that room: the routing put
   * them in another room, the token used named another room, or that room had never given this
   * visitor an allow token. Must be 0.
   */
  violations: number;
  /** Visitors who presented another room's token as a room's cookie, and their requests doing so. */
  triedOtherRoom: number;
  triedRequests: number;
  /** What those requests were answered, by reason. */
  triedReasons: Record<string, number>;
  /**
   * Of those visitors, the ones let in on such a request without the room setting its own allow token
   * (an open room lets anyone in, on a token of its own). Must be 0.
   */
  triedAdmitted: number;
  /** Decision lines the controller could give no room the routing names (no room, or another). */
  linesWithoutRoom: number;
  /** A few violations, for the report: room, path's room, reason. */
  examples: string[];
}

export class CrossRoomCheck {
  private readonly admitted = new Map<string, Set<string>>();
  private readonly tried = new Set<string>();
  private readonly triedIn = new Set<string>();
  readonly figures: CrossRoomFigures = {
    originRequests: 0,
    violations: 0,
    triedOtherRoom: 0,
    triedRequests: 0,
    triedReasons: {},
    triedAdmitted: 0,
    linesWithoutRoom: 0,
    examples: [],
  };

  /**
   * One answer to a visitor who asked for room `room`'s pages with `tokens` as that room's cookie.
   * A visitor holds an admission in a room once that room has set them an allow token (or a won one).
   */
  observe(room: string, identity: string, tokens: readonly string[], answer: ServiceAnswer, nowMs: number): void {
    const f = this.figures;
    const foreign = tokens.some((t) => claimsOf(t)?.room !== room);
    if (foreign) {
      f.triedRequests++;
      f.triedReasons[answer.reason] = (f.triedReasons[answer.reason] ?? 0) + 1;
      if (!this.tried.has(identity)) {
        this.tried.add(identity);
        f.triedOtherRoom++;
      }
    }
    const own = this.admitted.get(room) ?? new Set<string>();
    this.admitted.set(room, own);
    const set = answer.setToken === null ? null : claimsOf(answer.setToken);
    const admits = set !== null && set.room === room && (set.dec === 'allow' || set.dec === 'won');
    if (answer.outcome === 'origin') {
      f.originRequests++;
      const used = answer.usedToken === null ? null : claimsOf(answer.usedToken);
      const why =
        answer.room !== room
          ? `routed to ${answer.room ?? 'no room'}`
          : used !== null && used.room !== room
            ? `let in on a token of ${String(used.room)}`
            : !own.has(identity) && !admits
              ? `no allow token of ${room} ever set (${answer.reason})`
              : null;
      if (why !== null) {
        f.violations++;
        if (f.examples.length < 5) f.examples.push(`second ${Math.floor(nowMs / 1000)}: ${room}'s pages, ${why}`);
      }
      if (foreign && !admits && !this.triedIn.has(identity)) {
        this.triedIn.add(identity);
        f.triedAdmitted++;
      }
    }
    if (admits) own.add(identity);
  }
}
