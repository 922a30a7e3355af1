// The decision table of the contract, for one visitor at one moment. Pure: everything it needs is
// in its input, so the handler, the tests and the simulator all run exactly this code.
import { dueAt, drawWins, staleAt } from './draw.js';
import { identityHash } from './identity.js';
import type { KeyRing } from './keys.js';
import { signToken, verifyToken, type TokenClaims } from './token.js';
import type { Config, Decision, Outcome, ReasonCode } from './types.js';

export interface DecideInput {
  config: Config;
  keys: KeyRing;
  identity: string;
  tokens: string[];
  nowMs: number;
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
  /** When (s) the wait token the visitor now holds falls due (`exp + offset`); null unless waiting. */
  waitUntil: number | null;
  /** Expiry (s) of that wait token, the boundary its window starts at; null unless waiting. */
  waitExpiry: number | null;
  /** Expiry (s) of the allow token, when admitted with a token. */
  allowUntil: number | null;
}

/** Longer values are never parsed: a cookie that size is garbage or an attack. */
export const MAX_TOKEN_CHARS = 4096;

/** The window boundary `floor(now / d) * d + steps * d`. */
export function boundary(nowSec: number, periodSeconds: number, steps: number): number {
  return Math.floor(nowSec / periodSeconds) * periodSeconds + steps * periodSeconds;
}

interface Usable {
  claims: TokenClaims;
  kid: string;
  signature: Uint8Array;
}

/** The first token that is genuine, for this identity, and not a spent allow token; else why not. */
async function firstUsable(input: DecideInput, nowSec: number): Promise<Usable | { reason: ReasonCode; kid: string | null }> {
  let failure: { reason: ReasonCode; kid: string | null } | null = null;
  // A stale wait token is used only when nothing better comes: a stale duplicate on another path must
  // not cost the visitor the draw of a current one.
  let stale: Usable | null = null;
  for (const token of input.tokens) {
    let reason: ReasonCode;
    let kid: string | null = null;
    if (token.length > MAX_TOKEN_CHARS) {
      reason = 'token_oversized';
    } else {
      const v = await verifyToken(token, input.keys);
      kid = v.kid;
      if (!v.ok) {
        reason = v.reason;
      } else if (v.claims.sub !== (await identityHash(v.key, input.identity))) {
        reason = 'token_other_identity';
      } else if (v.claims.dec === 'allow' && v.claims.exp <= nowSec) {
        reason = 'token_expired_allow';
      } else if (v.claims.dec === 'wait' && nowSec >= staleAt(v.claims.exp, input.config)) {
        stale ??= { claims: v.claims, kid: v.kid, signature: v.signature };
        continue;
      } else {
        return { claims: v.claims, kid: v.kid, signature: v.signature };
      }
    }
    // A stale duplicate (say, on another path) must not lock the visitor out: keep looking.
    failure ??= { reason, kid };
  }
  return stale ?? failure ?? { reason: 'no_token', kid: null };
}

function result(partial: Partial<DecideResult> & Pick<DecideResult, 'decision' | 'outcome' | 'reason'>): DecideResult {
  return { kid: null, setToken: null, clearCookie: false, waitUntil: null, waitExpiry: null, allowUntil: null, ...partial };
}

async function issue(input: DecideInput, dec: 'wait' | 'allow', exp: number): Promise<{ token: string; kid: string } | null> {
  const kid = input.config.activeKey;
  const key = await input.keys.signingKey(kid);
  if (key === null) return null;
  const sub = await identityHash(key, input.identity);
  return { token: await signToken({ dec, exp, sub }, kid, key), kid };
}

/** No key to sign with: the visitor sees the waiting page (503, no cookie) and is never admitted. */
const noSigningKey = (kid: string): DecideResult =>
  result({ decision: 'anon', outcome: 'startwaiting', reason: 'no_signing_key', kid });

export async function decide(input: DecideInput): Promise<DecideResult> {
  const { config } = input;
  const nowSec = Math.floor(input.nowMs / 1000);
  const d = config.waitPeriodSeconds;
  const A = config.allowPeriodSeconds;

  if (config.allowPercentage <= 0) {
    return result({ decision: 'deny', outcome: 'deny', reason: 'deny_all', clearCookie: true });
  }

  const found = await firstUsable(input, nowSec);
  const usable = 'claims' in found ? found : null;

  // Admit with an allow token, renewing it once fewer than A seconds remain (past half its longest life).
  // Null when there is neither a held allow token nor a key to sign a new one.
  const admit = async (reason: ReasonCode, held: Usable | null): Promise<DecideResult | null> => {
    const keep =
      held === null ? null : result({ decision: 'allow', outcome: 'origin', reason, kid: held.kid, allowUntil: held.claims.exp });
    if (held !== null && held.claims.exp - nowSec >= A) return keep;
    const exp = boundary(nowSec, A, 2);
    const issued = await issue(input, 'allow', exp);
    // A still-valid allow token keeps working while no new one can be signed.
    if (issued === null) return keep;
    const renewed = held !== null && reason === 'allow_valid';
    return result({
      decision: 'allow',
      outcome: 'origin',
      reason: renewed ? 'allow_renewed' : reason,
      kid: issued.kid,
      setToken: issued.token,
      allowUntil: exp,
    });
  };

  if (config.allowPercentage >= 100) {
    const held = usable?.claims.dec === 'allow' ? usable : null;
    // Everyone is admitted anyway, so a missing key costs only the cookie; the log says why.
    return (
      (await admit('allow_all', held)) ??
      result({ decision: 'allow', outcome: 'origin', reason: 'no_signing_key', kid: config.activeKey })
    );
  }

  if (usable !== null && usable.claims.dec === 'allow') {
    return (await admit('allow_valid', usable))!; // never null: a held token is kept
  }

  // A new wait token for the visitor, due at its own offset into the window that starts at `exp`.
  const waitFrom = async (exp: number, reason: ReasonCode): Promise<DecideResult> => {
    const issued = await issue(input, 'wait', exp);
    if (issued === null) return noSigningKey(config.activeKey);
    return result({
      decision: 'anon',
      outcome: 'startwaiting',
      reason,
      kid: issued.kid,
      setToken: issued.token,
      waitUntil: dueAt(issued.token, exp, config),
      waitExpiry: exp,
    });
  };

  if (usable !== null && usable.claims.dec === 'wait') {
    const { exp } = usable.claims;
    const due = dueAt(usable.signature, exp, config);
    if (nowSec < due) {
      return result({ decision: 'wait', outcome: 'keepwaiting', reason: 'wait_not_due', kid: usable.kid, waitUntil: due, waitExpiry: exp });
    }
    // Past its window and the one of grace: no draw, or a kept pile of old tickets would all be drawn
    // at once when the operator raises allow_percentage. Like a loser: the next boundary.
    if (nowSec >= staleAt(exp, config)) return waitFrom(boundary(nowSec, d, 1), 'token_stale');
    if (drawWins(usable.signature, config.allowPercentage)) {
      return (await admit('draw_won', null)) ?? noSigningKey(config.activeKey);
    }
    // Lost: the next token expires at the NEXT boundary (docs/design.md: one draw per window per identity).
    return waitFrom(boundary(nowSec, d, 1), 'draw_lost');
  }

  const failure = found as { reason: ReasonCode; kid: string | null };
  return waitFrom(boundary(nowSec, d, 2), failure.reason);
}
