// The stockpile: an identity that keeps every wait token it is given and replays the whole pile the
// moment the operator raises allow_percentage. Each old loser whose number lies under the new threshold
// would win; the stale rule (a token is drawable only until two windows after its expiry) caps the
// pile at two draws, where an honest visitor holding one token has one.
import { describe, expect, it } from 'vitest';
import { drawWins } from '../../src/core/draw.js';
import { FakeRoom, T0 } from '../support/fakes.js';
import { claimsOf, tokenOf } from '../../lib/mint.js';

const D = 30;

describe('a pile of kept wait tokens', () => {
  it('is worth at most two draws after allow_percentage is raised', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '10', wait_period_duration: String(D) }, nowMs: T0 });
    const pile: string[] = [];
    // Camp 99 windows, asking once a window without a cookie and keeping what the room hands out.
    for (let i = 0; i < 99; i++) {
      room.nowMs = T0 + (i * D + 5) * 1000;
      const answer = await room.visit();
      pile.push(tokenOf(answer.roomCookies[0]!));
    }
    expect(new Set(pile).size).toBe(99);

    // The operator doubles the rate near the end of the next window.
    room.settings.set('allow_percentage', '20');
    room.nowMs = T0 + (100 * D + 29) * 1000;
    const signature = (t: string) => Buffer.from(t.split('.')[2]!, 'base64url');
    // What the pile held: every token under the new threshold would have admitted at once.
    const winners = pile.filter((t) => drawWins(signature(t), 20));
    expect(winners.length).toBeGreaterThanOrEqual(8);

    const reasons: string[] = [];
    for (const token of pile) reasons.push(String((await room.visit({ cookie: `waiting_room=${token}` })).log?.reason));
    const draws = reasons.filter((r) => r === 'draw_won' || r === 'draw_lost');
    expect(draws.length).toBeLessThanOrEqual(2);
    // The two drawn are the two newest, whose windows are the current one and the one before.
    const drawn = pile.filter((_, i) => reasons[i] === 'draw_won' || reasons[i] === 'draw_lost').map((t) => claimsOf(t).exp);
    for (const exp of drawn) expect(room.nowSec - exp).toBeLessThan(2 * D);
    expect(reasons.filter((r) => r === 'draw_won').length).toBe(pile.slice(-2).filter((t) => drawWins(signature(t), 20)).length);
    // Every older token only gets a new one for the next boundary, which is not due yet.
    expect(reasons.filter((r) => r === 'token_stale').length).toBeGreaterThanOrEqual(97);
  });
});
