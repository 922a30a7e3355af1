import { createHmac } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';
import { groupAddress, identityHash, resolveIdentity } from '../../../src/core/request/identity.js';
import { hmacKey } from '../../../src/core/tokens/keys.js';
import { KEY_BYTES, T0 } from '../../support/fakes.js';

describe('groupAddress', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1::', '2001:db8:1:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:201', '192.0.2.1'],
    ['0:0:0:0:0:ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2::192.0.2.1', '2001:db8:1:2::/64'],
  ])('%s -> %s', (address, grouped) => {
    expect(groupAddress(address)).toBe(grouped);
  });

  it('keeps unparseable text as one identity rather than failing', () => {
    expect(groupAddress('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9');
    expect(groupAddress('300.1.1.1')).toBe('300.1.1.1');
  });
});

describe('identityHash', () => {
  it('is 16 bytes of base64url, differs per identity and per key', async () => {
    const a = await identityHash(KEY_BYTES, 'ip:192.0.2.1');
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await identityHash(KEY_BYTES, 'ip:192.0.2.1')).toBe(a);
    expect(await identityHash(KEY_BYTES, 'ip:192.0.2.2')).not.toBe(a);
    expect(
      await identityHash(
        KEY_BYTES.map((b) => b ^ 1),
        'ip:192.0.2.1',
      ),
    ).not.toBe(a);
  });

  it("is the documented HMAC-SHA-512 prefix, whether given the key bytes or the key ring's key object", async () => {
    // docs/design.md, Token: anyone holding the key can recompute a token's sub with any HMAC tool.
    const expected = createHmac('sha512', KEY_BYTES)
      .update('wr-identity:ip:192.0.2.1')
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    expect(await identityHash(KEY_BYTES, 'ip:192.0.2.1')).toBe(expected);
    expect(await identityHash(await hmacKey(KEY_BYTES), 'ip:192.0.2.1')).toBe(expected);
  });
});

describe('resolveIdentity with jwt:NAME', () => {
  // JWKS hold public keys (jose accepts no shared secrets there), as an identity provider publishes them.
  const pair = generateKeyPair('ES256');
  const other = generateKeyPair('ES256');
  const config = async () => {
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK((await pair).publicKey)), alg: 'ES256', kid: 'idp' }] });
    return parseConfig(
      (k) => ({ identity: 'jwt:authorization', jwt_jwks: jwks, jwt_issuer: 'https://idp.example' })[k] ?? null,
    ).config;
  };
  const jwt = async (claims: Record<string, unknown>, exp = T0 / 1000 + 600, key?: CryptoKey) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'idp' })
      .setIssuer('https://idp.example')
      .setExpirationTime(exp)
      .sign(key ?? (await pair).privateKey);
  const request = (headers: Record<string, string>) => new Request('https://shop.example/', { headers });

  it('uses the verified sub from the header (Bearer allowed) or cookie', async () => {
    const token = await jwt({ sub: 'user-42' });
    expect(
      await resolveIdentity(await config(), request({ authorization: `Bearer ${token}` }), '192.0.2.1', T0),
    ).toEqual({ identity: 'jwt:user-42', kind: 'jwt' });
    expect(
      await resolveIdentity(await config(), request({ cookie: `a=1; authorization=${token}` }), '192.0.2.1', T0),
    ).toEqual({ identity: 'jwt:user-42', kind: 'jwt' });
    // Two Cookie headers reach the app joined by ", " (js-compute), and a value may be quoted.
    expect(
      await resolveIdentity(await config(), request({ cookie: `a=1, authorization="${token}"` }), '192.0.2.1', T0),
    ).toEqual({ identity: 'jwt:user-42', kind: 'jwt' });
  });

  it('falls back to the address for a forged, expired or missing JWT', async () => {
    const forged = await jwt({ sub: 'admin' }, undefined, (await other).privateKey);
    const expired = await jwt({ sub: 'user-42' }, T0 / 1000 - 10);
    for (const headers of [{ authorization: forged }, { authorization: expired }, {}] as Array<
      Record<string, string>
    >) {
      expect(await resolveIdentity(await config(), request(headers), '192.0.2.1', T0)).toEqual({
        identity: 'ip:192.0.2.1',
        kind: 'ip-fallback',
      });
    }
  });
});
