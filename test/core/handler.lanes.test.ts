// Priority lanes through the pure handler (docs/lanes.md): a lane invitation puts its visitor in the
// lane (a token that names it, kept across checks, shown on the page and in the JSON answer, named in
// the decision line) and draws them at the lane's chance; a forged, unknown or other room's lane is no
// lane, logged with its reason, and never an open door.
import { describe, expect, it } from 'vitest';
import { signInvite } from '../../src/core/tokens/invite.js';
import { FakeRoom, KEY_BASE64, KID, mint, DEFAULT_IDENTITY } from '../support/fakes.js';
import { claimsOf, roomCookieValue } from '../../lib/mint.js';

const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 5) & 255);
const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'drop', routes: ['/drop'] },
  ],
});

function rooms(dropSettings: Record<string, string> = {}, shopSettings: Record<string, string> = {}) {
  return new FakeRoom({
    settings: { allow_percentage: '50', wait_period_duration: '60' },
    keys: { [KID]: KEY_BASE64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') },
    store: {
      routing,
      'room.drop': JSON.stringify({
        lanes: 'members:30,presale:20',
        lane_names: 'members:Club members',
        ...dropSettings,
      }),
      'room.shop': JSON.stringify({ lanes: 'partner:10', ...shopSettings }),
    },
  });
}

const invite = (room: FakeRoom, over: Partial<{ room: string; lane: string; key: Uint8Array; sub: string }> = {}) =>
  signInvite(
    {
      room: over.room ?? 'drop',
      sub: over.sub ?? DEFAULT_IDENTITY,
      exp: room.nowSec + 600,
      ...(over.lane === '' ? {} : { lane: over.lane ?? 'members' }),
    },
    'k1',
    over.key ?? INVITE_KEY,
  );

describe('lane invitations', () => {
  it('a link gives a wait token of the lane and the same address without it; the page then names the lane', async () => {
    const room = rooms();
    const link = await room.visit({ path: `/drop/tickets?waiting_room_invite=${await invite(room)}` });
    expect(link.response.status).toBe(303);
    expect(link.response.headers.get('location')).toBe('/drop/tickets');
    expect(link.log).toMatchObject({ room: 'drop', decision: 'start', reason: 'no_token', lane: 'members' });
    const token = roomCookieValue(link.response, 'drop')!;
    expect(claimsOf(token)).toMatchObject({ dec: 'wait', room: 'drop', lane: 'members' });
    // Back without the invitation: still in the lane, by the token alone.
    const page = await room.visit({ path: '/drop/tickets', cookie: `waiting_room_drop=${token}` });
    expect(page.log).toMatchObject({ reason: 'wait_not_due', lane: 'members' });
    expect(page.body).toContain('Your lane: Club members');
    const json = await room.visit({
      path: '/drop/tickets',
      cookie: `waiting_room_drop=${token}`,
      headers: { accept: 'application/json' },
    });
    const answer = JSON.parse(json.body).waitingRoom;
    expect(answer).toMatchObject({ lane: 'members', laneName: 'Club members' });
    expect(answer.text.lane).toBe('Your lane: Club members');
    expect(room.seen).toHaveLength(0);
  });

  it('a lane without a name is shown by its id; a visitor of the general lane is shown none', async () => {
    const room = rooms();
    const presale = await room.visit({
      path: '/drop',
      headers: { 'waiting-room-invite': await invite(room, { lane: 'presale' }), accept: 'application/json' },
    });
    expect(JSON.parse(presale.body).waitingRoom).toMatchObject({ lane: 'presale', laneName: 'presale' });
    const general = await room.visit({ path: '/drop', ip: '198.51.100.7', headers: { accept: 'application/json' } });
    const answer = JSON.parse(general.body).waitingRoom;
    expect(answer).toMatchObject({ lane: null, laneName: null });
    expect(answer.text.lane).toBeNull();
    expect(general.log).not.toHaveProperty('lane');
  });

  it.each([
    ['invite_forged', { key: OTHER_KEY }],
    ['invite_unknown_lane', { lane: 'vip' }],
    ['invite_unknown_lane', { lane: 'partner' }],
    ['invite_other_room', { room: 'shop' }],
    ['invite_other_identity', { sub: 'ip:198.51.100.1' }],
  ] as const)('%s: no lane, a new visitor of the general lane, and the line says why', async (reason, over) => {
    const room = rooms();
    const answer = await room.visit({ path: '/drop', headers: { 'waiting-room-invite': await invite(room, over) } });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.log).toMatchObject({ room: 'drop', decision: 'start', reason: 'no_token', invite: reason });
    expect(answer.log).not.toHaveProperty('lane');
    expect(claimsOf(roomCookieValue(answer.response, 'drop')!)).not.toHaveProperty('lane');
  });

  it('an invitation without a lane still lets its visitor in at once, in a room with lanes', async () => {
    const room = rooms();
    const answer = await room.visit({
      path: '/drop',
      headers: { 'waiting-room-invite': await invite(room, { lane: '' }) },
    });
    expect(answer.fromOrigin).toBe(true);
    expect(answer.log).toMatchObject({ reason: 'invite' });
  });

  it('a visitor holding a general token who brings a lane invitation gets a new token in the lane', async () => {
    const room = rooms();
    const held = await mint({ dec: 'wait', exp: room.nowSec + 120, room: 'drop' });
    const answer = await room.visit({
      path: '/drop',
      cookie: `waiting_room_drop=${held}`,
      headers: { 'waiting-room-invite': await invite(room) },
    });
    expect(answer.log).toMatchObject({ decision: 'start', reason: 'lane_joined', lane: 'members' });
    expect(claimsOf(roomCookieValue(answer.response, 'drop')!)).toMatchObject({ lane: 'members' });
  });

  it("draws a lane's token at the lane's chance from lane_schedule, the general lane's at its own", async () => {
    const room = rooms();
    const d = 60;
    const window = Math.floor(room.nowSec / d) * d;
    room.store.set('room.drop.live', JSON.stringify({ lane_schedule: `members@${window}=100,general@${window}=0` }));
    const member = await mint({ dec: 'wait', exp: window, room: 'drop', lane: 'members' });
    const general = await mint({ dec: 'wait', exp: window, room: 'drop' });
    room.advance(d - 3); // past every due offset of the window
    const won = await room.visit({ path: '/drop', cookie: `waiting_room_drop=${member}` });
    expect(won.log).toMatchObject({ reason: 'draw_won', pct: 100, lane: 'members' });
    expect(claimsOf(roomCookieValue(won.response, 'drop')!)).toMatchObject({ dec: 'allow', lane: 'members' });
    const lost = await room.visit({ path: '/drop', cookie: `waiting_room_drop=${general}` });
    expect(lost.log).toMatchObject({ reason: 'draw_lost', pct: 0 });
  });

  it('without a lane_schedule a lane draws at the room chance; a lane the room no longer declares is the general lane', async () => {
    const room = rooms();
    const d = 60;
    const window = Math.floor(room.nowSec / d) * d;
    const member = await mint({ dec: 'wait', exp: window, room: 'drop', lane: 'members' });
    room.advance(d - 3);
    const drawn = await room.visit({ path: '/drop', cookie: `waiting_room_drop=${member}` });
    expect(drawn.log).toMatchObject({ pct: 50, lane: 'members' });
    room.store.set('room.drop', JSON.stringify({ lanes: 'presale:20' }));
    const removed = await room.visit({ path: '/drop', cookie: `waiting_room_drop=${member}` });
    expect(removed.log).toMatchObject({ pct: 50 });
    expect(removed.log).not.toHaveProperty('lane');
  });

  it('a lane token of one room is nothing in another: a new token there, no lane', async () => {
    const room = rooms();
    const member = await mint({ dec: 'wait', exp: room.nowSec + 120, room: 'drop', lane: 'members' });
    const answer = await room.visit({ path: '/', cookie: `waiting_room_shop=${member}` });
    expect(answer.log).toMatchObject({ room: 'shop', reason: 'token_other_room' });
    expect(answer.log).not.toHaveProperty('lane');
  });

  it('in an invite-only room, a lane invitation waits in its lane and everyone else is turned away', async () => {
    const room = rooms({ invite_only: 'true' });
    expect((await room.visit({ path: '/drop' })).log).toMatchObject({ reason: 'invite_only' });
    const laned = await room.visit({ path: '/drop', headers: { 'waiting-room-invite': await invite(room) } });
    expect(laned.log).toMatchObject({ decision: 'start', lane: 'members' });
  });
});
