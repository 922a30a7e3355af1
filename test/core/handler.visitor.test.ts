// What a visitor notices of the handler, with a clock the test moves: tokens and draws window by
// window, and the answers made at the edge (JSON, the deny page, the stored page, the cookie).
import { describe, expect, it } from 'vitest';
import { dueAt, dueSpreadSeconds, tokenId } from '../../src/core/decision/draw.js';
import { FakeRoom, mint, T0 } from '../support/fakes.js';
import { claimsOf, tokenOf, windowBoundary } from '../../lib/mint.js';

const D = 30;
const A = 3600;

describe('a waiting visitor over time', () => {
  it('waits until the token falls due, then draws once per window until admitted', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '30', wait_period_duration: String(D) },
      nowMs: T0 + 7_000,
    });
    const config = { waitPeriodSeconds: D };
    const first = await room.visit();
    expect(first.log?.outcome).toBe('startwaiting');
    let token = tokenOf(first.roomCookies[0]!);
    expect(claimsOf(token).exp).toBe(windowBoundary(D, 2, room.nowSec));
    expect(Number(first.response.headers.get('retry-after'))).toBe(
      dueAt(token, claimsOf(token).exp, config) - room.nowSec,
    );

    room.advance(20);
    const early = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(early.log?.reason).toBe('wait_not_due');
    expect(early.roomCookies).toEqual([]);
    expect(Number(early.response.headers.get('retry-after'))).toBe(
      dueAt(token, claimsOf(token).exp, config) - room.nowSec,
    );

    let draws = 0;
    for (;;) {
      const due = dueAt(token, claimsOf(token).exp, config);
      expect(due - claimsOf(token).exp).toBeLessThan(dueSpreadSeconds(config));
      room.nowMs = due * 1000 + 1_500; // back just after it falls due, as the page does
      const answer = await room.visit({ cookie: `waiting_room_default=${token}` });
      draws++;
      // The same ticket always gives the same answer.
      const again = await room.visit({ cookie: `waiting_room_default=${token}` });
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
      const answer = await room.visit({
        cookie: `waiting_room_default=${token}`,
        headers: { accept: 'application/json' },
      });
      expect(answer.log?.reason).toBe('wait_not_due');
      expect(answer.roomCookies).toEqual([]);
      expect(Number(answer.response.headers.get('retry-after'))).toBe(due - t);
    }
    room.nowMs = due * 1000;
    expect((await room.visit({ cookie: `waiting_room_default=${token}` })).log?.reason).toBe('draw_won');
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

  it('draws a token until two windows after its expiry; later, it draws the token its holder would hold had they lost every draw they missed', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '99.999', wait_period_duration: String(D) } });
    const exp = windowBoundary(D, 1, room.nowSec);
    const token = await mint({ dec: 'wait', exp });
    room.nowMs = (exp + 2 * D - 1) * 1000 + 999;
    const inGrace = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(inGrace.log?.reason).toBe('draw_won');
    expect(inGrace.log?.tid).toBe(tokenId(token));
    // A background tab back a minute late: its token's successor (the window before this one) draws.
    room.nowMs = (exp + 3 * D - 1) * 1000;
    const late = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(late.log?.reason).toBe('draw_won');
    expect(late.fromOrigin).toBe(true);
    expect(late.log?.tid).toBe(tokenId(await mint({ dec: 'wait', exp: exp + D })));
    // Ten windows late: the token of the window before the present one, whichever old token comes.
    room.nowMs = (exp + 12 * D + 3) * 1000;
    const older = await mint({ dec: 'wait', exp: exp - 5 * D });
    const ids = new Set<string>();
    for (const t of [token, older])
      ids.add(String((await room.visit({ cookie: `waiting_room_default=${t}` })).log?.tid));
    expect([...ids]).toEqual([tokenId(await mint({ dec: 'wait', exp: exp + 11 * D }))]);
  });

  it('a late loser gets the successor the log named when its token was issued, even when drawn in the window of grace', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0.001', wait_period_duration: String(D) } });
    const exp = windowBoundary(D, 1, room.nowSec);
    room.nowMs = (exp - 2 * D + 1) * 1000;
    const issued = await room.visit();
    expect(issued.log?.newExp).toBe(exp);
    const token = tokenOf(issued.roomCookies[0]!);
    room.nowMs = (exp + D + 5) * 1000;
    const lost = await room.visit({ cookie: `waiting_room_default=${token}` });
    expect(lost.log?.reason).toBe('draw_lost');
    expect(lost.log?.newExp).toBe(exp + D);
    expect(lost.log?.newTid).toBe(issued.log?.nextTid);
  });

  it('answers 180 forged room cookies as it answers one, verifying a few and logging that it ignored the rest', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '30', wait_period_duration: String(D) } });
    const genuine = await mint({ dec: 'wait', exp: windowBoundary(D, 2, room.nowSec) });
    const forged = `${genuine.slice(0, -4)}AAAA`;
    const answer = await room.visit({ cookie: Array(180).fill(`waiting_room_default=${forged}`).join('; ') });
    const one = await room.visit({ cookie: `waiting_room_default=${forged}` });
    expect(answer.response.status).toBe(one.response.status);
    expect(answer.log?.reason).toBe(one.log?.reason);
    expect(answer.log?.tokens).toBe('tokens_ignored');
    expect(one.log?.tokens).toBeUndefined();
  });

  it('draws a current token even when a stale duplicate comes first in the Cookie header', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '99.999', wait_period_duration: String(D) } });
    const stale = await mint({ dec: 'wait', exp: windowBoundary(D, -3, room.nowSec) });
    const current = await mint({ dec: 'wait', exp: windowBoundary(D, -1, room.nowSec) });
    const answer = await room.visit({ cookie: `waiting_room_default=${stale}; waiting_room_default=${current}` });
    expect(answer.log?.reason).toBe('draw_won');
    expect(answer.log?.tid).toBe(tokenId(current));
    // Alone, the stale one stands for the current one: the same ticket, drawn again with the same number.
    expect((await room.visit({ cookie: `waiting_room_default=${stale}` })).log?.tid).toBe(tokenId(current));
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
    const cookie = `waiting_room_default=${await mint({ dec: 'allow', exp })}`;
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
    const [p25, p50, p75] = [
      waitingRoom.waitTime25PercentileSeconds,
      waitingRoom.waitTime50PercentileSeconds,
      waitingRoom.waitTime75PercentileSeconds,
    ] as number[];
    expect(p25).toBeGreaterThanOrEqual(retryAfter);
    expect(p50).toBeGreaterThan(p25!);
    expect(p75).toBeGreaterThan(p50!);
    expect(answer.roomCookies).toHaveLength(1);
  });

  it('answers the deny page (JSON too) with the cookie cleared when allow_percentage is 0', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0', waiting_status: '503' } });
    const answer = await room.visit({ headers: { accept: 'application/json' }, cookie: 'waiting_room_default=abc' });
    expect(answer.response.status).toBe(503);
    expect(JSON.parse(answer.body).waitingRoom.status).toBe('deny');
    expect(answer.roomCookies[0]).toMatch(/^waiting_room_default=; Max-Age=0/);
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
