// The room's own compact JWS (src/core/tokens/jws.ts) against jose, which made and checked the room's
// tokens before it and stays here as the reference: the same bytes out for the same inputs, each side
// accepting what the other signs, and every refusal the same reason as under jose.
import fc from 'fast-check';
import { base64url, CompactSign, compactVerify, decodeProtectedHeader, errors } from 'jose';
import { describe, expect, it } from 'vitest';
import { tieFraction } from '../../../src/core/decision/position.js';
import { signatureOf } from '../../../src/core/decision/draw.js';
import { readWaitToken } from '../../../src/core/answer/hammer.js';
import { checkInvite, signInvite } from '../../../src/core/tokens/invite.js';
import {
  decodeBase64url,
  decodeCompact,
  encodeBase64url,
  isCanonical,
  signCompact,
  verifyCompact,
} from '../../../src/core/tokens/jws.js';
import { createKeyRing, type KeyRing } from '../../../src/core/tokens/keys.js';
import { signToken, verifyToken } from '../../../src/core/tokens/token.js';
import type { TokenClaims } from '../../../src/core/types.js';
import { KEY_BASE64, KEY_BYTES, KID } from '../../support/fakes.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ring = () =>
  createKeyRing(
    async (kid) => ({ [KID]: KEY_BASE64, 'k2025_07.b': KEY_BASE64, weak: 'c2hvcnQ=' })[kid] ?? null,
    () => {},
  );
const hmac = (bytes: Uint8Array, hash: string, usages: KeyUsage[] = ['sign', 'verify']) =>
  crypto.subtle.importKey('raw', bytes as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash }, false, usages);
/** A ring that hands out `key` for KID, whatever its kind. */
const ringOf = (key: CryptoKey): KeyRing => ({
  signingKey: async (kid) => (kid === KID ? key : null),
  verifyingKey: async (kid) => (kid === KID ? key : null),
  eventSeed: async () => null,
  inviteKey: async (kid) => (kid === KID ? key : null),
});
const joseSign = (alg: string, kid: string, payload: string, key: CryptoKey | Uint8Array) =>
  new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader({ alg, kid }).sign(key);
/** A token's payload as the room writes it: the claims in this order, `arr` last when there is one. */
const bodyOf = ({ dec, exp, sub, room, arr }: TokenClaims) =>
  JSON.stringify(arr === undefined ? { dec, exp, sub, room } : { dec, exp, sub, room, arr });
/** `parts` with part `i` replaced. */
const withPart = (parts: readonly string[], i: number, part: string) => parts.map((p, j) => (j === i ? part : p));

/**
 * What the room's verifyToken answered when jose checked tokens (token.ts before jws.ts), step for
 * step; `payload` is what jose verified, which the unchanged claims check then reads.
 */
async function underJose(
  token: string,
  keys: KeyRing,
): Promise<{ reason: string | null; kid: string | null; payload?: Uint8Array }> {
  let kid: string | null = null;
  try {
    const parts = token.split('.');
    if (parts.length !== 3 || parts.some((part) => base64url.encode(base64url.decode(part)) !== part)) {
      const spelledOnly = parts.length === 3 && parts.every((p) => /^[A-Za-z0-9_-]*$/.test(p));
      return { reason: spelledOnly ? 'token_noncanonical' : 'token_malformed', kid: null };
    }
    const header = decodeProtectedHeader(token);
    if (
      Object.keys(header).length !== 2 ||
      header.alg !== 'HS512' ||
      typeof header.kid !== 'string' ||
      header.kid === ''
    ) {
      return { reason: 'token_malformed', kid: null };
    }
    kid = header.kid;
    const key = await keys.verifyingKey(kid);
    if (key === null) return { reason: 'token_unknown_kid', kid };
    const { payload } = await compactVerify(token, key, { algorithms: ['HS512'] });
    return { reason: null, kid, payload };
  } catch (error) {
    return {
      reason: error instanceof errors.JWSSignatureVerificationFailed ? 'token_bad_signature' : 'token_malformed',
      kid,
    };
  }
}

/** verifyToken's answer is the one the room gave under jose. */
async function expectAsUnderJose(token: string, keys: KeyRing = ring()): Promise<void> {
  const ours = await verifyToken(token, keys);
  const theirs = await underJose(token, keys);
  if (ours.ok) {
    expect(theirs.reason, token).toBeNull();
    expect(ours.kid).toBe(theirs.kid);
    expect(ours.signature).toEqual(new Uint8Array(Buffer.from(token.split('.')[2]!, 'base64url')));
    expect(JSON.parse(new TextDecoder().decode(theirs.payload))).toEqual(ours.claims);
  } else if (theirs.reason === null) {
    // jose verified it and the claims check (unchanged) refused it.
    expect(ours, token).toEqual({ ok: false, reason: 'token_malformed', kid: theirs.kid });
  } else {
    expect(ours, token).toEqual({ ok: false, reason: theirs.reason, kid: theirs.kid });
  }
}

/** Flips one bit of byte `at` of a part's decoded bytes, and spells it canonically again. */
const flipped = (part: string, at: number, bit: number) => {
  const bytes = Buffer.from(part, 'base64url');
  bytes[at] = bytes[at]! ^ (1 << bit);
  return bytes.toString('base64url');
};

const KIDS = [
  KID,
  'k2025-07',
  'kid "quoted"',
  'back\\slash',
  'ключ',
  '鍵🔑',
  'tab\there',
  'nul\u0000',
  'lone \ud800 surrogate',
  '</script>',
  'x'.repeat(300),
];
const CLAIMS: TokenClaims[] = [
  { dec: 'wait', exp: 1767225660, sub: 'abc', room: 'shop' },
  { dec: 'allow', exp: 5, sub: 'Q2hhbmdlIHRoaXMgdG9v', room: 'checkout' },
  { dec: 'pre', exp: 1_800_000_000, sub: 'visitor', room: 'r', arr: 1_799_999_000 },
];

describe('base64url', () => {
  it('spells bytes as Node does, unpadded, and reads them back, canonical, whatever the bytes and length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase64url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(text).toBe(base64url.encode(bytes));
        expect(decodeBase64url(text)).toEqual(bytes);
        expect(isCanonical(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // Longer than one String.fromCharCode call's chunk.
    const long = Uint8Array.from({ length: 20_000 }, (_, i) => (i * 7919) & 255);
    expect(encodeBase64url(long)).toBe(Buffer.from(long).toString('base64url'));
    expect(decodeBase64url(encodeBase64url(long))).toEqual(long);
  });

  it('reads any text of the alphabet as jose did, and tells the one canonical spelling apart', () => {
    const spelled = fc
      .string({ unit: fc.constantFrom(...ALPHABET), maxLength: 120 })
      .filter((text) => text.length % 4 !== 1);
    fc.assert(
      fc.property(spelled, (text) => {
        expect(decodeBase64url(text)).toEqual(base64url.decode(text));
        expect(isCanonical(text)).toBe(base64url.encode(base64url.decode(text)) === text);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses padding, the standard alphabet, whitespace, anything else and a length of 4n + 1', () => {
    for (const text of [
      'QQ==',
      'QUI=',
      'a+b/',
      'ab c',
      'ab\nc',
      'abcd ',
      'é',
      'ab\u0100c',
      'abcde',
      'A',
      'a.bc',
      '%41',
    ]) {
      expect(() => decodeBase64url(text), text).toThrow(TypeError);
      expect(isCanonical(text), text).toBe(false);
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        let ours: Uint8Array | null = null;
        try {
          ours = decodeBase64url(text);
        } catch {
          return;
        }
        // Whatever it reads, jose read too, as the same bytes (jose also took padding and whitespace).
        expect(base64url.decode(text)).toEqual(ours);
      }),
      { numRuns: 3000 },
    );
  });

  it("gives the room the same numbers from a token as before: its tie, its draw bytes, the hammer's reading", async () => {
    for (const claims of CLAIMS) {
      const token = await signToken(claims, KID, KEY_BYTES);
      const [, p, s] = token.split('.') as [string, string, string];
      expect(signatureOf(token)).toEqual(base64url.decode(s));
      expect(tieFraction(claims.sub)).toBe(tieUnderJose(claims.sub));
      expect(JSON.parse(new TextDecoder().decode(decodeBase64url(p)))).toMatchObject({ exp: claims.exp });
    }
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 30 }), (sub) => {
        expect(tieFraction(sub)).toBe(tieUnderJose(sub));
      }),
      { numRuns: 1000 },
    );
    const wait = await signToken({ dec: 'wait', exp: 1767225660, sub: 'abc', room: 'shop' }, KID, KEY_BYTES);
    expect(readWaitToken(wait, 'shop')).toMatchObject({ exp: 1767225660, entry: wait.split('.')[2] });
    expect(readWaitToken(wait, 'shop')!.signature).toEqual(base64url.decode(wait.split('.')[2]!));
  });
});

function tieUnderJose(sub: string): number {
  try {
    const bytes = base64url.decode(sub);
    let n = 0;
    for (let i = 0; i < 6; i++) n = n * 256 + (bytes[i] ?? 0);
    return n / 2 ** 48;
  } catch {
    return 0;
  }
}

describe('signing', () => {
  it("makes jose's very bytes, for any kid, from raw key bytes or an imported key", async () => {
    const imported512 = await hmac(KEY_BYTES, 'SHA-512');
    const imported256 = await hmac(KEY_BYTES, 'SHA-256');
    for (const kid of KIDS) {
      for (const claims of CLAIMS) {
        const expected = await joseSign('HS512', kid, bodyOf(claims), KEY_BYTES);
        expect(await signToken(claims, kid, KEY_BYTES), kid).toBe(expected);
        expect(await signToken(claims, kid, imported512), kid).toBe(expected);
      }
      const invite = { room: 'shop', sub: `header:${kid}`, exp: 1_767_229_200 };
      const expected = await joseSign('HS256', kid, JSON.stringify(invite), KEY_BYTES);
      expect(await signInvite(invite, kid, KEY_BYTES), kid).toBe(expected);
      expect(await signInvite(invite, kid, imported256), kid).toBe(expected);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.uint8Array({ maxLength: 200 }),
        async (kid, payload) => {
          const ours = await signCompact('HS512', kid, payload, KEY_BYTES);
          const theirs = await new CompactSign(payload).setProtectedHeader({ alg: 'HS512', kid }).sign(KEY_BYTES);
          expect(ours).toBe(theirs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses to sign with a key of another hash or one that may not sign', async () => {
    const claims = CLAIMS[0]!;
    for (const key of [
      await hmac(KEY_BYTES, 'SHA-256'),
      await hmac(KEY_BYTES, 'SHA-384'),
      await hmac(KEY_BYTES, 'SHA-512', ['verify']),
    ]) {
      await expect(signToken(claims, KID, key)).rejects.toThrow(TypeError);
    }
    await expect(signInvite({ room: 'shop', sub: 's', exp: 1 }, KID, await hmac(KEY_BYTES, 'SHA-512'))).rejects.toThrow(
      TypeError,
    );
  });
});

describe('verifying', () => {
  it("verifies jose's tokens and invites, and jose verifies ours", async () => {
    const keys = ring();
    for (const kid of [KID, 'k2025_07.b']) {
      for (const claims of CLAIMS) {
        const theirs = await joseSign('HS512', kid, bodyOf(claims), KEY_BYTES);
        expect(await verifyToken(theirs, keys)).toMatchObject({ ok: true, kid, claims });
        const ours = await signToken(claims, kid, KEY_BYTES);
        const verified = await compactVerify(ours, await hmac(KEY_BYTES, 'SHA-512'), { algorithms: ['HS512'] });
        expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(claims);
      }
    }
    const invite = { room: 'shop', sub: 'ip:203.0.113.7', exp: 1_767_229_200 };
    const inviteKey = async () => hmac(KEY_BYTES, 'SHA-256', ['verify']);
    const expect1 = { room: 'shop', identity: 'ip:203.0.113.7', nowSec: 1_767_225_600 };
    expect(
      await checkInvite(await joseSign('HS256', 'k1', JSON.stringify(invite), KEY_BYTES), expect1, inviteKey),
    ).toEqual({
      ok: true,
      exp: invite.exp,
      kid: 'k1',
      lane: null,
    });
    await expect(compactVerify(await signInvite(invite, 'k1', KEY_BYTES), await inviteKey())).resolves.toBeTruthy();
  });

  it('refuses a token with a flipped bit in its header, payload or signature, for the reason jose gave', async () => {
    const token = await signToken({ dec: 'wait', exp: 1_800_000_000, sub: 'visitor', room: 'shop' }, KID, KEY_BYTES);
    const parts = token.split('.') as [string, string, string];
    // Every bit of the signature and the payload: a bad signature, as before.
    for (const i of [1, 2]) {
      const size = Buffer.from(parts[i]!, 'base64url').length;
      for (let at = 0; at < size; at++) {
        for (let bit = 0; bit < 8; bit++) {
          const bad = withPart(parts, i, flipped(parts[i]!, at, bit)).join('.');
          expect(await verifyToken(bad, ring()), bad).toEqual({ ok: false, reason: 'token_bad_signature', kid: KID });
        }
      }
    }
    // The header's bits: whatever each one makes of it (malformed, another kid, a bad signature), as jose did.
    const headerSize = Buffer.from(parts[0], 'base64url').length;
    for (let at = 0; at < headerSize; at++) {
      for (let bit = 0; bit < 8; bit++)
        await expectAsUnderJose(withPart(parts, 0, flipped(parts[0], at, bit)).join('.'));
    }
  });

  it('refuses any other spelling of a token, and answers every mutation and any text as jose did', async () => {
    const token = await signToken({ dec: 'allow', exp: 1_800_000_000, sub: 'visitor', room: 'shop' }, KID, KEY_BYTES);
    const parts = token.split('.') as [string, string, string];
    for (let i = 0; i < 3; i++) {
      const part = parts[i]!;
      if (part.length % 4 === 0) continue;
      const mask = part.length % 4 === 2 ? 15 : 3;
      const last = ALPHABET.indexOf(part.at(-1)!);
      for (let low = 1; low <= mask; low++) {
        const spelling = withPart(parts, i, part.slice(0, -1) + ALPHABET[(last & ~mask) | low]).join('.');
        expect(decodeCompact(spelling)).toBe('noncanonical');
        expect(await verifyToken(spelling, ring())).toEqual({ ok: false, reason: 'token_noncanonical', kid: null });
        await expectAsUnderJose(spelling);
      }
    }
    const chars = `${ALPHABET}.=+/ é`;
    const mutation = fc.oneof(
      fc
        .tuple(fc.nat(token.length - 1), fc.constantFrom(...chars))
        .map(([i, c]) => token.slice(0, i) + c + token.slice(i + 1)),
      fc.tuple(fc.nat(token.length), fc.constantFrom(...chars)).map(([i, c]) => token.slice(0, i) + c + token.slice(i)),
      fc.nat(token.length - 1).map((i) => token.slice(0, i) + token.slice(i + 1)),
      fc.nat(token.length - 1).map((i) => token.slice(0, i)),
      fc.string({ unit: fc.constantFrom(...chars), maxLength: 40 }),
      fc.string({ maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (text) => expectAsUnderJose(text)),
      { numRuns: 3000 },
    );
    // A part of 4n + 1 characters behind a non-canonical one: noncanonical, as before (the first failing part decides).
    const odd = `${parts[1].slice(0, parts[1].length - (parts[1].length % 4))}A`;
    const nonCanonical = (s: string) => s.slice(0, -1) + ALPHABET[ALPHABET.indexOf(s.at(-1)!) | 1];
    for (const text of [
      [nonCanonical(parts[0]), odd, parts[2]].join('.'),
      [parts[0], odd, nonCanonical(parts[2])].join('.'),
      [nonCanonical(parts[0]), `${parts[1]}=`, parts[2]].join('.'),
    ]) {
      await expectAsUnderJose(text);
    }
  });

  it('answers tokens jose made with other headers and payloads as before', async () => {
    const keys = ring();
    const claims = '{"dec":"allow","exp":1,"sub":"s","room":"r"}';
    for (const [header, payload] of [
      [{ alg: 'HS512', kid: KID }, claims],
      [{ alg: 'HS512', kid: KID, typ: 'JWT' }, claims],
      [{ alg: 'HS512', kid: 'weak' }, claims],
      [{ alg: 'HS512', kid: 'gone' }, claims],
      [{ alg: 'HS384', kid: KID }, claims],
      [{ alg: 'HS512', kid: KID }, '{"dec":"allow","exp":1,"sub":"s","room":"r","x":1}'],
      [{ alg: 'HS512', kid: KID }, '\u00ff not json'],
      [{ alg: 'HS512', kid: KID }, ''],
    ] as const) {
      await expectAsUnderJose(
        await new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader(header).sign(KEY_BYTES),
        keys,
      );
    }
    const enc = (text: string) => Buffer.from(text).toString('base64url');
    const [, p, s] = (await signToken(CLAIMS[1]!, KID, KEY_BYTES)).split('.') as [string, string, string];
    for (const header of [
      '',
      '[]',
      'null',
      '{"alg":"HS512","kid":""}',
      '{"alg":"HS512","kid":7}',
      '{"alg":"HS512","kid":"k1","kid":"k1"}',
    ]) {
      await expectAsUnderJose(`${enc(header)}.${p}.${s}`, keys);
    }
    // Invalid UTF-8 in the header.
    await expectAsUnderJose(`${Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')}.${p}.${s}`, keys);
  });

  it('never passes a token or invite checked with a key of another hash or one that may not verify', async () => {
    const claims = { dec: 'allow' as const, exp: 5, sub: 's', room: 'r' };
    const token = await signToken(claims, KID, KEY_BYTES);
    const invite = await signInvite({ room: 'shop', sub: 'ip:203.0.113.7', exp: 1_767_229_200 }, KID, KEY_BYTES);
    const expect1 = { room: 'shop', identity: 'ip:203.0.113.7', nowSec: 1_767_225_600 };
    const wrong = [
      await hmac(KEY_BYTES, 'SHA-256'),
      await hmac(KEY_BYTES, 'SHA-384'),
      await hmac(KEY_BYTES, 'SHA-1'),
      await hmac(KEY_BYTES, 'SHA-512', ['sign']),
    ];
    for (const key of wrong) {
      // jose's reason for a key it cannot use: malformed, never a pass.
      expect(await verifyToken(token, ringOf(key))).toEqual({ ok: false, reason: 'token_malformed', kid: KID });
      await expectAsUnderJose(token, ringOf(key));
      const jws = decodeCompact(token);
      if (jws === null || jws === 'noncanonical') throw new Error('not a token');
      await expect(verifyCompact('HS512', jws, key)).rejects.toThrow(TypeError);
    }
    for (const key of [await hmac(KEY_BYTES, 'SHA-512'), await hmac(KEY_BYTES, 'SHA-256', ['sign'])]) {
      expect(await checkInvite(invite, expect1, async () => key)).toEqual({ ok: false, reason: 'invite_forged' });
    }
    expect(await checkInvite(invite, expect1, async () => hmac(KEY_BYTES, 'SHA-256', ['verify']))).toMatchObject({
      ok: true,
    });
    // Raw bytes are imported for the token's own hash, as jose did.
    const jws = decodeCompact(token);
    if (jws === null || jws === 'noncanonical') throw new Error('not a token');
    expect(await verifyCompact('HS512', jws, KEY_BYTES)).toBe(true);
    expect(await verifyCompact('HS256', jws, KEY_BYTES)).toBe(false);
  });
});
