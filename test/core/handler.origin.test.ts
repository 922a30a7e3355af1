// What the origin behind the room notices of the handler: the requests it is passed, the answers it
// gives as they reach the visitor, its revoke command, its being down, and paths the room leaves alone;
// and what the decision line says of it: its time to headers and its status, or why none came.
import { describe, expect, it } from 'vitest';
import { FakeRoom, mint } from '../support/fakes.js';
import { windowBoundary } from '../../lib/mint.js';

const A = 3600;

describe('the origin', () => {
  it('never sees the room cookie; other cookies arrive byte for byte', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '100' } });
    const allow = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec) });
    await room.visit({ cookie: `theme="dark blue";  waiting_room_default=${allow}; cart=a%3Db` });
    expect(room.seen.at(-1)!.cookie).toBe('theme="dark blue";  cart=a%3Db');
    await room.visit({ cookie: `waiting_room_default=${allow}` });
    expect(room.seen.at(-1)!.cookie).toBeNull();
    await room.visit({ cookie: 'only=mine' });
    expect(room.seen.at(-1)!.cookie).toBe('only=mine');
  });

  it('forwards method and body unchanged', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '100' } });
    await room.visit({ method: 'POST', body: 'a=1&b=2', path: '/cart?x=1' });
    expect(room.seen.at(-1)).toMatchObject({ method: 'POST', body: 'a=1&b=2', url: 'http://shop.example/cart?x=1' });
  });

  it("appends the room's Set-Cookie to the origin's own and makes the answer uncacheable", async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => {
        const headers = new Headers({ 'cache-control': 'public, max-age=600' });
        headers.append('set-cookie', 'session=s1; Path=/');
        headers.append('set-cookie', 'theme=dark; Path=/');
        return new Response('ok', { headers });
      },
    });
    const answer = await room.visit();
    const cookies = answer.response.headers.getSetCookie();
    expect(cookies.slice(0, 2)).toEqual(['session=s1; Path=/', 'theme=dark; Path=/']);
    expect(cookies[2]).toMatch(/^waiting_room_default=/);
    expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
  });

  it('leaves an origin answer alone when the room sets nothing', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => new Response('ok', { headers: { 'cache-control': 'public, max-age=600' } }),
    });
    const allow = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec) });
    const answer = await room.visit({ cookie: `waiting_room_default=${allow}` });
    expect(answer.response.headers.get('cache-control')).toBe('public, max-age=600');
  });

  it('revokes the session when the origin answers waiting-room-command: revoke', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '50' },
      origin: async () =>
        new Response('bye', { headers: { 'waiting-room-command': 'revoke', 'set-cookie': 'session=; Max-Age=0' } }),
    });
    const allow = await mint({ dec: 'allow', exp: windowBoundary(A, 2, room.nowSec) });
    const answer = await room.visit({ cookie: `waiting_room_default=${allow}` });
    expect(answer.body).toBe('bye');
    expect(answer.response.headers.get('waiting-room-command')).toBeNull();
    expect(answer.response.headers.getSetCookie()).toEqual([
      'session=; Max-Age=0',
      expect.stringMatching(/^waiting_room_default=; Max-Age=0/),
    ]);
    expect(answer.response.headers.get('cache-control')).toBe('no-store, private');
    expect(answer.log?.reason).toBe('revoked');
  });

  it('answers 502 with a page and a diagnostic when the origin is down, keeping a fresh allow token', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: async () => {
        throw new TypeError('connection refused');
      },
    });
    const answer = await room.visit();
    expect(answer.response.status).toBe(502);
    expect(answer.body).toMatch(/not answering/);
    expect(answer.diags.join('\n')).toMatch(/origin.*connection refused/);
    expect(answer.log).toMatchObject({ originError: true, status: 502 });
    expect(answer.roomCookies).toHaveLength(1);
  });

  it('sends bypassed paths and everything when disabled to the origin, every room cookie stripped, nothing set', async () => {
    const routing = {
      rooms: [{ id: 'default', routes: ['/'] }],
      rules: [{ id: 'assets', if: { path: { prefix: ['/static/', '/health'] } }, then: 'bypass' }],
    };
    const room = new FakeRoom({ settings: { allow_percentage: '0' }, store: { routing: JSON.stringify(routing) } });
    const bypass = await room.visit({
      path: '/static/app.css',
      cookie: 'waiting_room_default=x; a=1; waiting_room_other=y; waiting_room=z',
    });
    expect(bypass).toMatchObject({ fromOrigin: true, roomCookies: [] });
    expect(bypass.log).toMatchObject({ reason: 'rule_bypass', rule: 'assets', room: null });
    expect(room.seen.at(-1)!.cookie).toBe('a=1');
    // Whole path segments: /staticx is not under /static/.
    expect((await room.visit({ path: '/staticx' })).log?.outcome).toBe('deny');

    room.settings.set('enabled', 'false');
    const disabled = await room.visit({ cookie: 'waiting_room_default=x; a=1' });
    expect(disabled).toMatchObject({ fromOrigin: true, roomCookies: [] });
    expect(disabled.log?.reason).toBe('disabled');
    expect(room.seen.at(-1)!.cookie).toBe('a=1');
  });
});

/** An origin that answers (or throws) after `ms` on the room's fake clock. */
function slowOrigin(room: () => FakeRoom, ms: number, answer: () => Response): () => Promise<Response> {
  return async () => {
    room().nowMs += ms;
    return answer();
  };
}

describe("the origin's time and status in the decision line", () => {
  it("carries the time to the origin's headers and its status, passing a 503 on as it is", async () => {
    const room: FakeRoom = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: slowOrigin(
        () => room,
        120,
        () => new Response('busy', { status: 503 }),
      ),
    });
    const answer = await room.visit();
    expect(answer.response.status).toBe(503);
    expect(answer.body).toBe('busy');
    expect(answer.log).toMatchObject({ decision: 'allow', status: 503, originMs: 120, originStatus: 503 });
    expect(answer.log).not.toHaveProperty('originError');
  });

  it.each([
    ['refused', new DOMException('Connection refused', 'NetworkError')],
    ['timeout', new DOMException('HTTP response timeout', 'NetworkError')],
    ['timeout', new DOMException('Connection timeout', 'NetworkError')],
    ['failed', new DOMException('Connection terminated', 'NetworkError')],
    ['failed', new TypeError('fetch failed')],
  ])('says %s for an origin that threw %s, with the time to the failure and the 502 as before', async (kind, error) => {
    const room: FakeRoom = new FakeRoom({
      settings: { allow_percentage: '100' },
      origin: slowOrigin(
        () => room,
        1500,
        () => {
          throw error;
        },
      ),
    });
    const answer = await room.visit();
    expect(answer.response.status).toBe(502);
    expect(answer.log).toMatchObject({ status: 502, originError: true, originMs: 1500, originStatus: kind });
  });

  it('measures every request sent to the origin: a bypass rule, no room, a disabled room', async () => {
    const routing = {
      rooms: [{ id: 'default', routes: ['/shop'] }],
      rules: [{ id: 'assets', if: { path: { prefix: '/static/' } }, then: 'bypass' }],
    };
    const room: FakeRoom = new FakeRoom({
      settings: { allow_percentage: '0' },
      store: { routing: JSON.stringify(routing) },
      origin: slowOrigin(
        () => room,
        7,
        () => new Response('ok', { status: 404 }),
      ),
    });
    const origin = { originMs: 7, originStatus: 404 };
    expect((await room.visit({ path: '/static/app.css' })).log).toMatchObject({ reason: 'rule_bypass', ...origin });
    expect((await room.visit({ path: '/about' })).log).toMatchObject({ reason: 'no_room', ...origin });
    room.settings.set('enabled', 'false');
    expect((await room.visit({ path: '/shop' })).log).toMatchObject({ reason: 'disabled', ...origin });
  });

  it('leaves both out of a line whose request never reached the origin', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0' } });
    const denied = await room.visit();
    expect(denied.log?.outcome).toBe('deny');
    expect(denied.log).not.toHaveProperty('originMs');
    expect(denied.log).not.toHaveProperty('originStatus');
    room.settings.set('allow_percentage', '50');
    const waiting = await room.visit();
    expect(waiting.log?.outcome).toBe('startwaiting');
    expect(Object.keys(waiting.log!).filter((k) => k.startsWith('origin'))).toEqual([]);
  });
});
