import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../../../src/core/tokens/keys.js';
import { signToken, verifyToken } from '../../../src/core/tokens/token.js';
import { KEY_BASE64, KEY_BYTES, KID } from '../../support/fakes.js';

const b64 = (part: string) => Buffer.from(part, 'base64url').toString('utf8');
const ring = (diags: string[] = []) =>
  createKeyRing(
    async (kid) => ({ [KID]: KEY_BASE64, weak: 'c2hvcnQ=', junk: '***' })[kid] ?? null,
    (m) => diags.push(m),
  );

describe('token', () => {
  it('has exactly the header and claims of the design, in order, and is byte-identical for the same inputs', async () => {
    const claims = { dec: 'wait' as const, exp: 1767225660, sub: 'abc', room: 'shop' };
    const token = await signToken(claims, KID, KEY_BYTES);
    const [header, payload] = token.split('.');
    expect(b64(header!)).toBe(`{"alg":"HS512","kid":"${KID}"}`);
    expect(b64(payload!)).toBe('{"dec":"wait","exp":1767225660,"sub":"abc","room":"shop"}');
    expect(await signToken({ room: 'shop', sub: 'abc', exp: 1767225660, dec: 'wait' }, KID, KEY_BYTES)).toBe(token);
    // Any JWS library makes the same bytes from that header and payload (the room signs without jose's general path).
    const { CompactSign } = await import('jose');
    const signed = new TextEncoder().encode('{"dec":"wait","exp":1767225660,"sub":"abc","room":"shop"}');
    expect(await new CompactSign(signed).setProtectedHeader({ alg: 'HS512', kid: KID }).sign(KEY_BYTES)).toBe(token);
    // The key ring hands out an imported key object; it must sign exactly what the raw bytes sign.
    expect(await signToken(claims, KID, (await ring().signingKey(KID))!)).toBe(token);
  });

  it("carries a lane visitor's lane as its last claim, and verifies it back; the general lane's tokens are as before", async () => {
    const claims = { dec: 'wait' as const, exp: 1767225660, sub: 'abc', room: 'shop', lane: 'members' };
    const token = await signToken(claims, KID, KEY_BYTES);
    expect(b64(token.split('.')[1]!)).toBe(
      '{"dec":"wait","exp":1767225660,"sub":"abc","room":"shop","lane":"members"}',
    );
    expect(await verifyToken(token, ring())).toMatchObject({ ok: true, claims });
    const allow = await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r', lane: 'presale' }, KID, KEY_BYTES);
    expect(await verifyToken(allow, ring())).toMatchObject({ ok: true, claims: { dec: 'allow', lane: 'presale' } });
  });

  it('verifies its own tokens and maps every failure to a reason', async () => {
    const token = await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r' }, KID, KEY_BYTES);
    expect(await verifyToken(token, ring())).toMatchObject({
      ok: true,
      kid: KID,
      claims: { dec: 'allow', exp: 5, sub: 's', room: 'r' },
    });
    const [h, p, s] = token.split('.') as [string, string, string];
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const cases: Array<[string, string]> = [
      ['', 'token_malformed'],
      ['a.b', 'token_malformed'],
      [`${h}.${p}`, 'token_malformed'],
      [`${h}.${enc({ dec: 'allow', exp: 9, sub: 's', room: 'r' })}.${s}`, 'token_bad_signature'],
      [`${h}.${p}.${Buffer.from(s, 'base64url').subarray(0, 60).toString('base64url')}`, 'token_bad_signature'],
      [`${h}.${p}.${s.slice(0, -4)}`, 'token_noncanonical'],
      [`${enc({ alg: 'HS256', kid: KID })}.${p}.${s}`, 'token_malformed'],
      [`${enc({ alg: 'none', kid: KID })}.${p}.`, 'token_malformed'],
      [`${enc({ alg: 'HS512' })}.${p}.${s}`, 'token_malformed'],
      [await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r' }, 'gone', KEY_BYTES), 'token_unknown_kid'],
      [await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r' }, 'weak', KEY_BYTES), 'token_unknown_kid'],
      [await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r' }, 'junk', KEY_BYTES), 'token_unknown_kid'],
      [await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r' }, '../k1 ', KEY_BYTES), 'token_unknown_kid'],
    ];
    for (const [bad, reason] of cases) expect(await verifyToken(bad, ring()), bad).toMatchObject({ ok: false, reason });
  });

  it('verifies one spelling of a token only: another spelling of the same bytes is refused with its reason', async () => {
    const token = await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'r' }, KID, KEY_BYTES);
    const [h, p, s] = token.split('.') as [string, string, string];
    // 64 signature bytes take 86 characters; the last one carries 2 bits, so 4 other characters spell
    // the same bytes. Each decodes to the very signature, and each is refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s.at(-1)!);
    const spellings = [1, 2, 3].map((low) => `${h}.${p}.${s.slice(0, -1)}${alphabet[(last & ~15) | low]}`);
    for (const spelling of spellings) {
      expect(Buffer.from(spelling.split('.')[2]!, 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
      expect(await verifyToken(spelling, ring())).toMatchObject({ ok: false, reason: 'token_noncanonical' });
    }
    expect(await verifyToken(`${h}=.${p}.${s}`, ring())).toMatchObject({ ok: false, reason: 'token_malformed' });
  });

  it('rejects well-signed payloads that are not exactly {dec, exp, sub, room}', async () => {
    const { CompactSign } = await import('jose');
    const payloads = [
      '{"dec":"maybe","exp":1,"sub":"s","room":"r"}',
      '{"dec":"allow","exp":1.5,"sub":"s","room":"r"}',
      '{"dec":"allow","exp":1,"sub":"s","room":"r","x":1}',
      // A token of the days before rooms: no room, so no room takes it.
      '{"dec":"allow","exp":1,"sub":"s"}',
      '{"dec":"allow","exp":1,"sub":"s","room":7}',
      // A lane that is no lane id, or a lane on the pre-queue's place.
      '{"dec":"wait","exp":1,"sub":"s","room":"r","lane":"Members"}',
      '{"dec":"wait","exp":1,"sub":"s","room":"r","lane":7}',
      '{"dec":"pre","exp":1,"sub":"s","room":"r","lane":"members"}',
      '[1]',
      'nope',
    ];
    for (const payload of payloads) {
      const token = await new CompactSign(new TextEncoder().encode(payload))
        .setProtectedHeader({ alg: 'HS512', kid: KID })
        .sign(KEY_BYTES);
      expect(await verifyToken(token, ring())).toMatchObject({ ok: false, reason: 'token_malformed' });
    }
    // The room signs exactly {alg, kid}; a well-signed token with any other header parameter is not one of its own.
    const claims = new TextEncoder().encode('{"dec":"allow","exp":1,"sub":"s","room":"r"}');
    for (const header of [
      { alg: 'HS512' as const, kid: KID, typ: 'JWT' },
      { alg: 'HS512' as const, kid: KID, b64: true },
    ]) {
      const token = await new CompactSign(claims).setProtectedHeader(header).sign(KEY_BYTES);
      expect(await verifyToken(token, ring()), JSON.stringify(header)).toMatchObject({
        ok: false,
        reason: 'token_malformed',
      });
    }
  });

  it('reports a weak or non-base64 key by id, once per request', async () => {
    const diags: string[] = [];
    const keys = ring(diags);
    expect(await keys.verifyingKey('weak')).toBeNull();
    expect(await keys.verifyingKey('weak')).toBeNull();
    expect(await keys.signingKey('junk')).toBeNull();
    expect(diags.filter((d) => d.includes('"weak" is weak'))).toHaveLength(1);
    expect(diags.some((d) => d.includes('"junk" is not base64'))).toBe(true);
  });

  it('never asks the store about a kid no store item could have', async () => {
    const asked: string[] = [];
    const keys = createKeyRing(
      async (kid) => (asked.push(kid), null),
      () => {},
    );
    for (const kid of ['../etc', 'a b', 'x'.repeat(300), '']) expect(await keys.verifyingKey(kid)).toBeNull();
    expect(asked).toEqual([]);
  });
});
