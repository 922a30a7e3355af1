// One visit as the decision sees it: what the request brings (the room's settings, the identity, the
// presented tokens, the clock and the feature flags), made once per request, and what the steps learn
// of it once (the token that counts). Every step reads this one object: nothing lives in closures or
// module globals, so a step is a plain function of the visit.
import type { Ceiling } from './ceiling.js';
import { eventPhase, type Phase } from './queue.js';
import type { TokenRef } from './result.js';
import type { ReasonCode, SandboxCache } from '../types.js';
import type { ProofInput } from './proof.js';
import type { TokenInput, Usable } from './usable-token.js';

export interface DecideInput extends TokenInput {
  nowMs: number;
  /** The POP's admissions ceiling, null when none (ceiling.ts). */
  ceiling?: Ceiling | null;
  /**
   * Sign each new wait token's successor too (the token this identity gets if it loses its draw on
   * time), for the decision log: one more HMAC, so only when something reads the log.
   */
  successors?: boolean;
  /** Operator diagnostics (a missing event seed); ignored when absent. */
  diag?: (message: string) => void;
  /** What a reused sandbox kept from its earlier requests (src/core/memory/); absent, nothing is kept. */
  memory?: SandboxCache;
  /** The request carries a valid invitation for this room and identity (invite.ts): in without queueing. */
  invited?: boolean;
  /** The request's `waiting-room-proof` header and whether it asked for JSON (docs/bots.md); absent: no proof. */
  proof?: ProofInput;
  /** A routing rule marked the request a bot (`"then": "bot"`): with `bot_queue` on, it waits in the infinite queue. */
  bot?: boolean;
  /** The lane a valid lane invitation grants, checked against the room's lanes (docs/lanes.md); absent: none. */
  lane?: string | null;
}

/** Why no presented token counts, and the key id the first one named. */
export interface TokenFailure {
  reason: ReasonCode;
  kid: string | null;
}

export interface Visit extends TokenInput {
  nowMs: number;
  /** The clock in whole seconds: every window, expiry and due time is in seconds. */
  nowSec: number;
  ceiling: Ceiling | null;
  successors: boolean;
  diag: (message: string) => void;
  invited: boolean;
  proof: ProofInput | undefined;
  /** A routing rule marked the request a bot. */
  bot: boolean;
  /** The lane a valid lane invitation grants, null without one. */
  inviteLane: string | null;
  /** The lane the visit is in (lane.ts visitLane), null for the general lane; set by the tokens step. */
  lane: string | null;
  /** Where the room's event stands now (queue.ts). */
  phase: Phase;
  // The token that counts, read once by the tokens step (steps/tokens.ts), which comes before every
  // step that looks at them; until then, as for a request without a cookie.
  /** The first usable token as presented. */
  presented: Usable | null;
  /** That token caught up to the window its holder would be in now (usable-token.ts catchUp). */
  usable: Usable | null;
  /** The token the decision is about, for the result and the log line. */
  used: TokenRef | null;
  /** Why no token counts, when none does. */
  failure: TokenFailure | null;
  /** The token is the infinite queue's and the room keeps one (`bot_queue`): it stays there. */
  stillBot: boolean;
}

/** The visit for one decision, before its tokens are read. */
export function openVisit(input: DecideInput): Visit {
  const nowSec = Math.floor(input.nowMs / 1000);
  return {
    config: input.config,
    keys: input.keys,
    identity: input.identity,
    tokens: input.tokens,
    memory: input.memory,
    nowMs: input.nowMs,
    nowSec,
    ceiling: input.ceiling ?? null,
    successors: input.successors === true,
    diag: input.diag ?? (() => {}),
    invited: input.invited === true,
    proof: input.proof,
    bot: input.bot === true,
    inviteLane: input.lane ?? null,
    lane: null,
    phase: eventPhase(input.config, nowSec),
    presented: null,
    usable: null,
    used: null,
    failure: null,
    stillBot: false,
  };
}

/** The usable token when it is of kind `dec`, else null. */
export function heldOf(visit: Visit, dec: 'allow' | 'won' | 'wait' | 'pre'): Usable | null {
  return visit.usable?.claims.dec === dec ? visit.usable : null;
}
