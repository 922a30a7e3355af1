// The room's token: a compact JWS (HS512) whose bytes depend only on (decision, expiry, identity, room,
// key), so the same identity in the same window gets the same token on every device.
import { decodeCompact, jsonObjectOf, signCompact, verifyCompact } from './jws.js';
import type { KeyRing } from './keys.js';
import { LANE_ID } from '../settings/index.js';
import type { ReasonCode, SandboxCache, TokenClaims } from '../types.js';

export type Verified =
  | { ok: true; claims: TokenClaims; kid: string; key: CryptoKey; signature: Uint8Array }
  | { ok: false; reason: ReasonCode; kid: string | null };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Made and verified by our own jws.ts, not jose: in the Wasm build's interpreter jose's general JWS
 * code cost about 0.4 ms of the room's own time per verify and as much per sign, and kept ~30 KB of
 * library code alive in every sandbox's heap, which the runtime collects after each request. jws.ts
 * does only the room's one shape: HMAC over `header.payload`, a header of exactly {alg, kid}.
 */
export async function signToken(claims: TokenClaims, kid: string, key: CryptoKey | Uint8Array): Promise<string> {
  // The claims' key order is fixed: byte-identical tokens.
  const fields: Record<string, unknown> = { dec: claims.dec, exp: claims.exp, sub: claims.sub, room: claims.room };
  if (claims.arr !== undefined) fields.arr = claims.arr;
  // A lane visitor's tokens name the lane (docs/lanes.md); the general lane's are as they always were.
  if (claims.lane !== undefined) fields.lane = claims.lane;
  const payload = JSON.stringify(fields);
  return signCompact('HS512', kid, encoder.encode(payload), key);
}

function parseClaims(payload: Uint8Array): TokenClaims | null {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(payload));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const { dec, exp, sub, room, arr, lane } = value as Record<string, unknown>;
  if (dec !== 'wait' && dec !== 'allow' && dec !== 'won' && dec !== 'pre') return null;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp) || typeof sub !== 'string' || typeof room !== 'string')
    return null;
  // Exactly the claims the room signs: dec, exp, sub and room, `arr` only where a place is kept
  // (always on `pre`, optional on `wait`, never on the others), and `lane` only on a lane visitor's.
  if (!keys.includes('dec') || !keys.includes('exp') || !keys.includes('sub') || !keys.includes('room')) return null;
  const hasArr = 'arr' in value;
  const hasLane = 'lane' in value;
  if (keys.length !== 4 + (hasArr ? 1 : 0) + (hasLane ? 1 : 0)) return null;
  if (dec === 'pre' && !hasArr) return null;
  const claims: TokenClaims = { dec, exp, sub, room };
  if (hasArr) {
    if (dec !== 'wait' && dec !== 'pre') return null;
    if (typeof arr !== 'number' || !Number.isSafeInteger(arr) || arr < 0) return null;
    claims.arr = arr;
  }
  if (hasLane) {
    if (typeof lane !== 'string' || !LANE_ID.test(lane)) return null;
    claims.lane = lane;
  }
  return claims;
}

/** A sandbox's memory of tokens it verified, and the time that bounds it. */
export interface VerifyMemo {
  memory: Pick<SandboxCache, 'verifiedToken' | 'rememberToken'>;
  nowSec: number;
}

/**
 * Check a token's shape, key and signature. Never throws: every failure is a reason. With a memo, a
 * token this sandbox verified under the same key object (the same stored key) and still unexpired
 * is answered from memory; only successes are kept.
 */
export async function verifyToken(token: string, keys: KeyRing, memo?: VerifyMemo): Promise<Verified> {
  const kept = memo ? await memo.memory.verifiedToken(token, memo.nowSec, (k) => keys.verifyingKey(k)) : null;
  if (kept) return { ok: true, ...kept };
  const verified = await verifyAfresh(token, keys);
  if (memo && verified.ok) memo.memory.rememberToken(token, verified, memo.nowSec);
  return verified;
}

async function verifyAfresh(token: string, keys: KeyRing): Promise<Verified> {
  // One spelling per token: base64url has several spellings of the same bytes (unused low bits of
  // the last character), and the controller counts tokens by their text. Only the spelling the room
  // writes verifies.
  const jws = decodeCompact(token);
  if (jws === null) return { ok: false, reason: 'token_malformed', kid: null };
  if (jws === 'noncanonical') return { ok: false, reason: 'token_noncanonical', kid: null };
  const header = jsonObjectOf(jws.header);
  // Nothing but alg and kid: a `crit` or any other parameter is nothing the room ever signs.
  if (
    header === null ||
    Object.keys(header).length !== 2 ||
    header.alg !== 'HS512' ||
    typeof header.kid !== 'string' ||
    header.kid === ''
  ) {
    return { ok: false, reason: 'token_malformed', kid: null };
  }
  const kid = header.kid;
  try {
    const key = await keys.verifyingKey(kid);
    if (key === null) return { ok: false, reason: 'token_unknown_kid', kid };
    // A key of another hash or use rejects (token_malformed, below); never a pass.
    if (!(await verifyCompact('HS512', jws, key))) return { ok: false, reason: 'token_bad_signature', kid };
    const claims = parseClaims(jws.payload);
    if (claims === null) return { ok: false, reason: 'token_malformed', kid };
    return { ok: true, claims, kid, key, signature: jws.signature };
  } catch {
    return { ok: false, reason: 'token_malformed', kid };
  }
}
