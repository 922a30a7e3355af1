// The simulator's HMAC (sim/sync-hmac.ts) must be WebCrypto's HMAC byte for byte: the simulator runs
// the edge's real decision code, so a token it signs must verify on the real room and back again.
import { webcrypto } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { proofChallenge } from '../../src/core/tokens/proof.js';
import { syncHmacSubtle } from '../../sim/sync-hmac.js';

const real = webcrypto.subtle as SubtleCrypto;
const fast = syncHmacSubtle(real);
const keyBytes = new Uint8Array(64).map((_, i) => (i * 37 + 11) & 255);
const message = new TextEncoder().encode('wr-identity:ip:192.0.2.7');

describe('the simulator HMAC', () => {
  for (const hash of ['SHA-256', 'SHA-512'] as const) {
    it(`signs ${hash} exactly as WebCrypto does, and verifies it`, async () => {
      const fastKey = await fast.importKey('raw', keyBytes, { name: 'HMAC', hash }, false, ['sign', 'verify']);
      const realKey = await real.importKey('raw', keyBytes, { name: 'HMAC', hash }, false, ['sign', 'verify']);
      const mine = new Uint8Array(await fast.sign('HMAC', fastKey, message));
      const theirs = new Uint8Array(await real.sign('HMAC', realKey, message));
      expect(mine).toEqual(theirs);
      expect(mine.length).toBe(hash === 'SHA-256' ? 32 : 64);
      expect(await fast.verify('HMAC', fastKey, theirs, message)).toBe(true);
      expect(await real.verify('HMAC', realKey, mine, message)).toBe(true);
    });
  }

  it('refuses a signature that is altered, cut short or made for other bytes', async () => {
    const key = await fast.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign', 'verify']);
    const mac = new Uint8Array(await fast.sign({ name: 'HMAC' }, key, message));
    const altered = mac.slice();
    altered[10] = altered[10]! ^ 1;
    expect(await fast.verify('HMAC', key, altered, message)).toBe(false);
    expect(await fast.verify('HMAC', key, mac.slice(0, 32), message)).toBe(false);
    expect(await fast.verify('HMAC', key, mac, new TextEncoder().encode('wr-identity:ip:192.0.2.8'))).toBe(false);
  });

  it('keeps the key bytes it was given, even when the caller reuses its buffer', async () => {
    const bytes = keyBytes.slice();
    const key = await fast.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const before = new Uint8Array(await fast.sign('HMAC', key, message));
    bytes.fill(0);
    expect(new Uint8Array(await fast.sign('HMAC', key, message))).toEqual(before);
  });

  it('makes jose tokens the real WebCrypto verifies, and verifies the ones it makes', async () => {
    const fastKey = await fast.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign', 'verify']);
    const realKey = await real.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign', 'verify']);
    const payload = new TextEncoder().encode('{"dec":"wait","exp":1,"sub":"x","room":"r"}');
    const header = { alg: 'HS512', kid: 'k1' };
    // jose calls the global crypto.subtle, which is WebCrypto's in this test file: the fast key is a
    // WebCrypto key too, so it signs there, and both tokens must be one and the same.
    const viaFastKey = await new CompactSign(payload).setProtectedHeader(header).sign(fastKey);
    const viaRealKey = await new CompactSign(payload).setProtectedHeader(header).sign(realKey);
    expect(viaFastKey).toBe(viaRealKey);
    const signature = viaRealKey.slice(viaRealKey.lastIndexOf('.') + 1);
    const input = new TextEncoder().encode(viaRealKey.slice(0, viaRealKey.lastIndexOf('.')));
    const mac = new Uint8Array(await fast.sign('HMAC', fastKey, input));
    expect(Buffer.from(mac).toString('base64url')).toBe(signature);
    await expect(compactVerify(viaRealKey, fastKey)).resolves.toBeTruthy();
  });

  it("digests exactly as WebCrypto does, so the proof of work's puzzle is the edge's", async () => {
    for (const hash of ['SHA-256', 'SHA-512'] as const) {
      expect(new Uint8Array(await fast.digest(hash, message))).toEqual(
        new Uint8Array(await real.digest(hash, message)),
      );
      expect(new Uint8Array(await fast.digest({ name: hash }, message.subarray(3)))).toEqual(
        new Uint8Array(await real.digest(hash, message.subarray(3))),
      );
    }
    // The puzzle (HMAC-SHA-512 and eight SHA-256 digests) under the simulator's crypto and under WebCrypto.
    const token = 'eyJhbGciOiJIUzUxMiIsImtpZCI6ImsxIn0.e30.c2ln';
    const puzzle = async (subtle: SubtleCrypto) => {
      const key = await subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign', 'verify']);
      return withSubtle(subtle, () => proofChallenge(token, key, 5));
    };
    expect(await puzzle(fast)).toEqual(await puzzle(real));
  });

  it('passes everything else to WebCrypto: keys it did not import', async () => {
    const foreign = await real.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']);
    expect(new Uint8Array(await fast.sign('HMAC', foreign, message))).toEqual(
      new Uint8Array(await real.sign('HMAC', foreign, message)),
    );
  });
});

/** Run `f` with the global crypto.subtle replaced by `subtle` (the puzzle's code calls the global). */
async function withSubtle<T>(subtle: SubtleCrypto, f: () => Promise<T>): Promise<T> {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  const real = globalThis.crypto;
  const crypto = new Proxy(real, {
    get: (target, p) => (p === 'subtle' ? subtle : (Reflect.get(target, p, target) as unknown)),
  });
  Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true, writable: true });
  try {
    return await f();
  } finally {
    Object.defineProperty(globalThis, 'crypto', saved);
  }
}
