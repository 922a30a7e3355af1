// The room's token: a compact JWS (HS512) whose bytes depend only on (decision, expiry, identity, key),
// so the same identity in the same window gets the same token on every device (seed pattern step 11).
import { base64url } from 'jose';
import { hmacKey, type KeyRing } from './keys.js';
import type { ReasonCode } from './types.js';

export interface TokenClaims {
  dec: 'wait' | 'allow';
  /** Whole seconds since the epoch, on a window boundary. */
  exp: number;
  /** Keyed identity hash (identity.ts). */
  sub: string;
}

export type Verified =
  | { ok: true; claims: TokenClaims; kid: string; key: CryptoKey; signature: Uint8Array }
  | { ok: false; reason: ReasonCode; kid: string | null };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The compact JWS of the claims: `{"alg":"HS512","kid":…}` and `{"dec","exp","sub"}` in that key order, so
 * identical inputs give byte-identical tokens. Put together here with one `crypto.subtle.sign` (byte for
 * byte what jose's CompactSign makes, test/core/token.test.ts checks it): on the Wasm build jose's
 * general path cost ~0.15-0.3 ms more for every token a new, renewed or drawn visitor gets.
 */
export async function signToken(claims: TokenClaims, kid: string, key: CryptoKey | Uint8Array): Promise<string> {
  const hmac = key instanceof Uint8Array ? await hmacKey(key) : key;
  const head = base64url.encode(JSON.stringify({ alg: 'HS512', kid }));
  const body = base64url.encode(JSON.stringify({ dec: claims.dec, exp: claims.exp, sub: claims.sub }));
  const signature = await crypto.subtle.sign('HMAC', hmac, encoder.encode(`${head}.${body}`));
  return `${head}.${body}.${base64url.encode(new Uint8Array(signature))}`;
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
  const { dec, exp, sub } = value as Record<string, unknown>;
  if (keys.length !== 3 || (dec !== 'wait' && dec !== 'allow')) return null;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp) || typeof sub !== 'string') return null;
  return { dec, exp, sub };
}

/** The protected header's key id, when it is exactly the room's `{"alg":"HS512","kid":…}`; else null. */
function headerKid(part: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(base64url.decode(part)));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { alg, kid } = value as Record<string, unknown>;
  // Nothing but alg and kid: a `crit` or any other parameter is nothing the room ever signs.
  if (Object.keys(value).length !== 2 || alg !== 'HS512' || typeof kid !== 'string' || kid === '') return null;
  return kid;
}

function decodePart(part: string): Uint8Array | null {
  try {
    return base64url.decode(part);
  } catch {
    return null;
  }
}

/**
 * Check a token's shape, key and signature. Never throws: every failure is a reason.
 * Verified here with one `crypto.subtle.verify` rather than jose's compactVerify: a token of the room
 * has one fixed header and one algorithm, and on the Wasm build jose's general path (header checks,
 * key normalisation) cost ~0.35 ms of the admitted visitor's ~0.45 ms of verification per request.
 */
export async function verifyToken(token: string, keys: KeyRing): Promise<Verified> {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'token_malformed', kid: null };
  const [head, body, sig] = parts as [string, string, string];
  const kid = headerKid(head);
  if (kid === null) return { ok: false, reason: 'token_malformed', kid: null };
  const key = await keys.verifyingKey(kid);
  if (key === null) return { ok: false, reason: 'token_unknown_kid', kid };
  const signature = decodePart(sig);
  const payload = decodePart(body);
  if (signature === null || payload === null) return { ok: false, reason: 'token_malformed', kid };
  let genuine: boolean;
  try {
    genuine = await crypto.subtle.verify('HMAC', key, signature as Uint8Array<ArrayBuffer>, encoder.encode(`${head}.${body}`));
  } catch {
    genuine = false;
  }
  if (!genuine) return { ok: false, reason: 'token_bad_signature', kid };
  const claims = parseClaims(payload);
  if (claims === null) return { ok: false, reason: 'token_malformed', kid };
  return { ok: true, claims, kid, key, signature };
}
