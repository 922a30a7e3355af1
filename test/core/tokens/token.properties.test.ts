// Token verification over arbitrary strings and over mutations of valid tokens: it never throws,
// never verifies anything but the token as signed, and every failure is one stable reason.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../../../src/core/tokens/keys.js';
import { signToken, verifyToken } from '../../../src/core/tokens/token.js';
import type { ReasonCode } from '../../../src/core/types.js';
import { KEY_BASE64, KEY_BYTES, KID } from '../../support/fakes.js';

const ring = () =>
  createKeyRing(
    async (kid) => (kid === KID ? KEY_BASE64 : null),
    () => {},
  );
const TOKEN_REASONS: ReasonCode[] = [
  'token_malformed',
  'token_noncanonical',
  'token_bad_signature',
  'token_unknown_kid',
];
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ';

describe('verifyToken over arbitrary input', () => {
  it('refuses arbitrary strings with one reason, never throwing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(...alphabet) })), async (text) => {
        const v = await verifyToken(text, ring());
        expect(v.ok).toBe(false);
        if (!v.ok) expect(TOKEN_REASONS).toContain(v.reason);
      }),
      { numRuns: 1500 },
    );
  });

  it('never verifies a mutation of a valid token', async () => {
    const token = await signToken({ dec: 'allow', exp: 1_800_000_000, sub: 'visitor', room: 'shop' }, KID, KEY_BYTES);
    const mutation = fc.oneof(
      // Change one character.
      fc
        .tuple(fc.nat(token.length - 1), fc.constantFrom(...alphabet))
        .map(([i, c]) => token.slice(0, i) + c + token.slice(i + 1)),
      // Insert or delete one.
      fc
        .tuple(fc.nat(token.length), fc.constantFrom(...alphabet))
        .map(([i, c]) => token.slice(0, i) + c + token.slice(i)),
      fc.nat(token.length - 1).map((i) => token.slice(0, i) + token.slice(i + 1)),
      // Swap two parts, or cut it anywhere.
      fc.constantFrom(0, 1, 2).map((i) => {
        const parts = token.split('.');
        [parts[i], parts[(i + 1) % 3]] = [parts[(i + 1) % 3]!, parts[i]!];
        return parts.join('.');
      }),
      fc.nat(token.length - 1).map((i) => token.slice(0, i)),
    );
    await fc.assert(
      fc.asyncProperty(
        mutation.filter((m) => m !== token),
        async (mutated) => {
          const v = await verifyToken(mutated, ring());
          expect(v.ok, mutated).toBe(false);
          if (!v.ok) expect(TOKEN_REASONS).toContain(v.reason);
        },
      ),
      { numRuns: 3000 },
    );
    expect((await verifyToken(token, ring())).ok).toBe(true);
  });
});
