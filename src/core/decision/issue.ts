// Signing a new token for the visitor, and what a signed token adds to a result. Shared by the steps
// that admit, hold or queue a visitor.
import { resultWith, type DecideResult } from './result.js';
import { signToken } from '../tokens/index.js';
import type { TokenClaims } from '../types.js';
import { roomOf, subjectOf, type Usable } from './usable-token.js';
import type { Visit } from './visit.js';

export interface Issued {
  token: string;
  kid: string;
  key: CryptoKey;
  claims: TokenClaims;
  set: { dec: TokenClaims['dec']; exp: number; sub: string };
  nextToken: string | null;
}

/**
 * Sign a new token for the visitor: with the active key, or, to renew a place in line, with the key
 * that signed the place (`signer`), so its `sub` and with it the place do not move when keys rotate.
 */
export async function issue(
  visit: Visit,
  dec: TokenClaims['dec'],
  exp: number,
  arr?: number,
  signer?: Usable,
  bot = false,
): Promise<Issued | null> {
  const kid = signer?.kid ?? visit.config.activeKey;
  const key = signer?.key ?? (await visit.keys.signingKey(kid));
  if (key === null) return null;
  const sub = signer?.claims.sub ?? (await subjectOf(visit, key, bot));
  const room = roomOf(visit.config);
  const claims: TokenClaims = arr === undefined ? { dec, exp, sub, room } : { dec, exp, sub, room, arr };
  // A lane visitor's tokens carry the lane, so it survives every check (docs/lanes.md); a place or the
  // infinite queue's token never has one.
  const lane = arr === undefined && dec !== 'pre' && !bot ? visit.lane : null;
  if (lane !== null) claims.lane = lane;
  const token = await signToken(claims, kid, key);
  // Successors are the draw's: the controller counts next window's tickets by them.
  const successor = dec === 'wait' && arr === undefined && visit.successors;
  const next: TokenClaims = { dec, exp: exp + visit.config.waitPeriodSeconds, sub, room };
  if (lane !== null) next.lane = lane;
  const nextToken = successor ? await signToken(next, kid, key) : null;
  return { token, kid, key, claims, set: { dec, exp, sub }, nextToken };
}

/** What an issued token adds to a result. */
export const issuedParts = (issued: Issued) => ({
  kid: issued.kid,
  setToken: issued.token,
  set: issued.set,
  nextToken: issued.nextToken,
});

/** No key to sign with: the visitor sees the waiting page (503, no cookie) and is never admitted. */
export const noSigningKey = (visit: Visit): DecideResult =>
  resultWith({ decision: 'start', outcome: 'startwaiting', reason: 'no_signing_key', kid: visit.config.activeKey });
