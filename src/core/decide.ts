// The decision table (docs/design.md), for one visitor at one moment. Pure: everything it needs is
// in its input, so the handler, the tests and the simulator all run exactly this code.
import type { Ceiling } from './ceiling.js';
import { chanceFor, dueAt, drawWins, staleAt } from './draw.js';
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
  /** The POP's admissions ceiling, null when none (ceiling.ts). */
  ceiling?: Ceiling | null;
  /**
   * Sign each new wait token's successor too (the token this identity gets if it loses its draw on
   * time), for the decision log: one more HMAC, so only when something reads the log.
   */
  successors?: boolean;
}

/** A token the visitor presented and the room used, or the one it set. */
export interface TokenRef {
  token: string;
  dec: TokenClaims['dec'];
  exp: number;
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
  /** The token the decision was about, null when none was usable. */
  used: TokenRef | null;
  /** Kind and expiry of `setToken`, null when none is set. */
  set: Omit<TokenRef, 'token'> | null;
  /** The successor of a new wait token (DecideInput.successors), else null. */
  nextToken: string | null;
  /** The chance (0..100) this request's draw used, null when it did not draw. */
  pct: number | null;
}

/** Longer values are never parsed: a cookie that size is garbage or an attack. */
export const MAX_TOKEN_CHARS = 4096;

/** The window boundary `floor(now / d) * d + steps * d`. */
export function boundary(nowSec: number, periodSeconds: number, steps: number): number {
  return Math.floor(nowSec / periodSeconds) * periodSeconds + steps * periodSeconds;
}

interface Usable {
  token: string;
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
      } else if (v.claims.dec !== 'wait' && v.claims.exp <= nowSec) {
        // A spent allow token, or a held win the visitor left for longer than the cookie lives.
        reason = 'token_expired_allow';
      } else if (v.claims.dec === 'wait' && nowSec >= staleAt(v.claims.exp, input.config)) {
        stale ??= { token, claims: v.claims, kid: v.kid, signature: v.signature };
        continue;
      } else {
        return { token, claims: v.claims, kid: v.kid, signature: v.signature };
      }
    }
    // A stale duplicate (say, on another path) must not lock the visitor out: keep looking.
    failure ??= { reason, kid };
  }
  return stale ?? failure ?? { reason: 'no_token', kid: null };
}

/** A result with nothing set but what `partial` names. */
export function result(partial: Partial<DecideResult> & Pick<DecideResult, 'decision' | 'outcome' | 'reason'>): DecideResult {
  return {
    kid: null,
    setToken: null,
    clearCookie: false,
    waitUntil: null,
    waitExpiry: null,
    allowUntil: null,
    used: null,
    set: null,
    nextToken: null,
    pct: null,
    ...partial,
  };
}

interface Issued {
  token: string;
  kid: string;
  set: { dec: TokenClaims['dec']; exp: number };
  nextToken: string | null;
}

async function issue(input: DecideInput, dec: TokenClaims['dec'], exp: number): Promise<Issued | null> {
  const kid = input.config.activeKey;
  const key = await input.keys.signingKey(kid);
  if (key === null) return null;
  const sub = await identityHash(key, input.identity);
  const token = await signToken({ dec, exp, sub }, kid, key);
  const successor = dec === 'wait' && input.successors === true;
  const nextToken = successor ? await signToken({ dec, exp: exp + input.config.waitPeriodSeconds, sub }, kid, key) : null;
  return { token, kid, set: { dec, exp }, nextToken };
}

/** What an issued token adds to a result. */
const issuedParts = (issued: Issued) => ({ kid: issued.kid, setToken: issued.token, set: issued.set, nextToken: issued.nextToken });

/** No key to sign with: the visitor sees the waiting page (503, no cookie) and is never admitted. */
const noSigningKey = (kid: string): DecideResult =>
  result({ decision: 'anon', outcome: 'startwaiting', reason: 'no_signing_key', kid });

/** How long a held winner's `won` token lasts: as long as the cookie, so a held win is never lost. */
const wonUntil = (nowSec: number, config: DecideInput['config']): number => nowSec + config.cookieLifetimeSeconds;

export async function decide(input: DecideInput): Promise<DecideResult> {
  const { config } = input;
  const nowSec = Math.floor(input.nowMs / 1000);
  const d = config.waitPeriodSeconds;
  const A = config.allowPeriodSeconds;
  const ceiling = input.ceiling ?? null;

  if (config.allowPercentage <= 0) {
    return result({ decision: 'deny', outcome: 'deny', reason: 'deny_all', clearCookie: true });
  }

  const found = await firstUsable(input, nowSec);
  const usable = 'claims' in found ? found : null;
  const used: TokenRef | null = usable === null ? null : { token: usable.token, dec: usable.claims.dec, exp: usable.claims.exp };

  // Admit with an allow token, renewing it once fewer than A seconds remain (past half its longest life).
  // Null when there is neither a held allow token nor a key to sign a new one.
  const admit = async (reason: ReasonCode, held: Usable | null, pct: number | null = null): Promise<DecideResult | null> => {
    const keep =
      held === null ? null : result({ decision: 'allow', outcome: 'origin', reason, kid: held.kid, allowUntil: held.claims.exp, used, pct });
    if (held !== null && held.claims.exp - nowSec >= A) return keep;
    const exp = boundary(nowSec, A, 2);
    const issued = await issue(input, 'allow', exp);
    // A still-valid allow token keeps working while no new one can be signed.
    if (issued === null) return keep;
    const renewed = held !== null && reason === 'allow_valid';
    return result({ decision: 'allow', outcome: 'origin', reason: renewed ? 'allow_renewed' : reason, ...issuedParts(issued), allowUntil: exp, used, pct });
  };

  // A winner held back by the POP's ceiling: a `won` token (or the one they hold) and a second or two.
  const holdWinner = async (pct: number | null): Promise<DecideResult> => {
    ceiling?.noteHeld();
    const holding = { decision: 'wait', outcome: 'keepwaiting', reason: 'ceiling_held', waitUntil: nowSec + 1, used, pct } as const;
    if (usable?.claims.dec === 'won') return result({ ...holding, kid: usable.kid });
    const issued = await issue(input, 'won', wonUntil(nowSec, config));
    // Without a key the win cannot be kept in a cookie; the ceiling gives way rather than lose it.
    if (issued === null) return (await admit('draw_won', null, pct)) ?? noSigningKey(config.activeKey);
    return result({ ...holding, ...issuedParts(issued) });
  };

  // A new admission (no allow token held): through the ceiling, if there is one. Those already held
  // at this POP go first: a fresh winner waits behind them.
  const admitNew = async (reason: ReasonCode, pct: number | null): Promise<DecideResult | null> => {
    if (ceiling !== null) {
      const behindOthers = reason !== 'won_admitted' && ceiling.heldRecently();
      if (behindOthers || !ceiling.tryAdmit()) return holdWinner(pct);
    }
    return admit(reason, null, pct);
  };

  if (config.allowPercentage >= 100) {
    const held = usable?.claims.dec === 'allow' ? usable : null;
    const reason: ReasonCode = usable?.claims.dec === 'won' ? 'won_admitted' : 'allow_all';
    // Everyone is admitted anyway, so a missing key costs only the cookie; the log says why.
    return (
      (held !== null ? await admit('allow_all', held) : await admitNew(reason, null)) ??
      result({ decision: 'allow', outcome: 'origin', reason: 'no_signing_key', kid: config.activeKey })
    );
  }

  if (usable !== null && usable.claims.dec === 'allow') {
    return (await admit('allow_valid', usable))!; // never null: a held token is kept
  }
  if (usable !== null && usable.claims.dec === 'won') {
    return (await admitNew('won_admitted', null)) ?? noSigningKey(config.activeKey);
  }

  // A new wait token for the visitor, due at its own offset into the window that starts at `exp`.
  const waitFrom = async (exp: number, reason: ReasonCode, pct: number | null = null): Promise<DecideResult> => {
    const issued = await issue(input, 'wait', exp);
    if (issued === null) return noSigningKey(config.activeKey);
    return result({
      decision: 'anon',
      outcome: 'startwaiting',
      reason,
      ...issuedParts(issued),
      waitUntil: dueAt(issued.token, exp, config),
      waitExpiry: exp,
      used,
      pct,
    });
  };

  if (usable !== null && usable.claims.dec === 'wait') {
    const { exp } = usable.claims;
    const due = dueAt(usable.signature, exp, config);
    if (nowSec < due) {
      return result({ decision: 'wait', outcome: 'keepwaiting', reason: 'wait_not_due', kid: usable.kid, waitUntil: due, waitExpiry: exp, used });
    }
    // Past its window and the one of grace: no draw, or a kept pile of old tickets would all be drawn
    // at once when the operator raises allow_percentage. Like a loser: the next boundary.
    if (nowSec >= staleAt(exp, config)) return waitFrom(boundary(nowSec, d, 1), 'token_stale');
    const pct = chanceFor(config, exp);
    if (drawWins(usable.signature, pct)) {
      return (await admitNew('draw_won', pct)) ?? noSigningKey(config.activeKey);
    }
    // Lost: the next token expires at the NEXT boundary (docs/design.md: one draw per window per identity).
    return waitFrom(boundary(nowSec, d, 1), 'draw_lost', pct);
  }

  const failure = found as { reason: ReasonCode; kid: string | null };
  return waitFrom(boundary(nowSec, d, 2), failure.reason);
}
