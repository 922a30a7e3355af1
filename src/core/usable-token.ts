// Which of a visitor's tokens counts: the first that is genuine, of this room, for this identity and
// not spent; a draw's wait token presented long after its window stands for the one its holder would
// hold now. Part of the decision (decide.ts), apart so each file keeps one job.
import { signatureOf, staleAt } from './draw.js';
import { identityHash } from './identity.js';
import type { KeyRing } from './keys.js';
import { DEFAULT_ROOM } from './layout.js';
import { holdsPlace, ofThisEvent, placeLostAt } from './queue.js';
import { signToken, verifyToken } from './token.js';
import type { Config, ReasonCode, SandboxCache, TokenClaims } from './types.js';

/** What choosing a token needs of the decision's input. */
export interface TokenInput {
  config: Config;
  keys: KeyRing;
  identity: string;
  tokens: string[];
  memory?: SandboxCache;
}

/** The identity hash under `key`, from the sandbox's memory when it has it. */
export function subjectOf(input: TokenInput, key: CryptoKey): Promise<string> {
  const compute = () => identityHash(key, input.identity);
  return input.memory ? input.memory.identityHash(key, input.identity, compute) : compute();
}

/** The room a token of these settings names. */
export function roomOf(config: Config): string {
  return config.room ?? DEFAULT_ROOM;
}

/** Longer values are never parsed: a cookie that size is garbage or an attack. */
export const MAX_TOKEN_CHARS = 4096;

/** The window boundary `floor(now / d) * d + steps * d`. */
export function boundary(nowSec: number, periodSeconds: number, steps: number): number {
  return Math.floor(nowSec / periodSeconds) * periodSeconds + steps * periodSeconds;
}

export interface Usable {
  token: string;
  claims: TokenClaims;
  kid: string;
  key: CryptoKey;
  signature: Uint8Array;
}

/** The first token that is genuine, for this identity, and not a spent allow token; else why not. */
export async function firstUsable(input: TokenInput, nowSec: number): Promise<Usable | { reason: ReasonCode; kid: string | null }> {
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
      const v = await verifyToken(token, input.keys, input.memory && { memory: input.memory, nowSec });
      kid = v.kid;
      if (!v.ok) {
        reason = v.reason;
      } else if (v.claims.room !== roomOf(input.config)) {
        // Copied from another room's cookie: admitted there is nothing here.
        reason = 'token_other_room';
      } else if (v.claims.sub !== (await subjectOf(input, v.key))) {
        reason = 'token_other_identity';
      } else if (!ofThisEvent(v.claims, input.config)) {
        reason = 'token_other_event';
      } else if ((v.claims.dec === 'allow' || v.claims.dec === 'won') && v.claims.exp <= nowSec) {
        // A spent allow token, or a held win the visitor left for longer than the cookie lives.
        reason = 'token_expired_allow';
      } else if (nowSec >= (holdsPlace(v.claims) ? placeLostAt(v.claims.exp, input.config) : v.claims.dec === 'wait' ? staleAt(v.claims.exp, input.config) : Infinity)) {
        stale ??= { token, claims: v.claims, kid: v.kid, key: v.key, signature: v.signature };
        continue;
      } else {
        return { token, claims: v.claims, kid: v.kid, key: v.key, signature: v.signature };
      }
    }
    // A stale duplicate (say, on another path) must not lock the visitor out: keep looking.
    failure ??= { reason, kid };
  }
  return stale ?? failure ?? { reason: 'no_token', kid: null };
}

/**
 * A draw's wait token presented after its window and the one of grace (a background tab whose timer
 * the browser fires once a minute, a laptop that slept): it stands for the token its holder would
 * hold now had they lost every draw they missed, the one whose grace window this is. That token is
 * the same whichever of an identity's old tokens is presented, so a kept pile of them is worth the
 * one draw; and a holder who checks once a minute still draws once a minute. Other tokens as they are.
 */
export async function catchUp(token: Usable, config: Config, nowSec: number): Promise<Usable> {
  const { claims } = token;
  if (claims.dec !== 'wait' || holdsPlace(claims) || nowSec < staleAt(claims.exp, config)) return token;
  const caught: TokenClaims = { dec: 'wait', exp: boundary(nowSec, config.waitPeriodSeconds, -1), sub: claims.sub, room: claims.room };
  const signed = await signToken(caught, token.kid, token.key);
  return { ...token, token: signed, claims: caught, signature: signatureOf(signed) };
}

