// The stockpile: an identity that keeps every wait token it is given and replays the whole pile the
// moment the operator raises allow_percentage. Each old loser whose number lies under the new threshold
// would win; but a token past its window of grace stands for the one its holder would hold now had
// they lost every draw they missed, which is the same token for the whole pile: the pile is worth
// two tickets (the current window's and the one before), where an honest visitor holding one has one.
import { describe, expect, it } from 'vitest';
import { drawWins, tokenId } from '../../../src/core/decision/draw.js';
import { FakeRoom, T0 } from '../../support/fakes.js';
import { tokenOf } from '../../../lib/mint.js';

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
    const drawnIds = new Set<string>();
    const wonIds = new Set<string>();
    for (const token of pile) {
      const log = (await room.visit({ cookie: `waiting_room_default=${token}` })).log;
      reasons.push(String(log?.reason));
      if ((log?.reason === 'draw_won' || log?.reason === 'draw_lost') && log.tid) drawnIds.add(String(log.tid));
      if (log?.reason === 'draw_won' && log.tid) wonIds.add(String(log.tid));
    }
    // Every old token stands for the one its holder would hold now (the previous window's), so the
    // whole pile draws two tickets: the two newest, whose windows are the current one and the one before.
    expect([...drawnIds].sort()).toEqual(pile.slice(-2).map(tokenId).sort());
    expect([...wonIds].sort()).toEqual(
      pile
        .slice(-2)
        .filter((t) => drawWins(signature(t), 20))
        .map(tokenId)
        .sort(),
    );
    expect(reasons.every((r) => r === 'draw_won' || r === 'draw_lost' || r === 'wait_not_due')).toBe(true);
  });
});
