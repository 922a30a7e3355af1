// The fuzz run's judge: a request that reached the origin counts as a leak unless it had a right in
// the room its path and the rules send it to (its own token or invite there, a bypass rule, an open room).
import { describe, expect, it } from 'vitest';
import type { EchoedRequest } from '../../lib/echo-origin.js';
import { carriesRoomCookie, judge, REQUEST_NUMBER, type SentRequest } from '../../fuzz/oracle.js';
import { OPEN_ROOMS } from '../../fuzz/rooms.js';

const options = { open: OPEN_ROOMS, rules: true };

/** One request as sent, and as the origin received it (room cookies cut out). */
function exchange(
  n: number,
  sent: Omit<SentRequest, 'method' | 'kind'>,
): { sent: [string, SentRequest]; arrived: EchoedRequest } {
  const headers: Record<string, string> = { ...sent.headers, [REQUEST_NUMBER]: String(n) };
  return {
    sent: [String(n), { kind: 'planted', method: 'GET', ...sent, headers }],
    arrived: {
      method: 'GET',
      path: sent.path,
      headers: { [REQUEST_NUMBER]: String(n), 'x-fuzz-id': headers['x-fuzz-id'] },
      body: '',
    },
  };
}

function run(...exchanges: Array<ReturnType<typeof exchange>>) {
  return judge(
    exchanges.map((e) => e.arrived),
    new Map(exchanges.map((e) => e.sent)),
    options,
  );
}

describe('the fuzz oracle', () => {
  it("counts a request that reached the origin with another room's token (a planted cross-room leak)", () => {
    // The owner's valid shop token, under drops' cookie, on a drops path: it has a right in shop only.
    const leak = exchange(1, {
      path: '/drops/a',
      headers: { 'x-fuzz-id': 'owner', cookie: 'waiting_room_drops=SHOPTOKEN' },
      rights: ['shop'],
    });
    const verdict = run(leak);
    expect(verdict.withoutRight).toHaveLength(1);
    expect(verdict.withoutRight[0]!.why).toContain("room drops's");
  });

  it("counts a request the vip cookie rule sends to vip, carrying only its path room's token", () => {
    const leak = exchange(2, {
      path: '/drops/a',
      headers: { 'x-fuzz-id': 'owner', cookie: 'vip=1; waiting_room_drops=T' },
      rights: ['drops'],
    });
    expect(run(leak).withoutRight).toHaveLength(1);
    // A build whose routing ignores rules places it by its path, where it had a right.
    expect(judge([leak.arrived], new Map([leak.sent]), { ...options, rules: false }).withoutRight).toHaveLength(0);
  });

  it("lets through a right in the request's own room, a bypass rule and an open room", () => {
    const verdict = run(
      exchange(3, { path: '/drops/a', headers: { 'x-fuzz-id': 'owner' }, rights: ['drops'] }),
      exchange(4, { path: '/health/deep', headers: { 'x-fuzz-id': 'attacker-1' }, rights: [] }),
      exchange(5, { path: '/vip', headers: { 'x-fuzz-id': 'attacker-1', 'X-Partner': 'fuzz-partner-7' }, rights: [] }),
      exchange(6, { path: '/free/a', headers: { 'x-fuzz-id': 'attacker-1' }, rights: [] }),
    );
    expect(verdict.withoutRight).toEqual([]);
  });

  it("places paths by whole segments: /healthz is no bypass, /dropsy is shop's", () => {
    const verdict = run(
      exchange(7, { path: '/healthz', headers: { 'x-fuzz-id': 'a' }, rights: [] }),
      exchange(8, { path: '/dropsy', headers: { 'x-fuzz-id': 'owner' }, rights: ['drops'] }),
      exchange(9, { path: '/vip', headers: { 'x-fuzz-id': 'a', 'x-partner': 'fuzz-partner-7x' }, rights: [] }),
    );
    expect(verdict.withoutRight.map((l) => l.sent?.path)).toEqual(['/healthz', '/dropsy', '/vip']);
  });

  it('counts a request it cannot account for, and a room cookie the origin saw', () => {
    const stray: EchoedRequest = {
      method: 'GET',
      path: '/',
      headers: { cookie: 'a=1; waiting_room_shop=x' },
      body: '',
    };
    const verdict = judge([stray], new Map(), options);
    expect(verdict.withoutRight).toHaveLength(1);
    expect(verdict.roomCookieSeen).toBe(1);
    expect(carriesRoomCookie('a=1, Waiting_Room=x')).toBe(true);
    expect(carriesRoomCookie('waiting_roomy=1; b=waiting_room_x')).toBe(false);
  });
});
