// What a visitor, an origin and an operator notice of the handler, with a clock the test moves.
import { describe, expect, it } from 'vitest';
import { dueAt, dueSpreadSeconds } from '../../src/core/draw.js';
import { handle } from '../../src/core/handler.js';
import { FakeRoom, KEY_BASE64, KID, mint, T0 } from '../support/fakes.js';
import { claimsOf, tokenOf, windowBoundary } from '../../lib/mint.js';

const D = 30;
const A = 3600;

describe('a waiting visitor over time', () => {
  it('waits until the token falls due, then draws once per window until admitted', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '30', wait_period_duration: String(D) }, nowMs: T0 + 7_000 });
    const config = { waitPeriodSeconds: D };
    const first = await room.visit();
    expect(first.log?.outcome).toBe('startwaiting');
    let token = tokenOf(first.roomCookies[0]!);
    expect(claimsOf(token).exp).toBe(windowBoundary(D, 2, room.nowSec));
    expect(Number(first.response.headers.get('retry-after'))).toBe(dueAt(token, claimsOf(token).exp, config) - room.nowSec);

    room.advance(20);
    const early = await room.visit({ cookie: `waiting_room=${token}` });
    expect(early.log?.reason).toBe('wait_not_due');
    expect(early.roomCookies).toEqual([]);
    expect(Number(early.response.headers.get('retry-after'))).toBe(dueAt(token, claimsOf(token).exp, config) - room.nowSec);

    let draws = 0;
    for (;;) {
      const due = dueAt(token, claimsOf(token).exp, config);
      expect(due - claimsOf(token).exp).toBeLessThan(dueSpreadSeconds(config));
      room.nowMs = due * 1000 + 1_500; // back just after it falls due, as the page does
      const answer = await room.visit({ cookie: `waiting_room=${token}` });
      draws++;
      // The same ticket always gives the same answer.
      const again = await room.visit({ cookie: `waiting_room=${token}` });
      expect(again.log?.reason).toBe(answer.log?.reason);
      if (answer.log?.reason === 'draw_won') {
        expect(answer.fromOrigin).toBe(true);
        const allow = claimsOf(tokenOf(answer.roomCookies[0]!));
        expect(allow.dec).toBe('allow');
        expect(allow.exp).toBe(windowBoundary(A, 2, room.nowSec));
        break;
      }
      expect(answer.log?.reason).toBe('draw_lost');
      const next = tokenOf(answer.roomCookies[0]!);
      // A loser waits for the NEXT boundary only (docs/design.md): one draw per window.
      expect(claimsOf(next).exp).toBe(windowBoundary(D, 1, room.nowSec));
      token = next;
      expect(draws).toBeLessThan(60);
    }
  });

  it('holds a token that has expired but is not yet due, however often the client asks', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '99.999', wait_period_duration: String(D) } });
    const config = { waitPeriodSeconds: D };
    // A token of this identity whose offset is at least 3 s, so the boundary second is before it is due.
    let exp = windowBoundary(D, -1, room.nowSec);
    let token = await mint({ dec: 'wait', exp });
    while (dueAt(token, exp, config) - exp < 3) token = await mint({ dec: 'wait', exp: (exp -= D) });
    const due = dueAt(token, exp, config);
    // A refresher polling every second from the boundary is held until the due second, then drawn.
    for (let t = exp; t < due; t++) {
      room.nowMs = t * 1000 + 999;
      const answer = await room.visit({ cookie: `waiting_room=${token}`, headers: { accept: 'application/json' } });
      expect(answer.log?.reason).toBe('wait_not_due');
      expect(answer.roomCookies).toEqual([]);
      expect(Number(answer.response.headers.get('retry-after'))).toBe(due - t);
    }
    room.nowMs = due * 1000;
    expect((await room.visit({ cookie: `waiting_room=${token}` })).log?.reason).toBe('draw_won');
  });

  it('spreads due times over the window by identity, the same for every device of one identity', async () => {
    const config = { waitPeriodSeconds: D };
    const S = dueSpreadSeconds(config);
    const exp = windowBoundary(D, 2, T0 / 1000);
    const offsets: number[] = [];
    for (let i = 0; i < 600; i++) {
      const token = await mint({ dec: 'wait', exp, identity: `ip:198.51.${i >> 8}.${i & 255}` });
      offsets.push(dueAt(token, exp, config) - exp);
    }
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThan(S);
    // Evenly spread: each third of the spread holds a third of the identities (sd ~ 12 of 200).
    for (let third = 0; third < 3; third++) {
      const n = offsets.filter((o) => Math.floor((o / S) * 3) === third).length;
      expect(n, `third ${third}`).toBeGreaterThan(150);
      expect(n, `third ${third}`).toBeLessThan(250);
    }
    const phone = await mint({ dec: 'wait', exp, identity: 'ip:203.0.113.5' });
    const laptop = await mint({ dec: 'wait', exp, identity: 'ip:203.0.113.5' });
    expect(dueAt(laptop, exp, config)).toBe(dueAt(phone, exp, config));
  });

  it('draws a token until two windows after its expiry, then only gives a new token for the next window', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '99.999', wait_period_duration: String(D) } });
    const exp = windowBoundary(D, 1, room.nowSec);
    const token = await mint({ dec: 'wait', exp });
    room.nowMs = (exp + 2 * D - 1) * 1000 + 999;
    expect((await room.visit({ cookie: `waiting_room=${token}` })).log?.reason).toBe('draw_won');
    room.nowMs = (exp + 2 * D) * 1000;
    const stale = await room.visit({ cookie: `waiting_room=${token}` });
    expect(stale.log?.reason).toBe('token_stale');
    expect(stale.fromOrigin).toBe(false);
    const next = tokenOf(stale.roomCookies[0]!);
    expect(claimsOf(next)).toMatchObject({ dec: 'wait', exp: windowBoundary(D, 1, room.nowSec) });
    expect(Number(stale.response.headers.get('retry-after'))).toBe(dueAt(next, claimsOf(next).exp, { waitPeriodSeconds: D }) - room.nowSec);
  });

  it('draws a current token even when a stale duplicate comes first in the Cookie header', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '99.999', wait_period_duration: String(D) } });
    const stale = await mint({ dec: 'wait', exp: windowBoundary(D, -3, room.nowSec) });
    const current = await mint({ dec: 'wait', exp: windowBoundary(D, -1, room.nowSec) });
    const answer = await room.visit({ cookie: `waiting_room=${stale}; waiting_room=${current}` });
    expect(answer.log?.reason).toBe('draw_won');
    expect((await room.visit({ cookie: `waiting_room=${stale}` })).log?.reason).toBe('token_stale');
  });

  it('gives every device of one identity the same token within a window, and other identities other tokens', async () => {
    const room = new FakeRoom({ nowMs: T0 + 1_000 });
    const phone = await room.visit({ ip: '198.51.100.7' });
    room.advance(25);
    const laptop = await room.visit({ ip: '198.51.100.7' });
    const neighbour = await room.visit({ ip: '198.51.100.8' });
    expect(tokenOf(laptop.roomCookies[0]!)).toBe(tokenOf(phone.roomCookies[0]!));
    expect(tokenOf(neighbour.roomCookies[0]!)).not.toBe(tokenOf(phone.roomCookies[0]!));
    room.advance(10); // next window: a new token
    const later = await room.visit({ ip: '198.51.100.7' });
    expect(tokenOf(later.roomCookies[0]!)).not.toBe(tokenOf(phone.roomCookies[0]!));
  });

  it('groups IPv6 visitors by /64', async () => {
    const room = new FakeRoom();
    const token = async (ip: string) => tokenOf((await room.visit({ ip })).roomCookies[0]!);
    const a = await token('2001:db8:1:2::1');
    expect(await token('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a);
    expect(await token('2001:db8:1:3::1')).not.toBe(a);
    // IPv4-mapped IPv6 is the IPv4 visitor.
    expect(await token('::ffff:192.0.2.1')).toBe(await token('192.0.2.1'));
  });

  it('renews an allow token once fewer than allow_period_duration seconds remain', async () => {
    const room = new FakeRoom({ nowMs: T0 + 100_000 });
    const exp = windowBoundary(A, 2, room.nowSec);
    const cookie = `waiting_room=${await mint({ dec: 'allow', exp })}`;
    expect((await room.visit({ cookie })).roomCookies).toEqual([]);
    room.nowMs = (exp - A + 1) * 1000; // A - 1 seconds left
    const renewed = await room.visit({ cookie });
    expect(renewed.log?.reason).toBe('allow_renewed');
    expect(claimsOf(tokenOf(renewed.roomCookies[0]!)).exp).toBe(windowBoundary(A, 2, room.nowSec));
    room.nowMs = exp * 1000;
    expect((await room.visit({ cookie })).log?.reason).toBe('token_expired_allow');
  });
});

describe('answers made at the edge', () => {
  it('answers JSON to Accept: application/json, with Retry-After and the estimate', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '20' } });
    const answer = await room.visit({ headers: { accept: 'application/json' } });
    expect(answer.response.headers.get('content-type')).toMatch(/application\/json/);
    const retryAfter = Number(answer.response.headers.get('retry-after'));
    const { waitingRoom } = JSON.parse(answer.body) as { waitingRoom: Record<string, number | boolean | string> };
    expect(waitingRoom.inWaitingRoom).toBe(true);
    expect(waitingRoom.status).toBe('startwaiting');
    expect(waitingRoom.retryAfterSeconds).toBe(retryAfter);
    expect(waitingRoom.refreshIntervalSeconds).toBeGreaterThanOrEqual(retryAfter);
    expect(waitingRoom.refreshIntervalSeconds).toBeLessThanOrEqual(retryAfter + (waitingRoom.jitterSeconds as number));
    expect(waitingRoom.allowPercentage).toBe(20);
    const [p25, p50, p75] = [waitingRoom.waitTime25PercentileSeconds, waitingRoom.waitTime50PercentileSeconds, waitingRoom.waitTime75PercentileSeconds] as number[];
    expect(p25).toBeGreaterThanOrEqual(retryAfter);
    expect(p50).toBeGreaterThan(p25!);
    expect(p75).toBeGreaterThan(p50!);
    expect(answer.roomCookies).toHaveLength(1);
  });

  it('answers the deny page (JSON too) with the cookie cleared when allow_percentage is 0', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0', waiting_status: '503' } });
    const answer = await room.visit({ headers: { accept: 'application/json' }, cookie: 'waiting_room=abc' });
    expect(answer.response.status).toBe(503);
    expect(JSON.parse(answer.body).waitingRoom.status).toBe('deny');
    expect(answer.roomCookies[0]).toMatch(/^waiting_room=; Max-Age=0/);
    expect(answer.fromOrigin).toBe(false);
  });

  it('uses waiting_status for waiting pages and serves the stored page template', async () => {
    const template = Buffer.from('<p>back in {{retryAfterSeconds}} s</p>').toString('base64');
    const room = new FakeRoom({ settings: { waiting_status: '429' }, pages: { startwaiting: template } });
    const answer = await room.visit();
    expect(answer.response.status).toBe(429);
    expect(answer.body).toBe(`<p>back in ${answer.response.headers.get('retry-after')} s</p>`);
  });

  it('sets the cookie HttpOnly, Path=/, Max-Age=cookie_lifetime; Secure on https or SameSite=None', async () => {
    const room = new FakeRoom({ settings: { cookie_lifetime: '900' } });
    const plain = (await room.visit()).roomCookies[0]!;
    expect(plain).toMatch(/; Max-Age=900; Path=\/; HttpOnly; SameSite=Lax$/);
    expect((await room.visit({ https: true })).roomCookies[0]).toMatch(/; Secure$/);
    room.settings.set('cookie_samesite', 'None');
    expect((await room.visit()).roomCookies[0]).toMatch(/SameSite=None; Secure$/);
  });
});

describe('the origin', () => {
  it('never sees the room cookie; other cookies arrive byte for byte', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '100' } });
    const allow = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec) });
    await room.visit({ cookie: `theme="dark blue";  waiting_room=${allow}; cart=a%3Db` });
    expect(room.seen.at(-1)!.cookie).toBe('theme="dark blue";  cart=a%3Db');
    await room.visit({ cookie: `waiting_room=${allow}` });
    expect(room.seen.at(-1)!.cookie).toBeNull();
    await room.visit({ cookie: 'only=mine' });
    expect(room.seen.at(-1)!.cookie).toBe('only=mine');
  });

  it('forwards method and body unchanged', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '100' } });
    await room.visit({ method: 'POST', body: 'a=1&b=2', path: '/cart?x=1' });
    expect(room.seen.at(-1)).toMatchObject({ method: 'POST', body: 'a=1&b=2', url: 'http://shop.example/cart?x=1' });
  });

  it("appends the room's Set-Cookie to the origin's own and makes the answer uncacheable", async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => {
        const headers = new Headers({ 'cache-control': 'public, max-age=600' });
        headers.append('set-cookie', 'session=s1; Path=/');
        headers.append('set-cookie', 'theme=dark; Path=/');
        return new Response('ok', { headers });
      },
    });
    const answer = await room.visit();
    const cookies = answer.response.headers.getSetCookie();
    expect(cookies.slice(0, 2)).toEqual(['session=s1; Path=/', 'theme=dark; Path=/']);
    expect(cookies[2]).toMatch(/^waiting_room=/);
    expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
  });

  it('leaves an origin answer alone when the room sets nothing', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => new Response('ok', { headers: { 'cache-control': 'public, max-age=600' } }),
    });
    const allow = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec) });
    const answer = await room.visit({ cookie: `waiting_room=${allow}` });
    expect(answer.response.headers.get('cache-control')).toBe('public, max-age=600');
  });

  it('revokes the session when the origin answers waiting-room-command: revoke', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50' },
      origin: async () => new Response('bye', { headers: { 'waiting-room-command': 'revoke', 'set-cookie': 'session=; Max-Age=0' } }),
    });
    const allow = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec) });
    const answer = await room.visit({ cookie: `waiting_room=${allow}` });
    expect(answer.body).toBe('bye');
    expect(answer.response.headers.get('waiting-room-command')).toBeNull();
    expect(answer.response.headers.getSetCookie()).toEqual(['session=; Max-Age=0', expect.stringMatching(/^waiting_room=; Max-Age=0/)]);
    expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
    expect(answer.log?.reason).toBe('revoked');
  });

  it('answers 502 with a page and a diagnostic when the origin is down, keeping a fresh allow token', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => {
        throw new TypeError('connection refused');
      },
    });
    const answer = await room.visit();
    expect(answer.response.status).toBe(502);
    expect(answer.body).toMatch(/not answering/);
    expect(answer.diags.join('\n')).toMatch(/origin.*connection refused/);
    expect(answer.log).toMatchObject({ originError: true, status: 502 });
    expect(answer.roomCookies).toHaveLength(1);
  });

  it('sends bypassed paths and everything when disabled to the origin, cookie stripped, nothing set', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0', bypass_paths: ' /static/ , /health' } });
    const bypass = await room.visit({ path: '/static/app.css', cookie: 'waiting_room=x; a=1' });
    expect(bypass).toMatchObject({ fromOrigin: true, roomCookies: [] });
    expect(bypass.log?.reason).toBe('bypass_path');
    expect(room.seen.at(-1)!.cookie).toBe('a=1');
    expect((await room.visit({ path: '/staticx' })).log?.outcome).toBe('deny');

    room.settings.set('enabled', 'false');
    const disabled = await room.visit({ cookie: 'waiting_room=x; a=1' });
    expect(disabled).toMatchObject({ fromOrigin: true, roomCookies: [] });
    expect(disabled.log?.reason).toBe('disabled');
    expect(room.seen.at(-1)!.cookie).toBe('a=1');
  });
});

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
    const weakToken = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec), key: Buffer.from('too short') });
    const answer = await room.visit({ cookie: `waiting_room=${weakToken}` });
    expect(answer.response.status).toBe(503);
    expect(answer.fromOrigin).toBe(false);
    expect(answer.diags.join('\n')).toMatch(new RegExp(`"${KID}" is weak`));
  });

  it('still admits allow tokens signed by an older key after rotation', async () => {
    const old = Uint8Array.from({ length: 48 }, (_, i) => i);
    const room = new FakeRoom({ settings: { active_key: 'k2' }, keys: { k0: Buffer.from(old).toString('base64'), k2: KEY_BASE64 } });
    const cookie = `waiting_room=${await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec), kid: 'k0', key: old })}`;
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
    expect(first).toMatchObject({ decision: 'start', outcome: 'startwaiting', reason: 'no_token', kid: KID, method: 'GET', path: '/checkout', identity: 'header' });
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
    expect(room.diags).toEqual([expect.stringMatching(/^request URL "http:\/\/a:99999\/" cannot be parsed .*; answering 400$/)]);
    expect(room.seen).toEqual([]);
  });
});
