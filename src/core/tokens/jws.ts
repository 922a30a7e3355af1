// Compact JWS with HMAC, exactly as the room makes and checks them (token.ts: HS512, invite.ts: HS256),
// and unpadded base64url (RFC 4648 §5). Nothing else: no other algorithm, no JSON serialization, no
// header parameter but `alg` and `kid`. Only `crypto.subtle` importKey, sign and verify are used, read
// from the global at each call (the simulator replaces it: sim/sync-hmac.ts).
//
// Written for SpiderMonkey's interpreter (the Wasm build has no JIT): table lookups over typed arrays,
// the output's characters gathered as char codes and made into a string by one native call.

/** The algorithms the room signs with, and the hash each one's key must have. */
export type HmacAlg = 'HS256' | 'HS512';
const HASH: Record<HmacAlg, 'SHA-256' | 'SHA-512'> = { HS256: 'SHA-256', HS512: 'SHA-512' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The char code of each 6-bit value. */
const ENCODE = new Uint8Array(64);
/** The 6-bit value of each char code below 128; 255 for a character outside the alphabet. */
const DECODE = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) {
  const code = ALPHABET.charCodeAt(i);
  ENCODE[i] = code;
  DECODE[code] = i;
}
const DOT = 46;

const encoder = new TextEncoder();

/** The length of the base64url of `n` bytes, unpadded. */
const encodedLength = (n: number): number => ((n * 4 + 2) / 3) | 0;

/** Writes the base64url of `bytes` as char codes into `out` from `at`; returns where it stopped. */
function writeBase64url(bytes: Uint8Array, out: Uint8Array, at: number): number {
  const n = bytes.length;
  const whole = n - (n % 3);
  let i = 0;
  for (; i < whole; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[at] = ENCODE[v >>> 18]!;
    out[at + 1] = ENCODE[(v >>> 12) & 63]!;
    out[at + 2] = ENCODE[(v >>> 6) & 63]!;
    out[at + 3] = ENCODE[v & 63]!;
    at += 4;
  }
  if (n - whole === 1) {
    const v = bytes[i]!;
    out[at++] = ENCODE[v >>> 2]!;
    out[at++] = ENCODE[(v & 3) << 4]!;
  } else if (n - whole === 2) {
    const v = (bytes[i]! << 8) | bytes[i + 1]!;
    out[at++] = ENCODE[v >>> 10]!;
    out[at++] = ENCODE[(v >>> 4) & 63]!;
    out[at++] = ENCODE[(v & 15) << 2]!;
  }
  return at;
}

/** Char codes below 256 as a string, a chunk per call (an argument list has a limit). */
function charCodesToString(codes: Uint8Array): string {
  const CHUNK = 8192;
  if (codes.length <= CHUNK) return String.fromCharCode.apply(null, codes as unknown as number[]);
  let text = '';
  for (let i = 0; i < codes.length; i += CHUNK)
    text += String.fromCharCode.apply(null, codes.subarray(i, i + CHUNK) as unknown as number[]);
  return text;
}

/** The unpadded base64url of `bytes`: the one canonical spelling. */
export function encodeBase64url(bytes: Uint8Array): string {
  const out = new Uint8Array(encodedLength(bytes.length));
  writeBase64url(bytes, out, 0);
  return charCodesToString(out);
}

/** The bytes of unpadded base64url text, or null when it is not that (see decodeBase64url). */
function decodeOrNull(text: string): Uint8Array | null {
  const n = text.length;
  const rest = n & 3;
  if (rest === 1) return null;
  const out = new Uint8Array((n * 3) >>> 2);
  const whole = n - rest;
  let o = 0;
  let i = 0;
  for (; i < whole; i += 4) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 127) return null;
    const v0 = DECODE[c0]!;
    const v1 = DECODE[c1]!;
    const v2 = DECODE[c2]!;
    const v3 = DECODE[c3]!;
    // 255 (outside the alphabet) has the two high bits set, no 6-bit value has.
    if ((v0 | v1 | v2 | v3) > 63) return null;
    const v = (v0 << 18) | (v1 << 12) | (v2 << 6) | v3;
    out[o] = v >>> 16;
    out[o + 1] = v >>> 8;
    out[o + 2] = v;
    o += 3;
  }
  if (rest !== 0) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = rest === 3 ? text.charCodeAt(i + 2) : ALPHABET.charCodeAt(0);
    if ((c0 | c1 | c2) > 127) return null;
    const v0 = DECODE[c0]!;
    const v1 = DECODE[c1]!;
    const v2 = DECODE[c2]!;
    if ((v0 | v1 | v2) > 63) return null;
    const v = (v0 << 12) | (v1 << 6) | v2;
    out[o] = v >>> 10;
    if (rest === 3) out[o + 1] = v >>> 2;
  }
  return out;
}

/**
 * The bytes of unpadded base64url text. Throws a TypeError on any character outside the alphabet
 * (`=` padding, `+`, `/` and whitespace included) and on a length of 1 more than a multiple of 4.
 * Unused low bits of the last character are ignored, as jose's decoder (atob) did: `isCanonical`
 * tells such spellings apart.
 */
export function decodeBase64url(text: string): Uint8Array {
  const bytes = decodeOrNull(text);
  if (bytes === null) throw new TypeError('not unpadded base64url');
  return bytes;
}

/**
 * For text that decodes: whether it is the spelling `encodeBase64url` gives of its bytes, i.e. no
 * unused low bit of its last character is set (2 of them after 3 characters, 4 after 2).
 */
function endsCanonically(text: string): boolean {
  const rest = text.length & 3;
  if (rest === 0) return true;
  const last = DECODE[text.charCodeAt(text.length - 1)]!;
  return (last & (rest === 2 ? 15 : 3)) === 0;
}

/** Whether `text` is unpadded base64url spelled exactly as `encodeBase64url` spells its bytes. */
export function isCanonical(text: string): boolean {
  return decodeOrNull(text) !== null && endsCanonically(text);
}

/** A compact JWS's three parts, decoded, and the bytes its signature signs. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A part's bytes as a JSON object (strict UTF-8), or null: a protected header, or an invite's claims. */
export function jsonObjectOf(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(strictUtf8.decode(bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export interface DecodedJws {
  header: Uint8Array;
  payload: Uint8Array;
  signature: Uint8Array;
  /** `header.payload` as it is spelled, in ASCII: what the signature signs. */
  signingInput: Uint8Array;
}

const ALPHABET_ONLY = /^[A-Za-z0-9_-]*$/;

/**
 * A compact JWS's parts, decoded; nothing about what they say or whether the signature holds. Null
 * when the text is not three parts of base64url; 'noncanonical' when, going through the parts in turn,
 * the first that fails is well-formed but not canonically spelled and no part has a character outside
 * the alphabet (base64url spells the same bytes several ways, and only the one `encodeBase64url` gives
 * is taken).
 */
export function decodeCompact(jws: string): DecodedJws | 'noncanonical' | null {
  const parts = jws.split('.');
  if (parts.length !== 3) return null;
  const decoded: Uint8Array[] = [];
  for (const part of parts) {
    const bytes = decodeOrNull(part);
    if (bytes === null) return null;
    if (!endsCanonically(part)) return parts.every((p) => ALPHABET_ONLY.test(p)) ? 'noncanonical' : null;
    decoded.push(bytes);
  }
  return {
    header: decoded[0]!,
    payload: decoded[1]!,
    signature: decoded[2]!,
    signingInput: encoder.encode(jws.slice(0, jws.length - parts[2]!.length - 1)),
  };
}

/**
 * The key as an HMAC key for `alg` and `usage`: bytes are imported (as jose did); a key object must be
 * a secret HMAC key of alg's hash that allows `usage`, else a TypeError: a key of another hash is
 * never used.
 */
async function hmacKey(alg: HmacAlg, key: CryptoKey | Uint8Array, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const hash = HASH[alg];
  const usable =
    key instanceof Uint8Array
      ? await crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash }, false, [usage])
      : key;
  const algorithm = usable.algorithm as Partial<HmacKeyAlgorithm>;
  if (
    usable.type !== 'secret' ||
    algorithm.name !== 'HMAC' ||
    algorithm.hash?.name !== hash ||
    !usable.usages.includes(usage)
  ) {
    throw new TypeError(`${alg} needs a secret HMAC ${hash} key that may ${usage}`);
  }
  return usable;
}

/**
 * A compact JWS of `payload` with the protected header `{"alg":ALG,"kid":KID}` (JSON.stringify, in
 * that order: byte for byte what jose's CompactSign made from `{ alg, kid }`). Rejects with a
 * TypeError when the key is not one for `alg`.
 */
export async function signCompact(
  alg: HmacAlg,
  kid: string,
  payload: Uint8Array,
  key: CryptoKey | Uint8Array,
): Promise<string> {
  const header = encoder.encode(JSON.stringify({ alg, kid }));
  const input = new Uint8Array(encodedLength(header.length) + 1 + encodedLength(payload.length));
  const dot = writeBase64url(header, input, 0);
  input[dot] = DOT;
  writeBase64url(payload, input, dot + 1);
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(alg, key, 'sign'), input);
  return `${charCodesToString(input)}.${encodeBase64url(new Uint8Array(mac))}`;
}

/**
 * Whether `jws`'s signature is `alg`'s HMAC of its signing input under `key`, compared by the runtime
 * (constant time). False when it is not, or when the runtime cannot check it; rejects with a TypeError
 * when the key is not one for `alg` (another hash, not HMAC, not for verifying): never a pass.
 */
export async function verifyCompact(alg: HmacAlg, jws: DecodedJws, key: CryptoKey | Uint8Array): Promise<boolean> {
  const usable = await hmacKey(alg, key, 'verify');
  try {
    return await crypto.subtle.verify(
      'HMAC',
      usable,
      jws.signature as Uint8Array<ArrayBuffer>,
      jws.signingInput as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}
