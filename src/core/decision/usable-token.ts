// Which of a visitor's tokens counts: the first that is genuine, of this room, for this identity and
// not spent; a draw's wait token presented long after its window stands for the one its holder would
// hold now. Read once per visit by the tokens step (steps/tokens.ts), apart so each file keeps one job.
import { signatureOf, staleAt } from './draw.js';
import { identityHash } from '../request/index.js';
import { type KeyRing, signToken, verifyToken } from '../tokens/index.js';
import { DEFAULT_ROOM } from '../settings/index.js';
import { holdsPlace, ofThisEvent, placeLostAt } from './queue.js';
import type { Config, ReasonCode, SandboxCache, TokenClaims } from '../types.js';

/** What choosing a token needs of the decision's input. */
export interface TokenInput {
  config: Config;
  keys: KeyRing;
  identity: string;
  tokens: string[];
  memory?: SandboxCache;
}

/** The identity hash under `key` (`bot`: the infinite queue's), from the sandbox's memory when it has it. */
export function subjectOf(input: TokenInput, key: CryptoKey, bot = false): Promise<string> {
  const compute = () => identityHash(key, input.identity, bot);
  // Identities start with their kind (`ip:`, `header:`...): a line break keeps the bot's apart in the memory.
  return input.memory
    ? input.memory.identityHash(key, bot ? `bot\n${input.identity}` : input.identity, compute)
    : compute();
}

/** The room a token of these settings names. */
export function roomOf(config: Pick<Config, 'room'>): string {
  return config.room ?? DEFAULT_ROOM;
}

/**
 * At most this many of a request's room cookies are verified, in order; the rest are ignored (and
 * logged `"tokens": "tokens_ignored"`): a browser holds one, a few at most, and verifying 180 forged
 * ones cost the edge past its 50 ms of CPU time.
 */
export const MAX_VERIFIED_TOKENS = 4;

/** The log field `tokens`: the request had more room cookies than are verified. */
export type TokensNote = 'tokens_ignored';

/** What the decision line says of a request's room cookies, null when nothing was ignored. */
export function tokensNote(tokens: readonly string[]): TokensNote | null {
  return tokens.length > MAX_VERIFIED_TOKENS ? 'tokens_ignored' : null;
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
  /** A token of the infinite queue (its `sub` is the identity's bot hash): it never wins. */
  bot?: boolean;
}

/** The first token that is genuine, for this identity, and not a spent allow token; else why not. */
export async function firstUsable(
  input: TokenInput,
  nowSec: number,
): Promise<Usable | { reason: ReasonCode; kid: string | null }> {
  let failure: { reason: ReasonCode; kid: string | null } | null = null;
  // A stale wait token is used only when nothing better comes: a stale duplicate on another path must
  // not cost the visitor the draw of a current one.
  let stale: Usable | null = null;
  // An index, not for...of over a copy: this runs on every request, in a runtime without a JIT.
  const count = Math.min(input.tokens.length, MAX_VERIFIED_TOKENS);
  for (let i = 0; i < count; i++) {
    const token = input.tokens[i]!;
    let reason: ReasonCode;
    let kid: string | null = null;
    let bot: boolean | null = false;
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
      } else if ((bot = await queueOf(input, v.claims.sub, v.key)) === null) {
        reason = 'token_other_identity';
      } else if (!ofThisEvent(v.claims, input.config)) {
        reason = 'token_other_event';
      } else if ((v.claims.dec === 'allow' || v.claims.dec === 'won') && v.claims.exp <= nowSec) {
        // A spent allow token, or a held win the visitor left for longer than the cookie lives.
        reason = 'token_expired_allow';
      } else if (
        nowSec >=
        (holdsPlace(v.claims)
          ? placeLostAt(v.claims.exp, input.config)
          : v.claims.dec === 'wait'
            ? staleAt(v.claims.exp, input.config)
            : Infinity)
      ) {
        stale ??= usableOf(token, v, bot);
        continue;
      } else {
        return usableOf(token, v, bot);
      }
    }
    // A stale duplicate (say, on another path) must not lock the visitor out: keep looking.
    failure ??= { reason, kid };
  }
  return stale ?? failure ?? { reason: 'no_token', kid: null };
}

/**
 * Whose queue a token's `sub` puts it in: the identity's own (false), the infinite queue's (true), or
 * neither (null). The bot's hash is computed only on a mismatch: one more HMAC for a token of the
 * infinite queue or another identity's, none for the rest.
 */
async function queueOf(input: TokenInput, sub: string, key: CryptoKey): Promise<boolean | null> {
  if (sub === (await subjectOf(input, key))) return false;
  return sub === (await subjectOf(input, key, true)) ? true : null;
}

/** A verified token as the decision uses it. */
function usableOf(token: string, v: Omit<Usable, 'token' | 'bot'>, bot: boolean | null): Usable {
  const usable: Usable = { token, claims: v.claims, kid: v.kid, key: v.key, signature: v.signature };
  if (bot === true) usable.bot = true;
  return usable;
}

/**
 * A draw's wait token presented after its window and the one of grace (a background tab whose timer
 * the browser fires once a minute, a laptop that slept): it stands for the token its holder would
 * hold now had they lost every draw they missed, the one whose grace window this is. That token is
 * the same whichever of an identity's old tokens is presented, so a kept pile of them is worth the
 * one draw; and a holder who checks once a minute still draws once a minute. Other tokens as they are.
 */
export function catchUp(token: Usable, config: Config, nowSec: number): Usable | Promise<Usable> {
  const { claims } = token;
  if (claims.dec !== 'wait' || holdsPlace(claims) || nowSec < staleAt(claims.exp, config)) return token;
  return caughtUp(token, config, nowSec);
}

/** The token of the grace window `nowSec` is in, signed for the same identity and room. */
async function caughtUp(token: Usable, config: Config, nowSec: number): Promise<Usable> {
  const { claims } = token;
  const caught: TokenClaims = {
    dec: 'wait',
    exp: boundary(nowSec, config.waitPeriodSeconds, -1),
    sub: claims.sub,
    room: claims.room,
  };
  if (claims.lane !== undefined) caught.lane = claims.lane;
  const signed = await signToken(caught, token.kid, token.key);
  return { ...token, token: signed, claims: caught, signature: signatureOf(signed) };
}
