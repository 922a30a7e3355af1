// What an operator notices of the handler: settings, keys and stores gone wrong never crash it and are
// named in its diagnostics; the decision log; a request URL it cannot parse.
import { describe, expect, it } from 'vitest';
import { handle } from '../../src/core/handler.js';
import { FakeRoom, KEY_BASE64, KID, mint, T0 } from '../support/fakes.js';
import { claimsOf, tokenOf, windowBoundary } from '../../lib/mint.js';

const A = 3600;

describe('operator mistakes never crash and are reported by name', () => {
  it('fails open on an unreadable allow_percentage and says which setting', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: 'fifty' } });
    const answer = await room.visit();
    expect(answer.fromOrigin).toBe(true);
    expect(answer.log?.reason).toBe('allow_all');
    expect(answer.diags.join('\n')).toMatch(/allow_percentage.*fifty/);
  });

  it('uses the default window for a malformed duration', async () => {
    const room = new FakeRoom({ settings: { wait_period_duration: '30s' }, nowMs: T0 + 1_000 });
    const answer = await room.visit();
    expect(claimsOf(tokenOf(answer.roomCookies[0]!)).exp).toBe(windowBoundary(30, 2, room.nowSec));
    expect(answer.diags.join('\n')).toMatch(/wait_period_duration/);
  });

  it('holds visitors with a 503 waiting page and no cookie when the active key is missing', async () => {
    const room = new FakeRoom({ settings: { active_key: 'k9' } });
    const answer = await room.visit();
    expect(answer.response.status).toBe(503);
    expect(answer.fromOrigin).toBe(false);
    expect(answer.roomCookies).toEqual([]);
    expect(answer.log?.reason).toBe('no_signing_key');
    expect(answer.diags.join('\n')).toMatch(/k9/);
  });

  it('never uses a weak key, and names it', async () => {
    const room = new FakeRoom({ keys: { [KID]: Buffer.from('too short').toString('base64') } });
    const weakToken = await mint({
      dec: 'allow',
      exp: windowBoundary(A, 2, room.nowSec),
      key: Buffer.from('too short'),
    });
    const answer = await room.visit({ cookie: `waiting_room_default=${weakToken}` });
    expect(answer.response.status).toBe(503);
    expect(answer.fromOrigin).toBe(false);
    expect(answer.diags.join('\n')).toMatch(new RegExp(`"${KID}" is weak`));
  });

  it('still admits allow tokens signed by an older key after rotation', async () => {
    const old = Uint8Array.from({ length: 48 }, (_, i) => i);
    const room = new FakeRoom({
      settings: { active_key: 'k2' },
      keys: { k0: Buffer.from(old).toString('base64'), k2: KEY_BASE64 },
    });
    const cookie = `waiting_room_default=${await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec), kid: 'k0', key: old })}`;
    const answer = await room.visit({ cookie });
    expect(answer.fromOrigin).toBe(true);
    expect(answer.log).toMatchObject({ reason: 'allow_valid', kid: 'k0' });
    // Once the old key leaves the store, its tokens stop working.
    room.keys.delete('k0');
    expect((await room.visit({ cookie })).log?.reason).toBe('token_unknown_kid');
  });

  it('treats missing stores as empty', async () => {
    const noConfig = new FakeRoom({ brokenStores: ['config'] });
    const a = await noConfig.visit();
    expect(a.log).toBeUndefined(); // no log_endpoint without the config store
    expect(a.fromOrigin).toBe(true); // allow_percentage missing: fail open
    expect(a.diags.join('\n')).toMatch(/allow_percentage/);

    const noKeys = new FakeRoom({ brokenStores: ['keys'] });
    expect((await noKeys.visit()).response.status).toBe(503);

    const noPages = new FakeRoom({ brokenStores: ['pages'] });
    const page = await noPages.visit();
    expect(page.response.status).toBe(200);
    expect(page.body).toMatch(/<html/i);
  });
});

describe('the decision log', () => {
  it('writes one JSON line per decision, without the address or user id', async () => {
    const room = new FakeRoom({ settings: { identity: 'header:x-user' } });
    await room.visit({ ip: '203.0.113.99', headers: { 'x-user': 'alice@example.com' }, path: '/checkout?card=1' });
    await room.visit({ ip: '203.0.113.99' });
    expect(room.logs).toHaveLength(2);
    for (const { line } of room.logs) {
      expect(line).not.toMatch(/203\.0\.113\.99|alice/);
    }
    const [first, second] = room.logs.map((l) => JSON.parse(l.line));
    expect(first).toMatchObject({
      decision: 'start',
      outcome: 'startwaiting',
      reason: 'no_token',
      kid: KID,
      method: 'GET',
      path: '/checkout',
      identity: 'header',
    });
    expect(new Date(first.ts).getTime()).toBe(room.nowMs);
    expect(second.identity).toBe('ip-fallback');
  });
});

describe('a request URL the room cannot parse', () => {
  it('answers 400 and says why, rather than fail the request with a 500', async () => {
    const room = new FakeRoom();
    // Node's Request refuses such a URL itself; a runtime may still hand one over.
    const request = { url: 'http://a:99999/', method: 'GET', headers: new Headers() } as unknown as Request;
    const response = await handle(request, room.deps());
    expect(response.status).toBe(400);
    expect(room.diags).toEqual([
      expect.stringMatching(/^request URL "http:\/\/a:99999\/" cannot be parsed .*; answering 400$/),
    ]);
    expect(room.seen).toEqual([]);
  });

  it('keeps the query string out of the log, and sends no body to a HEAD', async () => {
    const room = new FakeRoom();
    const request = {
      url: 'http://a:99999/checkout?card=4111',
      method: 'HEAD',
      headers: new Headers(),
    } as unknown as Request;
    const response = await handle(request, room.deps());
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
    expect(room.diags).toEqual([expect.stringContaining('"http://a:99999/checkout"')]);
    expect(room.diags.join('\n')).not.toContain('card');
  });
});
