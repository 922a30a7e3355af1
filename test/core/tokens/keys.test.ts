import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { createKeyRing, EVENT_SEED_ID, INVITE_KID_PREFIX, isTokenKid } from '../../../src/core/tokens/keys.js';
import { signToken, verifyToken } from '../../../src/core/tokens/token.js';
import { KEY_BASE64, KEY_BYTES } from '../../support/fakes.js';

const store: Record<string, string> = {
  'invite.k1': KEY_BASE64,
  [EVENT_SEED_ID]: KEY_BASE64,
  k1: KEY_BASE64,
  'invite.weak': 'c2hvcnQ=',
  'invite.junk': '***',
};

describe('key id spaces', () => {
  it('never hands out an invite key or the event seed as a room token key', async () => {
    const asked: string[] = [];
    const diags: string[] = [];
    const ring = createKeyRing(
      async (name) => (asked.push(name), store[name] ?? null),
      (m) => diags.push(m),
    );
    for (const kid of ['invite.k1', 'invite.', EVENT_SEED_ID]) {
      expect(await ring.verifyingKey(kid), kid).toBeNull();
      expect(await ring.signingKey(kid), kid).toBeNull();
    }
    expect(asked).toEqual([]);
    // A signing key that cannot be had is still the operator's to hear about.
    expect(diags.some((d) => d.includes('"invite.k1" has no usable key'))).toBe(true);
    expect(await ring.verifyingKey('k1')).not.toBeNull();
    expect(isTokenKid('k1')).toBe(true);
    expect(isTokenKid(`${INVITE_KID_PREFIX}k1`)).toBe(false);
    expect(isTokenKid(EVENT_SEED_ID)).toBe(false);
  });

  it('refuses a room token signed with an invite key: unknown kid', async () => {
    const ring = createKeyRing(
      async (name) => store[name] ?? null,
      () => {},
    );
    const token = await signToken({ dec: 'allow', exp: 5, sub: 's', room: 'default' }, 'invite.k1', KEY_BYTES);
    expect(await verifyToken(token, ring)).toMatchObject({ ok: false, reason: 'token_unknown_kid' });
  });

  it('reads an invite key from invite.KID, as an HMAC SHA-256 key that verifies HS256', async () => {
    const asked: string[] = [];
    const ring = createKeyRing(
      async (name) => (asked.push(name), store[name] ?? null),
      () => {},
    );
    const key = await ring.inviteKey('k1');
    expect(asked).toEqual(['invite.k1']);
    expect(key?.algorithm).toMatchObject({ name: 'HMAC', hash: { name: 'SHA-256' } });
    const jws = await new CompactSign(new TextEncoder().encode('x'))
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(KEY_BYTES);
    const [h, p, s] = jws.split('.') as [string, string, string];
    const ok = await crypto.subtle.verify(
      'HMAC',
      key!,
      Buffer.from(s, 'base64url'),
      new TextEncoder().encode(`${h}.${p}`),
    );
    expect(ok).toBe(true);
    // Once per request, however many times it is asked for.
    await ring.inviteKey('k1');
    expect(asked).toEqual(['invite.k1']);
  });

  it('has no invite key for an unknown, weak, non-base64 or impossible kid, and reports the operator mistakes', async () => {
    const asked: string[] = [];
    const diags: string[] = [];
    const ring = createKeyRing(
      async (name) => (asked.push(name), store[name] ?? null),
      (m) => diags.push(m),
    );
    for (const kid of ['gone', 'weak', 'junk', '', 'a b', 'x'.repeat(250)])
      expect(await ring.inviteKey(kid), kid).toBeNull();
    expect(asked).toEqual(['invite.gone', 'invite.weak', 'invite.junk']);
    expect(diags.some((d) => d.includes('"invite.weak" is weak'))).toBe(true);
    expect(diags.some((d) => d.includes('"invite.junk" is not base64'))).toBe(true);
  });

  it('keeps an invite key per sandbox apart from a token key of the same bytes', async () => {
    const { SandboxMemory } = await import('../../../src/core/memory/index.js');
    const memory = new SandboxMemory();
    const ring = () =>
      createKeyRing(
        async (name) => store[name] ?? null,
        () => {},
        memory,
      );
    const token = await ring().verifyingKey('k1');
    const invite = await ring().inviteKey('k1');
    expect(invite).not.toBe(token);
    expect(await ring().inviteKey('k1')).toBe(invite);
    expect(invite?.algorithm).toMatchObject({ hash: { name: 'SHA-256' } });
  });
});
