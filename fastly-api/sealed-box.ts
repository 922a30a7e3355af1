// Opening a NaCl sealed box (libsodium crypto_box_seal, Go's nacl/box.SealAnonymous), the way the
// Fastly CLI encrypts a secret to the client key the API handed it: `ephemeral public key (32) ||
// Poly1305 tag (16) || XSalsa20 ciphertext`, the nonce being BLAKE2b-192 of the ephemeral key and the
// recipient's key. node:crypto has X25519 but neither Salsa20 nor a BLAKE2b of 24 bytes, so those
// are here, in plain TypeScript: slow, and only ever run on a secret of a few hundred bytes in tests.
// `seal` exists for this file's own tests.
import { createPublicKey, diffieHellman, generateKeyPairSync, type KeyObject } from 'node:crypto';

const rotl = (v: number, c: number): number => ((v << c) | (v >>> (32 - c))) >>> 0;
const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

/** The Salsa20 core over key (32 bytes) and input (16 bytes): the raw state after 20 rounds, and the start state. */
function salsaRounds(key: Uint8Array, input: Uint8Array): { x: Uint32Array; j: Uint32Array } {
  const k = new DataView(key.buffer, key.byteOffset, 32);
  const n = new DataView(input.buffer, input.byteOffset, 16);
  const j = new Uint32Array([
    SIGMA[0]!,
    k.getUint32(0, true),
    k.getUint32(4, true),
    k.getUint32(8, true),
    k.getUint32(12, true),
    SIGMA[1]!,
    n.getUint32(0, true),
    n.getUint32(4, true),
    n.getUint32(8, true),
    n.getUint32(12, true),
    SIGMA[2]!,
    k.getUint32(16, true),
    k.getUint32(20, true),
    k.getUint32(24, true),
    k.getUint32(28, true),
    SIGMA[3]!,
  ]);
  const x = Uint32Array.from(j);
  const q = (a: number, b: number, c: number, d: number): void => {
    x[b] = (x[b]! ^ rotl((x[a]! + x[d]!) >>> 0, 7)) >>> 0;
    x[c] = (x[c]! ^ rotl((x[b]! + x[a]!) >>> 0, 9)) >>> 0;
    x[d] = (x[d]! ^ rotl((x[c]! + x[b]!) >>> 0, 13)) >>> 0;
    x[a] = (x[a]! ^ rotl((x[d]! + x[c]!) >>> 0, 18)) >>> 0;
  };
  for (let i = 0; i < 10; i++) {
    q(0, 4, 8, 12);
    q(5, 9, 13, 1);
    q(10, 14, 2, 6);
    q(15, 3, 7, 11); // columns
    q(0, 1, 2, 3);
    q(5, 6, 7, 4);
    q(10, 11, 8, 9);
    q(15, 12, 13, 14); // rows
  }
  return { x, j };
}

function words(ws: number[]): Uint8Array {
  const out = new Uint8Array(ws.length * 4);
  const v = new DataView(out.buffer);
  ws.forEach((w, i) => v.setUint32(i * 4, w >>> 0, true));
  return out;
}

function hsalsa20(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const { x } = salsaRounds(key, nonce16);
  return words([x[0]!, x[5]!, x[10]!, x[15]!, x[6]!, x[7]!, x[8]!, x[9]!]);
}

/** `length` bytes of the XSalsa20 key stream for key and a 24-byte nonce. */
function xsalsa20Stream(key: Uint8Array, nonce: Uint8Array, length: number): Uint8Array {
  const sub = hsalsa20(key, nonce.subarray(0, 16));
  const out = new Uint8Array(length);
  const input = new Uint8Array(16);
  input.set(nonce.subarray(16, 24));
  for (let block = 0, at = 0; at < length; block++, at += 64) {
    new DataView(input.buffer).setUint32(8, block, true);
    const { x, j } = salsaRounds(sub, input);
    const bytes = words(Array.from(x, (v, i) => v + j[i]!));
    out.set(bytes.subarray(0, Math.min(64, length - at)), at);
  }
  return out;
}

const le = (b: Uint8Array): bigint => b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);

function poly1305(key: Uint8Array, msg: Uint8Array): Uint8Array {
  const p = (1n << 130n) - 5n;
  const r = le(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = le(key.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < msg.length; i += 16) {
    const chunk = msg.subarray(i, i + 16);
    acc = ((acc + le(chunk) + (1n << BigInt(8 * chunk.length))) * r) % p;
  }
  let tag = (acc + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++, tag >>= 8n) out[i] = Number(tag & 0xffn);
  return out;
}

const M64 = (1n << 64n) - 1n;
const B2B_IV = [
  0x6a09e667f3bcc908n,
  0xbb67ae8584caa73bn,
  0x3c6ef372fe94f82bn,
  0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n,
  0x9b05688c2b3e6c1fn,
  0x1f83d9abfb41bd6bn,
  0x5be0cd19137e2179n,
];
const B2B_SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];
const rotr64 = (v: bigint, c: bigint): bigint => ((v >> c) | (v << (64n - c))) & M64;

/** BLAKE2b (unkeyed) with an output of `outLen` bytes (1..64). */
export function blake2b(data: Uint8Array, outLen: number): Uint8Array {
  const h = [...B2B_IV];
  h[0] = h[0]! ^ BigInt(0x01010000 ^ outLen);
  const blocks = Math.max(1, Math.ceil(data.length / 128));
  for (let b = 0; b < blocks; b++) {
    const block = new Uint8Array(128);
    block.set(data.subarray(b * 128, b * 128 + 128));
    const m = Array.from({ length: 16 }, (_, i) => le(block.subarray(i * 8, i * 8 + 8)));
    const last = b === blocks - 1;
    const v = [...h, ...B2B_IV];
    v[12] = v[12]! ^ BigInt(last ? data.length : (b + 1) * 128);
    if (last) v[14] = v[14]! ^ M64;
    const g = (a: number, bb: number, c: number, d: number, x: bigint, y: bigint): void => {
      v[a] = (v[a]! + v[bb]! + x) & M64;
      v[d] = rotr64(v[d]! ^ v[a]!, 32n);
      v[c] = (v[c]! + v[d]!) & M64;
      v[bb] = rotr64(v[bb]! ^ v[c]!, 24n);
      v[a] = (v[a]! + v[bb]! + y) & M64;
      v[d] = rotr64(v[d]! ^ v[a]!, 16n);
      v[c] = (v[c]! + v[d]!) & M64;
      v[bb] = rotr64(v[bb]! ^ v[c]!, 63n);
    };
    for (let r = 0; r < 12; r++) {
      const s = B2B_SIGMA[r % 10]!;
      g(0, 4, 8, 12, m[s[0]!]!, m[s[1]!]!);
      g(1, 5, 9, 13, m[s[2]!]!, m[s[3]!]!);
      g(2, 6, 10, 14, m[s[4]!]!, m[s[5]!]!);
      g(3, 7, 11, 15, m[s[6]!]!, m[s[7]!]!);
      g(0, 5, 10, 15, m[s[8]!]!, m[s[9]!]!);
      g(1, 6, 11, 12, m[s[10]!]!, m[s[11]!]!);
      g(2, 7, 8, 13, m[s[12]!]!, m[s[13]!]!);
      g(3, 4, 9, 14, m[s[14]!]!, m[s[15]!]!);
    }
    for (let i = 0; i < 8; i++) h[i] = h[i]! ^ v[i]! ^ v[i + 8]!;
  }
  const out = new Uint8Array(64);
  h.forEach((w, i) => {
    for (let k = 0; k < 8; k++) out[i * 8 + k] = Number((w >> BigInt(8 * k)) & 0xffn);
  });
  return out.slice(0, outLen);
}

const x25519Public = (raw: Uint8Array): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });
const rawOf = (key: KeyObject): Buffer => Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');

/** crypto_box's shared key: HSalsa20 of the X25519 secret. */
const boxKey = (privateKey: KeyObject, peer: Uint8Array): Uint8Array =>
  hsalsa20(diffieHellman({ privateKey, publicKey: x25519Public(peer) }), new Uint8Array(16));

/** The plaintext of a sealed box for the X25519 key pair (`publicKey` raw, 32 bytes), or null if it does not open. */
export function openSealed(sealed: Uint8Array, privateKey: KeyObject, publicKey: Uint8Array): Buffer | null {
  if (sealed.length < 48) return null;
  const epk = sealed.subarray(0, 32);
  const tag = sealed.subarray(32, 48);
  const body = sealed.subarray(48);
  const nonce = blake2b(Buffer.concat([epk, publicKey]), 24);
  const stream = xsalsa20Stream(boxKey(privateKey, epk), nonce, 32 + body.length);
  if (!Buffer.from(poly1305(stream.subarray(0, 32), body)).equals(Buffer.from(tag))) return null;
  return Buffer.from(body.map((b, i) => b ^ stream[32 + i]!));
}

/** Seals `message` to the raw X25519 `publicKey` (for tests of openSealed). */
export function seal(message: Uint8Array, publicKey: Uint8Array): Buffer {
  const eph = generateKeyPairSync('x25519');
  const epk = rawOf(eph.publicKey);
  const nonce = blake2b(Buffer.concat([epk, publicKey]), 24);
  const stream = xsalsa20Stream(boxKey(eph.privateKey, publicKey), nonce, 32 + message.length);
  const body = Buffer.from(message.map((b, i) => b ^ stream[32 + i]!));
  return Buffer.concat([epk, poly1305(stream.subarray(0, 32), body), body]);
}
