// Preview links' text: exactly the members the format has, signed with an invite key, until it expires;
// every other text is a reason, never a throw.
import { describe, expect, it } from 'vitest';
import { encodeBase64url } from '../../../src/core/tokens/jws.js';
import { checkPreview, inviteHmacKey, signPreview, signInvite } from '../../../src/core/tokens/index.js';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => i);
const NOW = 1_767_225_600;
const key = async (kid: string) => (kid === 'k1' ? inviteHmacKey(KEY) : null);
const check = (text: string | null, nowSec = NOW) => checkPreview(text, nowSec, key);

/** A link with this payload, signed properly: only its members are wrong. */
async function withPayload(payload: unknown, header: unknown = { alg: 'HS256', kid: 'k1' }): Promise<string> {
  const part = (v: unknown) => encodeBase64url(new TextEncoder().encode(JSON.stringify(v)));
  const input = `${part(header)}.${part(payload)}`;
  const cryptoKey = await crypto.subtle.importKey('raw', KEY, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', cryptoKey, new TextEncoder().encode(input));
  return `${input}.${encodeBase64url(new Uint8Array(mac))}`;
}

describe('preview links', () => {
  it('are accepted with their state until their expiry second', async () => {
    const text = await signPreview(
      { room: 'shop', page: 'keepwaiting', exp: NOW + 60, mode: 'fifo', proof: true },
      'k1',
      KEY,
    );
    expect(await check(text)).toEqual({
      ok: true,
      kid: 'k1',
      claims: { room: 'shop', page: 'keepwaiting', exp: NOW + 60, mode: 'fifo', proof: true },
    });
    expect(await check(text, NOW + 60)).toEqual({ ok: false, reason: 'preview_expired' });
  });

  it('name the key the store lacks apart from a signature that fails', async () => {
    const other = await signPreview({ room: 'shop', page: 'deny', exp: NOW + 60 }, 'k2', KEY);
    expect(await check(other)).toEqual({ ok: false, reason: 'preview_unknown_key' });
    const forged = await signPreview(
      { room: 'shop', page: 'deny', exp: NOW + 60 },
      'k1',
      KEY.map((b) => b ^ 1),
    );
    expect(await check(forged)).toEqual({ ok: false, reason: 'preview_forged' });
  });

  it('are malformed with any member the format lacks, a value it does not take, or no text at all', async () => {
    const good = { room: 'shop', page: 'deny', exp: NOW + 60 };
    for (const payload of [
      { ...good, sub: 'none' },
      { ...good, page: 'checkout' },
      { ...good, mode: 'lifo' },
      { ...good, proof: false },
      { ...good, variant: 'B' },
      { ...good, variant: 'deny' },
      { ...good, room: 'Shop' },
      { room: 'shop', page: 'deny' },
      [good],
    ])
      expect(await check(await withPayload(payload)), JSON.stringify(payload)).toEqual({
        ok: false,
        reason: 'preview_malformed',
      });
    expect(await check(await withPayload(good, { alg: 'HS256', kid: 'k1', typ: 'JWT' }))).toMatchObject({
      reason: 'preview_malformed',
    });
    expect(await check(await withPayload(good))).toMatchObject({ ok: true });
    // An A/B variant of the waiting pages: its name, `a` the plain pages.
    for (const variant of ['a', 'b', 'spring26'])
      expect(
        await check(await signPreview({ ...good, page: 'startwaiting', exp: NOW + 60, variant }, 'k1', KEY)),
      ).toMatchObject({ ok: true, claims: { variant } });
    for (const text of [null, '', 'a.b', 'x'.repeat(2000)])
      expect(await check(text)).toEqual({ ok: false, reason: 'preview_malformed' });
  });

  it('are never an invitation signed by the same key', async () => {
    const invite = await signInvite({ room: 'shop', sub: 'none', exp: NOW + 60 }, 'k1', KEY);
    expect(await check(invite)).toEqual({ ok: false, reason: 'preview_malformed' });
  });
});
