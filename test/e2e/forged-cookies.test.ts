// A Cookie header full of forged room cookies (each an HMAC to verify), on the built room under the local host's CPU limit:
// the room verifies a few and answers as it would to one, within Fastly's 50 ms of CPU time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowBoundary } from '../../lib/mint.js';
import { mintToken, startRoom, type Room } from '../../lib/room-host.js';
import { BASE_SETTINGS, D } from './base-settings.js';
import { visit } from './visit.js';

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: { ...BASE_SETTINGS, hammer_limit: '0' } });
});
afterAll(async () => {
  await room?.stop();
});

// 60 of the room's 232-character tokens fill the 16 KB of headers the host's HTTP parser takes.
describe('60 forged room cookies', () => {
  it('get the answer one forged cookie gets, not a 500 past the CPU limit, and the line says the rest were ignored', async () => {
    const genuine = await mintToken(room, { dec: 'wait', exp: windowBoundary(D, 2) });
    const forged = `waiting_room_default=${genuine.slice(0, -4)}AAAA`;
    const one = await visit(room, { cookie: forged, headers: { accept: 'application/json' } });
    const many = await visit(room, {
      cookie: Array(60).fill(forged).join('; '),
      headers: { accept: 'application/json' },
    });
    expect(many.response.status).toBe(one.response.status);
    expect(many.log).toMatchObject({ reason: one.log.reason, outcome: one.log.outcome, tokens: 'tokens_ignored' });
    expect(room.errors().filter((l) => l.includes('CPU time'))).toEqual([]);
  });
});
