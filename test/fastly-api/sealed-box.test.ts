import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blake2b, openSealed, seal } from '../../fastly-api/sealed-box.js';

const raw = (key: import('node:crypto').KeyObject) =>
  Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');

describe('a NaCl sealed box', () => {
  it('hashes as BLAKE2b does (the 64-byte form against node:crypto)', () => {
    for (const data of ['', 'abc', 'x'.repeat(200)]) {
      expect(Buffer.from(blake2b(Buffer.from(data), 64)).toString('hex')).toBe(
        createHash('blake2b512').update(data).digest('hex'),
      );
    }
    // RFC 7693's example is the 64-byte one; the 24-byte form differs in its parameter block, not a truncation
    expect(Buffer.from(blake2b(Buffer.from('abc'), 24))).not.toEqual(
      Buffer.from(blake2b(Buffer.from('abc'), 64)).subarray(0, 24),
    );
  });

  it('opens what was sealed to the key pair, and nothing else', () => {
    const pair = generateKeyPairSync('x25519');
    const message = Buffer.from('k'.repeat(150));
    const sealed = seal(message, raw(pair.publicKey));
    expect(sealed).toHaveLength(32 + 16 + message.length);
    expect(openSealed(sealed, pair.privateKey, raw(pair.publicKey))).toEqual(message);
    const other = generateKeyPairSync('x25519');
    expect(openSealed(sealed, other.privateKey, raw(other.publicKey))).toBeNull();
    const tampered = Buffer.from(sealed);
    tampered[60] = tampered[60]! ^ 1;
    expect(openSealed(tampered, pair.privateKey, raw(pair.publicKey))).toBeNull();
  });
});
