// What decide() concludes for one request: the decision, where the request goes, why, and the tokens
// and times the answer carries. Plain data, below everything that reads it (the answer, the log line,
// the handler).
import type { ProofChallenge, ProofClass } from '../tokens/index.js';
import type { Decision, Outcome, PlaceQueue, ReasonCode, TokenClaims } from '../types.js';

/** A token the visitor presented and the room used, or the one it set. */
export interface TokenRef {
  token: string;
  dec: TokenClaims['dec'];
  exp: number;
  /** The identity hash it carries (its `sub`): what the waiting page's variant is chosen by (answer/variant-choice.ts). */
  sub?: string;
}

export interface DecideResult {
  decision: Decision;
  outcome: Outcome;
  reason: ReasonCode;
  kid: string | null;
  /** Token to set as cookie, null = leave the cookie alone. */
  setToken: string | null;
  /** Deny / revoke. */
  clearCookie: boolean;
  /**
   * When (epoch s) the wait token the visitor now holds falls due (`exp + offset`), i.e. when checking
   * again is worth it: for a winner the ceiling holds, the next second; on the countdown, its next
   * check. Null unless waiting.
   */
  waitDueSec: number | null;
  /** Expiry (epoch s) of that wait token, the boundary its window starts at; null unless waiting. */
  waitExpirySec: number | null;
  /** Expiry (epoch s) of the allow token, when admitted with a token. */
  allowExpirySec: number | null;
  /** The token the decision was about, null when none was usable. */
  used: TokenRef | null;
  /** Kind and expiry of `setToken`, null when none is set. */
  set: Omit<TokenRef, 'token'> | null;
  /** The successor of a new wait token (DecideInput.successors), else null. */
  nextToken: string | null;
  /** The chance (0..100) this request's draw used, null when it did not draw. */
  pct: number | null;
  /** The visitor's place in line, the cursor now and the line it is in, when they hold a place the cursor moves (docs/events.md). */
  place: { pos: number; cursor: number; queue: PlaceQueue } | null;
  /** The puzzle of the draw token the visitor now holds, when its draw asks for a proof (docs/bots.md); else null. */
  proof: ProofChallenge | null;
  /** What this request's draw brought when it asked for a proof (the line's `proof`), else null. */
  proofCheck: ProofClass | null;
  /** The decision is about a token of the infinite queue (the line's `bot`). */
  bot: boolean;
  /** The priority lane the visitor is in (docs/lanes.md), null for the general lane or a room without lanes. */
  lane: string | null;
}

/** A result with nothing set but what `partial` names. */
export function resultWith(
  partial: Partial<DecideResult> & Pick<DecideResult, 'decision' | 'outcome' | 'reason'>,
): DecideResult {
  return {
    kid: null,
    setToken: null,
    clearCookie: false,
    waitDueSec: null,
    waitExpirySec: null,
    allowExpirySec: null,
    used: null,
    set: null,
    nextToken: null,
    pct: null,
    place: null,
    proof: null,
    proofCheck: null,
    bot: false,
    lane: null,
    ...partial,
  };
}
