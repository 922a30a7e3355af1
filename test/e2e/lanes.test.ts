// Priority lanes on the built room (docs/lanes.md): a lane invitation gives a wait token that names the
// lane, which then carries it on every check; the page and the JSON answer say the lane; a forged lane
// invitation, or one of a lane the room does not declare, is no lane (the line says why), never a way in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, roomCookieValue } from '../../lib/mint.js';
import { startRoom, type Room } from '../../lib/room-host.js';
import { signInvite } from '../../src/core/tokens/invite.js';
import { BASE_SETTINGS, VISITOR_IDENTITY } from './base-settings.js';
import { visit } from './visit.js';

const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 1) & 255);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 5 + 9) & 255);

let room: Room;
beforeAll(async () => {
  room = await startRoom({
    settings: {
      ...BASE_SETTINGS,
      ...VISITOR_IDENTITY,
      allow_percentage: '1',
      lanes: 'members:30,presale:20',
      lane_names: 'members:Club members',
    },
  });
  await room.setKeys({ [room.key.kid]: room.key.base64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') });
});
afterAll(async () => {
  await room?.stop();
});

const invite = (visitor: string, lane: string, key = INVITE_KEY) =>
  signInvite({ room: 'default', sub: `header:${visitor}`, exp: Math.floor(Date.now() / 1000) + 600, lane }, 'k1', key);

describe('a lane invitation on the built room', () => {
  it('gives a wait token of the lane; the JSON answer and, without the invitation, the page say the lane', async () => {
    const answer = await visit(room, {
      headers: { 'x-visitor': 'm1', 'waiting-room-invite': await invite('m1', 'members'), accept: 'application/json' },
    });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.log).toMatchObject({ decision: 'start', outcome: 'startwaiting', lane: 'members' });
    const token = roomCookieValue(answer.response)!;
    expect(claimsOf(token)).toMatchObject({ dec: 'wait', lane: 'members' });
    const json = JSON.parse(answer.body).waitingRoom;
    expect(json).toMatchObject({ status: 'startwaiting', lane: 'members', laneName: 'Club members' });
    expect(json.text.lane).toBe('Your lane: Club members');
    const page = await visit(room, { headers: { 'x-visitor': 'm1' }, cookie: `waiting_room_default=${token}` });
    expect(page.log).toMatchObject({ reason: 'wait_not_due', lane: 'members' });
    expect(page.body).toContain('Your lane: Club members');
  });

  it('as a link: the same address without it, and the lane in the cookie', async () => {
    const link = await visit(room, {
      path: `/drop?waiting_room_invite=${await invite('p1', 'presale')}`,
      headers: { 'x-visitor': 'p1' },
    });
    expect(link.response.status).toBe(303);
    expect(link.response.headers.get('location')).toBe('/drop');
    expect(claimsOf(roomCookieValue(link.response)!)).toMatchObject({ lane: 'presale' });
  });

  it.each([
    ['forged', 'members', OTHER_KEY, 'invite_forged'],
    ['of a lane the room does not declare', 'vip', INVITE_KEY, 'invite_unknown_lane'],
  ] as const)('%s: no lane, a general token, and the line says why', async (_, lane, key, reason) => {
    const answer = await visit(room, {
      headers: { 'x-visitor': 'x1', 'waiting-room-invite': await invite('x1', lane, key), accept: 'application/json' },
    });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.response.status).toBe(200);
    expect(answer.log).toMatchObject({ decision: 'start', reason: 'no_token', invite: reason });
    expect(answer.log).not.toHaveProperty('lane');
    expect(claimsOf(roomCookieValue(answer.response)!)).not.toHaveProperty('lane');
    expect(JSON.parse(answer.body).waitingRoom).toMatchObject({ lane: null, laneName: null });
  });
});
