// Which of a visitor's tokens counts: the first genuine one of this room and identity.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';
import { createKeyRing } from '../../../src/core/tokens/keys.js';
import { catchUp, firstUsable, MAX_VERIFIED_TOKENS } from '../../../src/core/decision/index.js';
import { mintToken } from '../../../lib/mint.js';
import { KEY_BASE64, KEY_BYTES, KID } from '../../support/fakes.js';

const NOW = 1_800_000_000;
const identity = 'ip:192.0.2.10';
const config = parseConfig(
  (k) => ({ allow_percentage: '50', wait_period_duration: '30' })[k] ?? null,
  'checkout',
).config;
const keys = createKeyRing(
  async (kid) => (kid === KID ? KEY_BASE64 : null),
  () => undefined,
);
const token = (over: { room?: string; dec?: 'wait' | 'allow'; exp?: number; identity?: string } = {}) =>
  mintToken(
    { key: KEY_BYTES, kid: KID, identity },
    {
      dec: over.dec ?? 'allow',
      exp: over.exp ?? NOW + 600,
      room: over.room ?? 'checkout',
      ...(over.identity ? { identity: over.identity } : {}),
    },
  );

describe('firstUsable', () => {
  it("passes over another room's token, another identity's and garbage, and takes this room's", async () => {
    const own = await token();
    const found = await firstUsable(
      {
        config,
        keys,
        identity,
        tokens: [await token({ room: 'shop' }), 'garbage', await token({ identity: 'ip:198.51.100.1' }), own],
      },
      NOW,
    );
    expect('token' in found && found.token).toBe(own);
  });

  it('says why when no token counts: the first failure', async () => {
    expect(await firstUsable({ config, keys, identity, tokens: [await token({ room: 'shop' })] }, NOW)).toEqual({
      reason: 'token_other_room',
      kid: KID,
    });
    expect(await firstUsable({ config, keys, identity, tokens: [] }, NOW)).toEqual({ reason: 'no_token', kid: null });
  });
});

describe('firstUsable with a cookie header full of forged tokens', () => {
  // 180 forged room cookies cost the edge past its 50 ms of CPU time when each was verified.
  it('verifies only the first few; the rest are ignored, so a token behind 180 forgeries is not read', async () => {
    const own = await token();
    const forged = `${own.slice(0, -4)}AAAA`;
    const many = Array<string>(180).fill(forged);
    expect(MAX_VERIFIED_TOKENS).toBe(4);
    expect(await firstUsable({ config, keys, identity, tokens: [...many, own] }, NOW)).toEqual({
      reason: 'token_bad_signature',
      kid: KID,
    });
    const within = await firstUsable({ config, keys, identity, tokens: [forged, forged, forged, own, ...many] }, NOW);
    expect('token' in within && within.token).toBe(own);
  });
});

describe('catchUp', () => {
  it("re-signs a draw's wait token long past its window as the previous window's, for the same room", async () => {
    const old = await firstUsable(
      { config, keys, identity, tokens: [await token({ dec: 'wait', exp: NOW - 600 })] },
      NOW,
    );
    if (!('token' in old)) throw new Error('expected a usable token');
    const caught = await catchUp(old, config, NOW);
    expect(caught.claims).toEqual({
      dec: 'wait',
      exp: Math.floor(NOW / 30) * 30 - 30,
      sub: old.claims.sub,
      room: 'checkout',
    });
  });
});
