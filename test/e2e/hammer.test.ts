// hammer_limit on the built room: the local host's rate counter and penalty box, through js-compute's
// RateCounter and PenaltyBox. A token hammering before it is due gets 429s; at its due time it draws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds, windowBoundary } from '../../lib/mint.js';
import { mintToken, startRoom, type Room } from '../../lib/room-host.js';
import { drawWins, dueAt, signatureOf } from '../../src/core/draw.js';
import { BASE_SETTINGS, D, VISITOR_IDENTITY } from './base-settings.js';
import { visit } from './visit.js';

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: { ...BASE_SETTINGS, ...VISITOR_IDENTITY, hammer_limit: '5' } });
});
afterAll(async () => {
  await room?.stop();
});

/** A visitor whose token of the current or next window falls due 4 to 12 seconds from now. */
async function dueSoon(): Promise<{ visitor: string; token: string; due: number }> {
  for (let i = 0; ; i++) {
    const visitor = `hammer-${i}`;
    for (const steps of [0, 1]) {
      const exp = windowBoundary(D, steps);
      const token = await mintToken(room, { dec: 'wait', exp, identity: `header:${visitor}` });
      const due = dueAt(token, exp, { waitPeriodSeconds: D });
      const ahead = due - nowSeconds();
      if (ahead >= 4 && ahead <= 12) return { visitor, token, due };
    }
  }
}

describe('hammering the built room', () => {
  it('answers 429 past the limit until the token is due, then draws it as ever', async () => {
    const { visitor, token, due } = await dueSoon();
    const ask = (accept = 'text/html') => visit(room, { cookie: `waiting_room_default=${token}`, headers: { 'x-visitor': visitor, accept } });
    const reasons: string[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await ask('application/json');
      reasons.push(String(answer.log.reason));
      expect(answer.roomCookies).toEqual([]);
      if (answer.log.reason !== 'hammering') continue;
      expect(answer.response.status).toBe(429);
      const retryAfter = Number(answer.response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(due - nowSeconds() + 1);
      expect(JSON.parse(answer.body)).toMatchObject({ waitingRoom: { status: 'keepwaiting', hammering: true, retryAfterSeconds: retryAfter } });
    }
    expect(reasons).toEqual([...Array(5).fill('wait_not_due'), ...Array(3).fill('hammering')]);
    // At its due time, still over the count and in the box, it draws: nothing was lost.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due * 1000 - Date.now()) + 50));
    const drawn = await ask();
    expect(drawn.log.reason).toBe(drawWins(signatureOf(token), 50) ? 'draw_won' : 'draw_lost');
  });
});
