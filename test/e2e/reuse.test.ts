// The room on reused sandboxes (src/fastly/reuse.ts): one worker, so every request meets the same
// instance while it is reused. Nothing of one visitor reaches another, and a setting or a key
// change is seen on the very next request.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, nowSeconds, roomCookies, tokenOf } from '../../lib/mint.js';
import { mintToken, startRoom, type Room } from '../../lib/room-host.js';
import { BASE_SETTINGS, VISITOR_IDENTITY } from './base-settings.js';

let room: Room;
const settings = { ...BASE_SETTINGS, ...VISITOR_IDENTITY, allow_percentage: '1' };

beforeAll(async () => {
  room = await startRoom({ settings, hostArgs: ['--workers', '1', '--max-workers', '1'] });
});
afterAll(async () => {
  await room?.stop();
});

const visit = (visitor: string, cookie?: string) =>
  fetch(`${room.url}/shop`, { headers: { 'x-visitor': visitor, accept: 'text/html', ...(cookie ? { cookie } : {}) } });

async function tokenFor(visitor: string, cookie?: string): Promise<string> {
  const res = await visit(visitor, cookie);
  await res.arrayBuffer();
  const line = roomCookies(res)[0];
  expect(line, visitor).toBeDefined();
  return tokenOf(line!);
}

describe('the room on one reused sandbox', () => {
  it('gives interleaved visitors each their own token, signed right on every request', async () => {
    const visitors = ['alice', 'bob', 'carol', 'alice', 'bob', 'carol', 'alice'];
    const tokens: string[] = [];
    for (const v of visitors) tokens.push(await tokenFor(v));
    // The same visitor in the same window gets the same token each time; visitors never share one.
    expect(new Set(tokens.filter((_, i) => visitors[i] === 'alice')).size).toBe(1);
    expect(new Set(tokens.slice(0, 3)).size).toBe(3);
    // Each token is exactly what the room's key and the visitor's identity give (a key kept from an
    // earlier request still signs correctly).
    for (const [i, token] of tokens.entries()) {
      const { dec, exp } = claimsOf(token);
      expect(token).toBe(await mintToken(room, { dec: dec as 'wait', exp, identity: `header:${visitors[i]}` }));
    }
  });

  it('lets in a visitor who comes back with an allow token, and never someone else with it', async () => {
    const allow = await mintToken(room, { dec: 'allow', exp: nowSeconds() + 3600, identity: 'header:dana' });
    for (let i = 0; i < 3; i++) {
      const res = await visit('dana', `waiting_room_default=${allow}`);
      expect(res.headers.get('x-echo'), `visit ${i}`).toBe('1');
      await res.arrayBuffer();
      // The same token under another identity, right after a sandbox verified it for dana.
      const other = await visit('eve', `waiting_room_default=${allow}`);
      expect(other.headers.get('x-echo')).toBeNull();
      await other.arrayBuffer();
    }
  });

  it('sees a tuned setting on the very next request', async () => {
    const before = await visit('frank');
    expect(before.headers.get('x-echo')).toBeNull();
    await before.arrayBuffer();
    await room.setConfig({ ...settings, allow_percentage: '100' });
    const after = await visit('frank');
    expect(after.headers.get('x-echo')).toBe('1');
    await after.arrayBuffer();
    await room.setConfig(settings);
  });

  it('stops accepting tokens of a key taken out of the store on the very next request', async () => {
    const allow = await mintToken(room, { dec: 'allow', exp: nowSeconds() + 3600, identity: 'header:gina' });
    const inside = await visit('gina', `waiting_room_default=${allow}`);
    expect(inside.headers.get('x-echo')).toBe('1');
    await inside.arrayBuffer();
    // A new key under a new id becomes the active one; the old id is removed.
    const fresh = Buffer.from(randomBytes(64)).toString('base64');
    await room.setKeys({ rotated: fresh });
    await room.setConfig({ ...settings, active_key: 'rotated' });
    const res = await visit('gina', `waiting_room_default=${allow}`);
    expect(res.headers.get('x-echo')).toBeNull();
    await res.arrayBuffer();
    const line = room.decisions().at(-1);
    expect(line?.reason).toBe('token_unknown_kid');
    await room.setKeys({ [room.key.kid]: room.key.base64 });
    await room.setConfig(settings);
  });
});
