import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../../../src/core/tokens/keys.js';
import {
  checkInvite,
  INVITE_HEADER,
  INVITE_KID_PREFIX,
  INVITE_PARAM,
  inviteFrom,
  signInvite,
} from '../../../src/core/tokens/invite.js';
import { KEY_BASE64, KEY_BYTES } from '../../support/fakes.js';

const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const OTHER_BYTES = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 3) & 255);
const store: Record<string, string> = {
  'invite.k1': KEY_BASE64,
  'invite.k2': Buffer.from(OTHER_BYTES).toString('base64'),
  'invite.weak': 'c2hvcnQ=',
  k1: KEY_BASE64, // a room token key with the same bytes: never an invite key
};
const ring = () =>
  createKeyRing(
    async (name) => store[name] ?? null,
    () => {},
  );
const key = (kid: string) => ring().inviteKey(kid);
const expect1 = { room: 'shop', identity: 'ip:203.0.113.7', nowSec: NOW };
const claims = { room: 'shop', sub: 'ip:203.0.113.7', exp: NOW + 3600 };
const enc = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');
const b64 = (part: string) => Buffer.from(part, 'base64url').toString('utf8');
/** Any header and payload text, signed with `bytes` (HS256 unless the header says otherwise). */
const raw = (header: Record<string, unknown>, payload: string, bytes: Uint8Array = KEY_BYTES) =>
  new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader(header as { alg: string }).sign(bytes);

describe('inviteFrom', () => {
  it('reads the query parameter, the header, and prefers the header', () => {
    const none = new Headers();
    expect(inviteFrom(new URL('https://shop.example/'), none.get(INVITE_HEADER))).toBeNull();
    expect(inviteFrom(new URL('https://shop.example/?other=1'), none.get(INVITE_HEADER))).toBeNull();
    expect(inviteFrom(new URL(`https://shop.example/drop?a=1&${INVITE_PARAM}=Q.Q.Q`), none.get(INVITE_HEADER))).toBe(
      'Q.Q.Q',
    );
    expect(
      inviteFrom(new URL('https://shop.example/'), new Headers({ [INVITE_HEADER]: 'H.H.H' }).get(INVITE_HEADER)),
    ).toBe('H.H.H');
    expect(
      inviteFrom(
        new URL(`https://shop.example/?${INVITE_PARAM}=Q.Q.Q`),
        new Headers({ [INVITE_HEADER]: ' H.H.H ' }).get(INVITE_HEADER),
      ),
    ).toBe('H.H.H');
  });

  it('treats an empty header or parameter as no invite', () => {
    expect(
      inviteFrom(
        new URL(`https://shop.example/?${INVITE_PARAM}=`),
        new Headers({ [INVITE_HEADER]: '' }).get(INVITE_HEADER),
      ),
    ).toBeNull();
    expect(
      inviteFrom(
        new URL(`https://shop.example/?${INVITE_PARAM}=Q.Q.Q`),
        new Headers({ [INVITE_HEADER]: '  ' }).get(INVITE_HEADER),
      ),
    ).toBe('Q.Q.Q');
  });
});

describe('checkInvite', () => {
  it('accepts an invite of its room and identity, made with exactly the documented header and payload', async () => {
    const invite = await signInvite(claims, 'k1', KEY_BYTES);
    const [h, p] = invite.split('.');
    expect(b64(h!)).toBe('{"alg":"HS256","kid":"k1"}');
    expect(b64(p!)).toBe(`{"room":"shop","sub":"ip:203.0.113.7","exp":${NOW + 3600}}`);
    expect(await checkInvite(invite, expect1, key)).toEqual({ ok: true, exp: NOW + 3600, kid: 'k1', lane: null });
    // The ring's imported key signs what the raw bytes sign.
    expect(await checkInvite(await signInvite(claims, 'k2', OTHER_BYTES), expect1, key)).toEqual({
      ok: true,
      exp: NOW + 3600,
      kid: 'k2',
      lane: null,
    });
  });

  it('is malformed when it is not a compact JWS of exactly {alg: HS256, kid} and {room, sub, exp}', async () => {
    const good = await signInvite(claims, 'k1', KEY_BYTES);
    const [h, p, s] = good.split('.') as [string, string, string];
    const payload = JSON.stringify(claims);
    const cases: string[] = [
      '',
      'garbage',
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}=.${p}.${s}`,
      `${h}.${p}.${s.slice(0, -1)}+`,
      `${enc('not json')}.${p}.${s}`,
      // alg none, another HMAC, extra or missing header parameters, an empty or non-string kid
      `${enc({ alg: 'none', kid: 'k1' })}.${p}.`,
      await raw({ alg: 'HS512', kid: 'k1' }, payload),
      await raw({ alg: 'HS256', kid: 'k1', typ: 'JWT' }, payload),
      await raw({ alg: 'HS256' }, payload),
      await raw({ alg: 'HS256', kid: '' }, payload),
      await raw({ alg: 'HS256', kid: 7 }, payload),
      // payloads: extra claims, missing claims, wrong types, a room id the room could not have
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, admin: true })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ room: 'shop', sub: 'ip:203.0.113.7' })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, exp: NOW + 0.5 })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, exp: String(NOW + 60) })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, exp: 2 ** 53 })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, sub: '' })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, sub: 7 })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, room: 'Shop' })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, room: 'x'.repeat(33) })),
      // a lane claim that is no lane id
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, lane: 'Members' })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, lane: 7 })),
      await raw({ alg: 'HS256', kid: 'k1' }, JSON.stringify({ ...claims, lane: '' })),
      await raw({ alg: 'HS256', kid: 'k1' }, '[1,2]'),
      await raw({ alg: 'HS256', kid: 'k1' }, 'null'),
    ];
    for (const bad of cases)
      expect(await checkInvite(bad, expect1, key), bad).toEqual({ ok: false, reason: 'invite_malformed' });
  });

  it('grants a lane of the room (exactly {room, sub, exp, lane}); an unknown lane is no lane, a forged one is forged', async () => {
    const laned = await signInvite({ ...claims, lane: 'members' }, 'k1', KEY_BYTES);
    const [, p] = laned.split('.') as [string, string];
    expect(b64(p)).toBe(`{"room":"shop","sub":"ip:203.0.113.7","exp":${NOW + 3600},"lane":"members"}`);
    const lanes = ['members', 'presale'];
    expect(await checkInvite(laned, { ...expect1, lanes }, key)).toEqual({
      ok: true,
      exp: NOW + 3600,
      kid: 'k1',
      lane: 'members',
    });
    expect(await checkInvite(laned, { ...expect1, lanes: ['presale'] }, key)).toEqual({
      ok: false,
      reason: 'invite_unknown_lane',
    });
    expect(await checkInvite(laned, expect1, key)).toEqual({ ok: false, reason: 'invite_unknown_lane' });
    // Another room's lane invitation is another room's, whatever its lane.
    expect(await checkInvite(laned, { ...expect1, room: 'vip', lanes }, key)).toEqual({
      ok: false,
      reason: 'invite_other_room',
    });
    const forged = await signInvite({ ...claims, lane: 'members' }, 'k1', OTHER_BYTES);
    expect(await checkInvite(forged, { ...expect1, lanes }, key)).toEqual({ ok: false, reason: 'invite_forged' });
  });

  it('is malformed when longer than 2,048 characters, before any key is asked for', async () => {
    const asked: string[] = [];
    const long = await signInvite({ ...claims, sub: `header:${'a'.repeat(2000)}` }, 'k1', KEY_BYTES);
    expect(long.length).toBeGreaterThan(2048);
    const identity = `header:${'a'.repeat(2000)}`;
    expect(await checkInvite(long, { ...expect1, identity }, (kid) => (asked.push(kid), key(kid)))).toEqual({
      ok: false,
      reason: 'invite_malformed',
    });
    expect(asked).toEqual([]);
    const fits = await signInvite({ ...claims, sub: `header:${'a'.repeat(1400)}` }, 'k1', KEY_BYTES);
    expect(fits.length).toBeLessThanOrEqual(2048);
    expect(await checkInvite(fits, { ...expect1, identity: `header:${'a'.repeat(1400)}` }, key)).toMatchObject({
      ok: true,
    });
  });

  it('is forged when its kid names no invite key, or names a room token key', async () => {
    for (const kid of ['gone', 'weak', '../k1', 'invite.k1']) {
      expect(await checkInvite(await signInvite(claims, kid, KEY_BYTES), expect1, key), kid).toEqual({
        ok: false,
        reason: 'invite_forged',
      });
    }
    // k1's bytes under a kid that only the token keys have: `invite.` + kid is what is looked up.
    const lookedUp: string[] = [];
    const ring2 = createKeyRing(
      async (name) => (lookedUp.push(name), name === 'k9' ? KEY_BASE64 : null),
      () => {},
    );
    expect(
      await checkInvite(await signInvite(claims, 'k9', KEY_BYTES), expect1, (kid) => ring2.inviteKey(kid)),
    ).toEqual({ ok: false, reason: 'invite_forged' });
    expect(lookedUp).toEqual([`${INVITE_KID_PREFIX}k9`]);
  });

  it('is forged when signed with another key or tampered with after signing', async () => {
    expect(await checkInvite(await signInvite(claims, 'k1', OTHER_BYTES), expect1, key)).toEqual({
      ok: false,
      reason: 'invite_forged',
    });
    const [h, , s] = (await signInvite(claims, 'k1', KEY_BYTES)).split('.') as [string, string, string];
    // A longer expiry, another room or another visitor written into a real invite's payload.
    for (const tampered of [
      { ...claims, exp: NOW + 86_400 },
      { ...claims, room: 'vip' },
      { ...claims, sub: 'ip:198.51.100.1' },
    ]) {
      expect(await checkInvite(`${h}.${enc(tampered)}.${s}`, expect1, key)).toEqual({
        ok: false,
        reason: 'invite_forged',
      });
    }
    expect(await checkInvite(`${h}.${enc(claims)}.${s.slice(0, 20)}`, expect1, key)).toEqual({
      ok: false,
      reason: 'invite_forged',
    });
  });

  it('is expired from its exp second on, and forged wins over expired', async () => {
    const at = (exp: number) => signInvite({ ...claims, exp }, 'k1', KEY_BYTES);
    expect(await checkInvite(await at(NOW + 1), expect1, key)).toMatchObject({ ok: true });
    expect(await checkInvite(await at(NOW), expect1, key)).toEqual({ ok: false, reason: 'invite_expired' });
    expect(await checkInvite(await at(NOW - 1), expect1, key)).toEqual({ ok: false, reason: 'invite_expired' });
    expect(await checkInvite(await signInvite({ ...claims, exp: NOW - 1 }, 'k1', OTHER_BYTES), expect1, key)).toEqual({
      ok: false,
      reason: 'invite_forged',
    });
  });

  it("is for another room or another identity when it is not this room's or this visitor's, checked in that order", async () => {
    const invite = await signInvite(claims, 'k1', KEY_BYTES);
    expect(await checkInvite(invite, { ...expect1, room: 'checkout' }, key)).toEqual({
      ok: false,
      reason: 'invite_other_room',
    });
    expect(await checkInvite(invite, { ...expect1, identity: 'ip:203.0.113.8' }, key)).toEqual({
      ok: false,
      reason: 'invite_other_identity',
    });
    expect(await checkInvite(invite, { ...expect1, identity: 'header:203.0.113.7' }, key)).toEqual({
      ok: false,
      reason: 'invite_other_identity',
    });
    expect(await checkInvite(invite, { room: 'checkout', identity: 'none', nowSec: NOW }, key)).toEqual({
      ok: false,
      reason: 'invite_other_room',
    });
    const expired = await signInvite({ ...claims, exp: NOW - 1, room: 'checkout' }, 'k1', KEY_BYTES);
    expect(await checkInvite(expired, expect1, key)).toEqual({ ok: false, reason: 'invite_expired' });
    const none = await signInvite({ ...claims, sub: 'none' }, 'k1', KEY_BYTES);
    expect(await checkInvite(none, { ...expect1, identity: 'none' }, key)).toMatchObject({ ok: true });
  });

  it('never throws, whatever the key function does', async () => {
    const invite = await signInvite(claims, 'k1', KEY_BYTES);
    expect(await checkInvite(invite, expect1, () => Promise.reject(new Error('store down')))).toEqual({
      ok: false,
      reason: 'invite_forged',
    });
  });
});
