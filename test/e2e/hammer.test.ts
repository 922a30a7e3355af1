// hammer_limit on the built room: the local host's rate counter and penalty box, through js-compute's
// RateCounter and PenaltyBox. A token hammering before it is due gets 429s; at its due time it draws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowBoundary } from '../../lib/mint.js';
import { mintToken, startRoom, type Room } from '../../lib/room-host.js';
import { drawWins, dueAt, signatureOf } from '../../src/core/decision/draw.js';
import { BASE_SETTINGS, D, VISITOR_IDENTITY } from './base-settings.js';
import { visit } from './visit.js';

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: { ...BASE_SETTINGS, ...VISITOR_IDENTITY, hammer_limit: '5' } });
});
afterAll(async () => {
  await room?.stop();
});

/** Fresh visitors (a fresh token, so a fresh count) for each attempt. */
let visitors = 0;

/** A fresh visitor whose token falls due `min` to `max` seconds from now. */
async function dueIn(min: number, max: number): Promise<{ visitor: string; token: string; due: number }> {
  for (;;) {
    const visitor = `hammer-${visitors++}`;
    for (const steps of [0, 1, 2]) {
      const exp = windowBoundary(D, steps);
      const token = await mintToken(room, { dec: 'wait', exp, identity: `header:${visitor}` });
      const due = dueAt(token, exp, { waitPeriodSeconds: D });
      const ahead = due - Date.now() / 1000;
      if (ahead >= min && ahead <= max) return { visitor, token, due };
    }
  }
}

const ATTEMPTS = 3;

describe('hammering the built room', () => {
  // The host has no fake clock: the checks must all be made before the token falls due. With 8 to 20 s
  // for 8 checks that holds on a busy machine; if it did not (the last answer came after the due
  // time), the attempt says nothing and is made again with a fresh visitor.
  it('answers 429 past the limit until the token is due, then draws it as ever', { timeout: 150_000 }, async () => {
    let chosen: { visitor: string; token: string; due: number } | null = null;
    for (let attempt = 1; chosen === null; attempt++) {
      const candidate = await dueIn(8, 20);
      const { visitor, token, due } = candidate;
      const checks: Array<{ sentAt: number; answer: Awaited<ReturnType<typeof visit>> }> = [];
      for (let i = 0; i < 8; i++) {
        const sentAt = Date.now() / 1000;
        checks.push({
          sentAt,
          answer: await visit(room, {
            cookie: `waiting_room_default=${token}`,
            headers: { 'x-visitor': visitor, accept: 'application/json' },
          }),
        });
      }
      if (Date.now() >= due * 1000) {
        if (attempt === ATTEMPTS)
          throw new Error(
            `8 checks took longer than their token's ${ATTEMPTS} waits to its due time: the machine is too busy`,
          );
        continue;
      }
      for (const { sentAt, answer } of checks) {
        expect(answer.roomCookies).toEqual([]);
        if (answer.log.reason !== 'hammering') continue;
        expect(answer.response.status).toBe(429);
        const retryAfter = Number(answer.response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        // Counted by the host after the check was sent: never more than the seconds left then.
        expect(retryAfter).toBeLessThanOrEqual(Math.ceil(due - sentAt));
        expect(JSON.parse(answer.body)).toMatchObject({
          waitingRoom: { status: 'keepwaiting', hammering: true, retryAfterSeconds: retryAfter },
        });
      }
      expect(checks.map((c) => c.answer.log.reason)).toEqual([
        ...Array(5).fill('wait_not_due'),
        ...Array(3).fill('hammering'),
      ]);
      chosen = candidate;
    }
    const { visitor, token, due } = chosen;
    // At its due time, still over the count and in the box, it draws: nothing was lost. (It stays
    // drawable for a window and more after that, so a late wake-up changes nothing.)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due * 1000 - Date.now()) + 50));
    const drawn = await visit(room, {
      cookie: `waiting_room_default=${token}`,
      headers: { 'x-visitor': visitor, accept: 'text/html' },
    });
    expect(drawn.log.reason).toBe(drawWins(signatureOf(token), 50) ? 'draw_won' : 'draw_lost');
  });
});
