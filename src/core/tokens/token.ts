// The room's token: a compact JWS (HS512) whose bytes depend only on (decision, expiry, identity, room,
// key), so the same identity in the same window gets the same token on every device.
import { base64url, CompactSign, compactVerify, decodeProtectedHeader, errors } from 'jose';
import type { KeyRing } from './keys.js';
import type { ReasonCode, SandboxCache, TokenClaims } from '../types.js';

export type Verified =
  | { ok: true; claims: TokenClaims; kid: string; key: CryptoKey; signature: Uint8Array }
  | { ok: false; reason: ReasonCode; kid: string | null };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Made and verified with jose (CompactSign/compactVerify), by design. A hand-rolled
 * subtle.sign/verify measured ~0.2-0.35 ms faster per token on the Wasm build; not worth owning
 * JWS parsing and its edge cases ourselves.
 */
export async function signToken(claims: TokenClaims, kid: string, key: CryptoKey | Uint8Array): Promise<string> {
  // CompactSign rather than SignJWT so the claims' key order is fixed: byte-identical tokens.
  const fields = { dec: claims.dec, exp: claims.exp, sub: claims.sub, room: claims.room };
  const payload = JSON.stringify(claims.arr === undefined ? fields : { ...fields, arr: claims.arr });
  return new CompactSign(encoder.encode(payload)).setProtectedHeader({ alg: 'HS512', kid }).sign(key);
}

/** The one place where a failure becomes a reason: jose's error classes and our own checks. */
function reasonFor(error: unknown): ReasonCode {
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'token_bad_signature';
  return 'token_malformed';
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
  const { dec, exp, sub, room, arr } = value as Record<string, unknown>;
  if (dec !== 'wait' && dec !== 'allow' && dec !== 'won' && dec !== 'pre') return null;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp) || typeof sub !== 'string' || typeof room !== 'string')
    return null;
  // Exactly the claims the room signs: dec, exp, sub and room, and `arr` only where a place is kept
  // (always on `pre`, optional on `wait`, never on the others).
  if (!keys.includes('dec') || !keys.includes('exp') || !keys.includes('sub') || !keys.includes('room')) return null;
  if (keys.length === 4 && dec !== 'pre') return { dec, exp, sub, room };
  if (keys.length !== 5 || !('arr' in value) || (dec !== 'wait' && dec !== 'pre')) return null;
  if (typeof arr !== 'number' || !Number.isSafeInteger(arr) || arr < 0) return null;
  return { dec, exp, sub, room, arr };
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
  let kid: string | null = null;
  try {
    // One spelling per token: base64url has several spellings of the same bytes (unused low bits of
    // the last character), and the controller counts tokens by their text. Only the spelling the room
    // writes verifies.
    const parts = token.split('.');
    if (parts.length !== 3 || parts.some((part) => base64url.encode(base64url.decode(part)) !== part)) {
      return {
        ok: false,
        reason:
          parts.length === 3 && parts.every((p) => /^[A-Za-z0-9_-]*$/.test(p))
            ? 'token_noncanonical'
            : 'token_malformed',
        kid: null,
      };
    }
    const header = decodeProtectedHeader(token);
    // Nothing but alg and kid: a `crit` or any other parameter is nothing the room ever signs.
    if (
      Object.keys(header).length !== 2 ||
      header.alg !== 'HS512' ||
      typeof header.kid !== 'string' ||
      header.kid === ''
    ) {
      return { ok: false, reason: 'token_malformed', kid: null };
    }
    kid = header.kid;
    const key = await keys.verifyingKey(kid);
    if (key === null) return { ok: false, reason: 'token_unknown_kid', kid };
    const { payload } = await compactVerify(token, key, { algorithms: ['HS512'] });
    const claims = parseClaims(payload);
    if (claims === null) return { ok: false, reason: 'token_malformed', kid };
    const signature = base64url.decode(token.slice(token.lastIndexOf('.') + 1));
    return { ok: true, claims, kid, key, signature };
  } catch (error) {
    return { ok: false, reason: reasonFor(error), kid };
  }
}
