// Invitations through the pure handler: a valid one lets its visitor in at once, in its own room only;
// every other one gets nothing and is named in the decision line; the origin never sees one.
import { describe, expect, it } from 'vitest';
import { signInvite } from '../../src/core/tokens/invite.js';
import { FakeRoom, KEY_BASE64, KID } from '../support/fakes.js';
import { claimsOf, roomCookieValue } from '../../lib/mint.js';

const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 5) & 255);
const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'vip', routes: ['/vip'] },
  ],
});

function rooms(vipSettings: Record<string, string> = {}) {
  return new FakeRoom({
    settings: { allow_percentage: '50', wait_period_duration: '60' },
    keys: { [KID]: KEY_BASE64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') },
    store: { routing, 'room.vip': JSON.stringify(vipSettings) },
  });
}

const invite = (
  room: FakeRoom,
  over: Partial<{ room: string; sub: string; exp: number; kid: string; key: Uint8Array }> = {},
) =>
  signInvite(
    { room: over.room ?? 'vip', sub: over.sub ?? 'ip:192.0.2.10', exp: over.exp ?? room.nowSec + 600 },
    over.kid ?? 'k1',
    over.key ?? INVITE_KEY,
  );

describe('invitations', () => {
  it('a link lets its visitor in at once: the allow token, and the same address without the invitation', async () => {
    const room = rooms();
    const answer = await room.visit({ path: `/vip/launch?ref=mail&waiting_room_invite=${await invite(room)}` });
    expect(answer.response.status).toBe(303);
    expect(answer.response.headers.get('location')).toBe('/vip/launch?ref=mail');
    expect(answer.log).toMatchObject({ room: 'vip', decision: 'allow', reason: 'invite' });
    expect(claimsOf(roomCookieValue(answer.response, 'vip')!)).toMatchObject({ dec: 'allow', room: 'vip' });
    expect(room.seen).toHaveLength(0);
  });

  it('never redirects to another site, however the path is spelled', async () => {
    const room = rooms();
    const answer = await room.visit({ path: `/vip//evil.example/x?waiting_room_invite=${await invite(room)}` });
    expect(answer.response.headers.get('location')).toBe('/vip//evil.example/x');
    const root = rooms({ identity: 'none' });
    root.store.set('routing', JSON.stringify({ rooms: [{ id: 'vip', routes: ['/'] }] }));
    const slashes = await root.visit({
      path: `//evil.example/x?waiting_room_invite=${await invite(root, { sub: 'none' })}`,
    });
    expect(slashes.response.headers.get('location')).toBe('/evil.example/x');
  });

  it('in a header, lets the visitor through to the origin, which never sees the header', async () => {
    const room = rooms();
    const answer = await room.visit({ path: '/vip', headers: { 'waiting-room-invite': await invite(room) } });
    expect(answer.fromOrigin).toBe(true);
    expect(answer.log).toMatchObject({ reason: 'invite', originStatus: 200 });
    expect(room.seen.at(-1)!.headers.has('waiting-room-invite')).toBe(false);
    // Nor on a request no room decides.
    room.store.set('routing', JSON.stringify({ rooms: [{ id: 'vip', routes: ['/vip'] }] }));
    await room.visit({ path: '/about', headers: { 'waiting-room-invite': 'anything' } });
    expect(room.seen.at(-1)!.headers.has('waiting-room-invite')).toBe(false);
  });

  it.each([
    ['invite_malformed', async () => 'not.an.invite'],
    ['invite_forged', async (room: FakeRoom) => invite(room, { key: OTHER_KEY })],
    ['invite_forged', async (room: FakeRoom) => invite(room, { kid: 'gone' })],
    ['invite_expired', async (room: FakeRoom) => invite(room, { exp: room.nowSec })],
    ['invite_other_room', async (room: FakeRoom) => invite(room, { room: 'shop' })],
    ['invite_other_identity', async (room: FakeRoom) => invite(room, { sub: 'ip:198.51.100.1' })],
  ] as const)('%s: nothing, and the line says why', async (reason, make) => {
    const room = rooms();
    const answer = await room.visit({ path: '/vip', headers: { 'waiting-room-invite': await make(room) } });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.log).toMatchObject({ room: 'vip', reason: 'no_token', invite: reason });
  });

  it('an invite-only room lets in its invited visitors and shows everyone else the deny page', async () => {
    const room = rooms({ invite_only: 'true' });
    expect((await room.visit({ path: '/vip' })).log).toMatchObject({ decision: 'deny', reason: 'invite_only' });
    const forged = await room.visit({
      path: '/vip',
      headers: { 'waiting-room-invite': await invite(room, { key: OTHER_KEY }) },
    });
    expect(forged.log).toMatchObject({ decision: 'deny', reason: 'invite_only', invite: 'invite_forged' });
    const invited = await room.visit({ path: '/vip', headers: { 'waiting-room-invite': await invite(room) } });
    expect(invited.fromOrigin).toBe(true);
    // The shop is not invite-only: its visitors wait as usual, and the vip invitation is nothing there.
    expect((await room.visit({ path: '/', headers: { 'waiting-room-invite': await invite(room) } })).log).toMatchObject(
      { room: 'shop', invite: 'invite_other_room' },
    );
  });
});
