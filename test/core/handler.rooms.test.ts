// Several rooms on one service, through the pure handler: each room its own cookie and tokens, the
// origin never seeing any of them, and a request reading a handful of store values whatever the
// number of rooms.
import { describe, expect, it } from 'vitest';
import { FakeRoom, mint } from '../support/fakes.js';
import { claimsOf, roomCookieValue } from '../../lib/mint.js';

const routing = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'checkout', routes: ['/checkout'] },
    ],
    ...extra,
  });

function twoRooms(store: Record<string, string> = {}) {
  return new FakeRoom({
    settings: { allow_percentage: '50', wait_period_duration: '60' },
    store: {
      routing: routing(),
      'room.shop.allow_percentage': '100',
      'room.checkout.allow_percentage': '50',
      ...store,
    },
  });
}

describe('rooms', () => {
  it('a visitor inside the shop waits at the checkout like anyone else, each room with its own cookie', async () => {
    const room = twoRooms();
    const shop = await room.visit({ path: '/products' });
    expect(shop.fromOrigin).toBe(true);
    expect(shop.log).toMatchObject({ room: 'shop', reason: 'allow_all' });
    const shopToken = roomCookieValue(shop.response, 'shop')!;
    expect(claimsOf(shopToken)).toMatchObject({ dec: 'allow', room: 'shop' });

    const checkout = await room.visit({ path: '/checkout/pay', cookie: `waiting_room_shop=${shopToken}` });
    expect(checkout.fromOrigin).toBe(false);
    expect(checkout.log).toMatchObject({ room: 'checkout', outcome: 'startwaiting', reason: 'no_token' });
    expect(roomCookieValue(checkout.response, 'checkout')).not.toBeNull();
    // The shop's cookie is left alone: both live side by side.
    expect(checkout.response.headers.getSetCookie().some((l) => l.startsWith('waiting_room_shop='))).toBe(false);
  });

  it("counts another room's token as no token, even copied into this room's cookie", async () => {
    const room = twoRooms();
    const shopAllow = await mint({ dec: 'allow', exp: room.nowSec + 3600, room: 'shop' });
    const answer = await room.visit({ path: '/checkout', cookie: `waiting_room_checkout=${shopAllow}` });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.log).toMatchObject({ room: 'checkout', reason: 'token_other_room', outcome: 'startwaiting' });
    // The checkout's own allow token lets the same visitor in.
    const own = await mint({ dec: 'allow', exp: room.nowSec + 3600, room: 'checkout' });
    expect((await room.visit({ path: '/checkout', cookie: `waiting_room_checkout=${own}` })).fromOrigin).toBe(true);
  });

  it('never lets the origin see a room cookie, of this room or any other', async () => {
    const room = twoRooms();
    const own = await mint({ dec: 'allow', exp: room.nowSec + 3600, room: 'checkout' });
    await room.visit({
      path: '/checkout',
      cookie: `a=1; waiting_room_checkout=${own}; waiting_room_shop=x; waiting_room=y; b=2`,
    });
    expect(room.seen.at(-1)!.cookie).toBe('a=1; b=2');
  });

  it('keeps a room cookie that follows a bare comma from the origin', async () => {
    const room = twoRooms();
    const own = await mint({ dec: 'allow', exp: room.nowSec + 3600, room: 'checkout' });
    const answer = await room.visit({ path: '/checkout', cookie: `vip=1,waiting_room_checkout=${own}` });
    expect(answer.fromOrigin).toBe(true);
    expect(room.seen.at(-1)!.cookie).toBe('vip=1');
  });

  it("queues every spelling of a room's path or host that an origin serves as it, with no default room", async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '0' },
      store: {
        routing: JSON.stringify({
          rooms: [
            { id: 'shop', routes: ['/shop'] },
            { id: 'checkout', routes: ['/checkout', 'pay.example.com'] },
          ],
          rules: [{ id: 'hooks', if: { path: { prefix: '/webhooks' } }, then: 'bypass' }],
        }),
      },
    });
    for (const path of ['/%63heckout', '//checkout', '/checkout;a=b', '/webhooks/..%2fcheckout']) {
      const answer = await room.visit({ path });
      expect(answer.fromOrigin, path).toBe(false);
    }
    expect((await room.visit({ path: '/%63heckout' })).log).toMatchObject({ room: 'checkout', outcome: 'deny' });
    expect((await room.visit({ path: '/webhooks/a' })).log).toMatchObject({
      room: null,
      reason: 'rule_bypass',
      rule: 'hooks',
    });
  });

  it('names a routing problem once and ends it with the command that fixes it', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '0' },
      store: {
        routing: JSON.stringify({
          rooms: [{ id: 'shop', routes: ['/'] }],
          rules: [{ id: 'r1', if: { colour: 'red' }, then: 'bypass' }],
        }),
      },
    });
    const [line] = (await room.visit({ path: '/' })).diags.filter((d) => d.includes('routing'));
    expect(line).toMatch(/npm run tune -- --routing FILE$/);
    expect(line!.match(/r1/g)).toHaveLength(2); // once in the message, once in the rule as written
    expect(line).toContain('rule r1: unknown condition "colour": the rule is skipped');
  });

  it('matches whole path segments: /checkoutx is the shop', async () => {
    const room = twoRooms();
    expect((await room.visit({ path: '/checkoutx' })).log?.room).toBe('shop');
    expect((await room.visit({ path: '/checkout' })).log?.room).toBe('checkout');
  });

  it('sends a request in no room to the origin untouched, or to the default room when one is named', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '0' },
      store: { routing: JSON.stringify({ rooms: [{ id: 'drops', routes: ['/drops'] }] }) },
    });
    const outside = await room.visit({ path: '/about', cookie: 'a=1; waiting_room_drops=x' });
    expect(outside.fromOrigin).toBe(true);
    expect(outside.log).toMatchObject({ room: null, reason: 'no_room' });
    expect(room.seen.at(-1)!.cookie).toBe('a=1');
    expect((await room.visit({ path: '/drops/1' })).log).toMatchObject({ room: 'drops', outcome: 'deny' });
    room.store.set(
      'routing',
      JSON.stringify({
        rooms: [
          { id: 'drops', routes: ['/drops'] },
          { id: 'shop', routes: ['/shop'] },
        ],
        default_room: 'shop',
      }),
    );
    expect((await room.visit({ path: '/about' })).log).toMatchObject({ room: 'shop', outcome: 'deny' });
  });

  it('fails open when the routing cannot be read, and says so', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0' }, store: { routing: '{"rooms": [' } });
    const answer = await room.visit({ path: '/', cookie: 'waiting_room_default=x; a=1' });
    expect(answer.fromOrigin).toBe(true);
    expect(answer.log).toMatchObject({ reason: 'routing_unusable', room: null });
    expect(answer.diags.join('\n')).toMatch(/routing/);
    expect(room.seen.at(-1)!.cookie).toBe('a=1');
  });

  it("shows a room's own pages when it names its page set", async () => {
    const page = (text: string) =>
      Buffer.from(`<!doctype html><title>${text}</title><p>${text}</p>`).toString('base64');
    const room = twoRooms({ 'room.checkout': JSON.stringify({ pages: 'checkout' }) });
    room.pages.set('startwaiting', page('shared page'));
    room.pages.set('checkout.startwaiting', page('checkout page'));
    expect((await room.visit({ path: '/checkout', headers: { accept: 'text/html' } })).body).toContain('checkout page');
    room.store.set('room.shop.allow_percentage', '50');
    expect((await room.visit({ path: '/', headers: { accept: 'text/html' } })).body).toContain('shared page');
  });

  it('an invite-only room shows the deny page to those without an invitation', async () => {
    const room = twoRooms({ 'room.checkout': JSON.stringify({ invite_only: 'true' }) });
    const answer = await room.visit({ path: '/checkout' });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.log).toMatchObject({ room: 'checkout', decision: 'deny', reason: 'invite_only' });
    // Those inside finish on their allow token.
    const own = await mint({ dec: 'allow', exp: room.nowSec + 3600, room: 'checkout' });
    expect((await room.visit({ path: '/checkout', cookie: `waiting_room_checkout=${own}` })).fromOrigin).toBe(true);
  });
});

describe('a room whose own allow_percentage is empty', () => {
  // The service-wide chance is 1 in 100: the checkout, given an empty or blank value of its own, must
  // keep it, not read the empty value as "missing" and let everyone in.
  const holding = (store: Record<string, string>) =>
    new FakeRoom({
      settings: { allow_percentage: '1', wait_period_duration: '60' },
      store: { routing: routing(), ...store },
    });

  for (const [what, store] of [
    ['an empty room.checkout.allow_percentage', { 'room.checkout.allow_percentage': '' }],
    ['a blank room.checkout.allow_percentage', { 'room.checkout.allow_percentage': '  ' }],
    ['an empty allow_percentage in room.checkout', { 'room.checkout': JSON.stringify({ allow_percentage: '' }) }],
  ] as const) {
    it(`keeps the service-wide chance under ${what}`, async () => {
      const room = holding(store);
      const answer = await room.visit({ path: '/checkout' });
      expect(answer.fromOrigin).toBe(false);
      expect(answer.log).toMatchObject({ room: 'checkout', outcome: 'startwaiting' });
      expect(answer.diags.filter((d) => d.includes('allow_percentage'))).toEqual([]);
    });
  }

  it('keeps the service-wide chance when its own value is not a number, and says which value it skipped', async () => {
    const room = holding({ 'room.checkout.allow_percentage': '5%' });
    const answer = await room.visit({ path: '/checkout' });
    expect(answer.fromOrigin).toBe(false);
    expect(answer.diags.join('\n')).toMatch(
      /room\.checkout\.allow_percentage: allow_percentage = "5%" is not a number; using the value in settings \(1\)/,
    );
  });
});

describe('allow_percentage set per room only', () => {
  const perRoom = () =>
    new FakeRoom({
      settings: { allow_percentage: '', wait_period_duration: '60' },
      store: {
        routing: routing({ rules: [{ id: 'health', if: { path: { prefix: '/health' } }, then: 'bypass' }] }),
        'room.shop.allow_percentage': '100',
        'room.checkout.allow_percentage': '50',
      },
    });

  it('says nothing of allow_percentage for a request no room decides: nobody is admitted by it', async () => {
    const room = perRoom();
    const answer = await room.visit({ path: '/health' });
    expect(answer.log).toMatchObject({ room: null, reason: 'rule_bypass' });
    expect(answer.diags.filter((d) => d.includes('allow_percentage'))).toEqual([]);
    expect((await room.visit({ path: '/checkout' })).diags.filter((d) => d.includes('allow_percentage'))).toEqual([]);
  });

  it('says so, naming the room, when a room has no allow_percentage anywhere', async () => {
    const room = perRoom();
    room.store.delete('room.shop.allow_percentage');
    const answer = await room.visit({ path: '/' });
    expect(answer.fromOrigin).toBe(true);
    expect(answer.diags.filter((d) => d.includes('allow_percentage'))).toEqual([
      'waiting_room_config: settings: allow_percentage is missing, and room shop has none of its own (room.shop.allow_percentage, room.shop); room shop admits everyone (100)',
    ]);
  });
});

describe('store lookups per request', () => {
  function manyRooms() {
    const rooms = Array.from({ length: 20 }, (_, i) => ({ id: `room-${i}`, routes: [`/area-${i}`] }));
    const store: Record<string, string> = { routing: JSON.stringify({ rooms }) };
    for (const r of rooms) store[`room.${r.id}.allow_percentage`] = '50';
    return new FakeRoom({ settings: { allow_percentage: '50', wait_period_duration: '60' }, store });
  }

  it('reads at most 7 values for a new visitor and 5 for an admitted one, with 20 rooms', async () => {
    const room = manyRooms();
    let before = room.lookups;
    const fresh = await room.visit({ path: '/area-19/x' });
    expect(fresh.log).toMatchObject({ room: 'room-19', outcome: 'startwaiting' });
    // Five settings values, the page, and the operator's wording of the strings (strings.TAG).
    expect(room.lookups - before).toBeLessThanOrEqual(7);
    // A room with its own page set reads that set's wording too.
    room.store.set('room.room-19', JSON.stringify({ pages: 'shop' }));
    before = room.lookups;
    await room.visit({ path: '/area-19/x' });
    expect(room.lookups - before).toBeLessThanOrEqual(8);
    const allow = await mint({ dec: 'allow', exp: room.nowSec + 3600, room: 'room-19' });
    before = room.lookups;
    expect((await room.visit({ path: '/area-19/x', cookie: `waiting_room_room-19=${allow}` })).fromOrigin).toBe(true);
    expect(room.lookups - before).toBe(5);
  });
});

describe('a failure while routing', () => {
  it('keeps the visitor waiting with a 503 instead of crashing or opening the door', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '50' }, store: { routing: routing() } });
    const deps = room.deps();
    // A header that throws when a rule reads it stands for any bug in the routing.
    const broken = new Request('http://shop.example/checkout', { headers: { 'x-staff': '1' } });
    const get = broken.headers.get.bind(broken.headers);
    broken.headers.get = (name: string) => {
      if (name === 'x-staff') throw new Error('boom');
      return get(name);
    };
    room.store.set(
      'routing',
      JSON.stringify({
        rooms: [{ id: 'shop', routes: ['/'] }],
        rules: [{ id: 'staff', if: { header: { name: 'x-staff', equals: '1' } }, then: 'bypass' }],
      }),
    );
    const { handle } = await import('../../src/core/handler.js');
    const response = await handle(broken, deps);
    expect(response.status).toBe(503);
    expect(room.seen).toHaveLength(0);
    expect(room.diags.join('\n')).toMatch(/unexpected failure while routing/);
  });
});
