// The contract's decision table against the pure handler: the very rows test/e2e runs on the Wasm,
// plus the rows that need a clock the test moves (renewal, draws across windows).
import { describe, expect, it } from 'vitest';
import { BASE_SETTINGS, scenarios } from '../e2e/scenarios.js';
import { LOOPBACK_IDENTITY, TEST_KID, mintToken } from '../support/room-host.js';
import { claimsOf, FakeRoom, tokenOf } from '../support/fakes.js';

const bytes = Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + 5) & 255);
const sharedKey = { kid: TEST_KID, bytes, base64: Buffer.from(bytes).toString('base64') };

describe('decision table on the pure handler (shared scenarios)', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const settings: Record<string, string> = { ...BASE_SETTINGS, active_key: TEST_KID, ...scenario.settings };
    const room = new FakeRoom({ settings, keys: { [TEST_KID]: sharedKey.base64 } });
    const request = await scenario.visit({ key: sharedKey });
    room.nowMs = Date.now(); // the shared rows use the real clock for their windows
    const answer = await room.visit({ ip: '127.0.0.1', ...request });

    expect(answer.log?.reason, JSON.stringify(answer.log)).toBeOneOf(scenario.reasons);
    expect(answer.log?.outcome).toBe(scenario.outcome);
    expect(answer.fromOrigin).toBe(scenario.outcome === 'origin');
    expect(answer.response.status).toBe(200);
    if (scenario.outcome !== 'origin') {
      expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
      expect(Number(answer.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    if (scenario.cookie === 'none') {
      expect(answer.roomCookies).toEqual([]);
      return;
    }
    expect(answer.roomCookies).toHaveLength(1);
    expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
    const setCookie = answer.roomCookies[0]!;
    if (scenario.cookie === 'cleared') {
      expect(tokenOf(setCookie)).toBe('');
      expect(setCookie).toMatch(/Max-Age=0/);
      return;
    }
    const token = tokenOf(setCookie);
    const claims = claimsOf(token);
    expect(claims.dec).toBe(scenario.cookie === 'new-wait' ? 'wait' : 'allow');
    if (scenario.expiry) expect(scenario.expiry()).toContain(claims.exp);
    const visitor = request.headers?.['x-visitor'];
    const identity = settings.identity?.startsWith('header:') && visitor ? `header:${visitor}` : LOOPBACK_IDENTITY;
    expect(token).toBe(await mintToken({ key: sharedKey }, { dec: claims.dec as 'wait' | 'allow', exp: claims.exp, identity }));
  });
});
