// The simulator's HMAC: the very bytes WebCrypto gives, computed on the simulator's own thread.
//
// Node's WebCrypto hands every HMAC to its thread pool and back, about 40 µs a call however small
// the message, and a simulated decision makes three or four of them (the identity hash, the token's
// check and its signature). In a run that awaits each decision in turn, the main thread spends most
// of its time waiting for those hops: a million visitors would take hours. The edge's code, and
// its JWS (src/core/tokens/jws.ts), use the global `crypto.subtle`; here that global answers HMAC sign and verify from
// node:crypto's createHmac at once, for keys imported through it, and SHA digests (the proof of work's
// puzzle) from createHash, and passes everything else to WebCrypto. Keys stay WebCrypto's own
// objects, so every check made of a key still applies.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

interface RawHmacKey {
  hash: 'sha256' | 'sha384' | 'sha512' | 'sha1';
  bytes: Buffer;
}

const HASHES: Record<string, RawHmacKey['hash']> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

/** The name of an algorithm given as a string or as `{ name }`. */
function nameOf(algorithm: unknown): string | null {
  if (typeof algorithm === 'string') return algorithm;
  if (typeof algorithm === 'object' && algorithm !== null && typeof (algorithm as { name?: unknown }).name === 'string')
    return (algorithm as { name: string }).name;
  return null;
}

function bytesOf(data: unknown): Buffer {
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw new TypeError('sync-hmac: data is not a BufferSource');
}

function arrayBufferOf(mac: Buffer): ArrayBuffer {
  // A digest owns its whole buffer; a copy only if it is ever a slice of a larger one.
  if (mac.byteOffset === 0 && mac.byteLength === mac.buffer.byteLength) return mac.buffer as ArrayBuffer;
  return mac.buffer.slice(mac.byteOffset, mac.byteOffset + mac.byteLength) as ArrayBuffer;
}

/** A SubtleCrypto whose HMAC sign and verify run at once; built over `subtle`, which does the rest. */
export function syncHmacSubtle(subtle: SubtleCrypto): SubtleCrypto {
  const raw = new WeakMap<CryptoKey, RawHmacKey>();
  const macOf = (key: RawHmacKey, data: unknown): Buffer =>
    createHmac(key.hash, key.bytes).update(bytesOf(data)).digest();

  const own = {
    async importKey(
      format: string,
      keyData: unknown,
      algorithm: unknown,
      extractable: boolean,
      usages: KeyUsage[],
    ): Promise<CryptoKey> {
      const key = await (subtle.importKey as (...args: unknown[]) => Promise<CryptoKey>)(
        format,
        keyData,
        algorithm,
        extractable,
        usages,
      );
      const hash = nameOf((algorithm as { hash?: unknown } | null)?.hash);
      if (format === 'raw' && nameOf(algorithm) === 'HMAC' && hash !== null && HASHES[hash] !== undefined) {
        // A copy: the caller may reuse its buffer, as WebCrypto allows.
        raw.set(key, { hash: HASHES[hash]!, bytes: Buffer.from(bytesOf(keyData)) });
      }
      return key;
    },
    sign(algorithm: unknown, key: CryptoKey, data: unknown): Promise<ArrayBuffer> {
      const kept = nameOf(algorithm) === 'HMAC' && key.usages.includes('sign') ? raw.get(key) : undefined;
      if (kept === undefined)
        return (subtle.sign as (...args: unknown[]) => Promise<ArrayBuffer>)(algorithm, key, data);
      return Promise.resolve(arrayBufferOf(macOf(kept, data)));
    },
    // The proof of work's puzzle (src/core/tokens/proof.ts) takes 8 SHA-256 digests for every waiting answer
    // that asks for one: at once too, as the same bytes node:crypto's createHash gives.
    digest(algorithm: unknown, data: unknown): Promise<ArrayBuffer> {
      const name = nameOf(algorithm);
      const hash = name === null ? undefined : HASHES[name.toUpperCase()];
      if (hash === undefined) return (subtle.digest as (...args: unknown[]) => Promise<ArrayBuffer>)(algorithm, data);
      return Promise.resolve(arrayBufferOf(createHash(hash).update(bytesOf(data)).digest()));
    },
    verify(algorithm: unknown, key: CryptoKey, signature: unknown, data: unknown): Promise<boolean> {
      const kept = nameOf(algorithm) === 'HMAC' && key.usages.includes('verify') ? raw.get(key) : undefined;
      if (kept === undefined)
        return (subtle.verify as (...args: unknown[]) => Promise<boolean>)(algorithm, key, signature, data);
      const mac = macOf(kept, data);
      const given = bytesOf(signature);
      return Promise.resolve(given.length === mac.length && timingSafeEqual(given, mac));
    },
  };

  return new Proxy(subtle, {
    get(target, property) {
      if (property in own) return own[property as keyof typeof own];
      const value = Reflect.get(target, property, target) as unknown;
      // WebCrypto's methods check their receiver: bound to the real object, never to the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

let installed = false;

/**
 * Makes the process's `crypto.subtle` the synchronous HMAC one, once. For the simulator's process
 * (and the tests that run scenarios): keys imported before this keep going through WebCrypto.
 */
export function useSyncHmac(): void {
  if (installed) return;
  installed = true;
  const real = globalThis.crypto;
  const subtle = syncHmacSubtle(real.subtle);
  const crypto = new Proxy(real, {
    get(target, property) {
      if (property === 'subtle') return subtle;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true, writable: true, enumerable: true });
}
