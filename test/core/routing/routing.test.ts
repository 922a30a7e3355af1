import { describe, expect, it } from 'vitest';
import { parseRouting, routeRequest, type Routing, type Target } from '../../../src/core/routing/routing.js';
import { CONFIG_STORE_VALUE_LIMIT, configValueChars } from '../../../src/core/settings/index.js';
import { facts, fakeEdge, type FactsInit } from '../../support/routing-facts.js';
import { sampleRouting } from '../../support/routing-sample.js';

function parsed(value: unknown): { routing: Routing; messages: string[] } {
  const { routing, problems } = parseRouting(JSON.stringify(value));
  if (routing === null) throw new Error(problems.map((p) => p.message).join('; '));
  return { routing, messages: problems.map((p) => p.message) };
}

const route = async (routing: Routing, url: string, init: FactsInit = {}): Promise<Target> =>
  routeRequest(routing, facts(url, init));

const SPEC = {
  rooms: [
    { id: 'shop', routes: ['/'] },
    {
      id: 'checkout',
      routes: ['/checkout', 'shop.example.com/pay', { host: '*.example.com', path: '/Cart', ignore_case: true }],
    },
  ],
  default_room: 'shop',
  rules: [
    { id: 'webhooks', if: { path: { prefix: '/webhooks' }, method: 'POST' }, then: 'bypass' },
    { id: 'staff', if: { any: [{ acl: 'staff_ips' }, { header: { name: 'x-staff', equals: '1' } }] }, then: 'bypass' },
    { id: 'vip', if: { cookie: 'vip' }, then: 'room:checkout' },
  ],
};

describe('no routing value', () => {
  it('is the one room `default`, covering every request, with no rules and no default room', async () => {
    const { routing, problems } = parseRouting(null);
    expect(problems).toEqual([]);
    expect(routing!.roomIds).toEqual(['default']);
    expect(routing!.defaultRoom).toBeNull();
    expect(await routeRequest(routing!, facts('https://any.host.test/any/path?x'))).toEqual({
      kind: 'room',
      room: 'default',
      rule: null,
    });
  });
});

describe('an unusable routing value', () => {
  it('gives no routing and says why: not JSON, not an object, no rooms list, too long', () => {
    const cases: Array<[string, RegExp]> = [
      ['{rooms: []', /not JSON/],
      ['[]', /not a JSON object/],
      ['"x"', /not a JSON object/],
      ['null', /not a JSON object/],
      ['{"rooms": {}}', /no "rooms" list/],
      ['{}', /no "rooms" list/],
      [
        JSON.stringify({ rooms: [{ id: 'a', routes: [`/${'x'.repeat(CONFIG_STORE_VALUE_LIMIT)}`] }] }),
        /more than a Config Store value holds \(8000\)/,
      ],
    ];
    for (const [raw, message] of cases) {
      const { routing, problems } = parseRouting(raw);
      expect(routing, raw.slice(0, 40)).toBeNull();
      expect(problems).toHaveLength(1);
      expect(problems[0]!.key).toBe('routing');
      expect(problems[0]!.message).toMatch(message);
      expect(problems[0]!.value.length).toBeLessThanOrEqual(201);
    }
  });

  // Fastly's limit is 8,000 characters, which Viceroy and the local host count as code points: an
  // emoji (two UTF-16 units) is one.
  it('counts characters as code points: 8,000 of them fit though they are more UTF-16 units', () => {
    const base = JSON.stringify({ rooms: [{ id: 'a', routes: ['/x'] }] });
    const raw = base.replace('/x', `/${'\u{1F600}'.repeat(CONFIG_STORE_VALUE_LIMIT - base.length + 1)}`);
    expect([...raw]).toHaveLength(CONFIG_STORE_VALUE_LIMIT);
    expect(configValueChars(raw)).toBe(CONFIG_STORE_VALUE_LIMIT);
    expect(parseRouting(raw).routing).not.toBeNull();
    expect(parseRouting(`${raw} `).problems[0]?.message).toMatch(/routing is 8001 characters/);
  });

  it('takes a value of exactly 8,000 characters', () => {
    const base = JSON.stringify({ rooms: [{ id: 'a', routes: ['/x'] }] });
    const raw = base.replace('/x', `/${'x'.repeat(CONFIG_STORE_VALUE_LIMIT - base.length + 1)}`);
    expect(raw.length).toBe(CONFIG_STORE_VALUE_LIMIT);
    expect(parseRouting(raw).routing).not.toBeNull();
  });
});

describe('the design example', () => {
  const { routing, messages } = parsed(SPEC);

  it('parses without a problem', () => {
    expect(messages).toEqual([]);
    expect(routing.roomIds).toEqual(['shop', 'checkout']);
    expect(routing.defaultRoom).toBe('shop');
  });

  it('sends each request where the rules, then the most specific route, say', async () => {
    expect(await route(routing, '/webhooks/stripe', { method: 'POST' })).toEqual({ kind: 'bypass', rule: 'webhooks' });
    expect(await route(routing, '/webhooks/stripe')).toEqual({ kind: 'room', room: 'shop', rule: null });
    expect(await route(routing, '/', { headers: { 'x-staff': '1' } })).toEqual({ kind: 'bypass', rule: 'staff' });
    expect(await route(routing, '/', { headers: { cookie: 'vip=1' } })).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: 'vip',
    });
    expect(await route(routing, '/checkout/step2')).toEqual({ kind: 'room', room: 'checkout', rule: null });
    expect(await route(routing, 'https://shop.example.com/pay')).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: null,
    });
    expect(await route(routing, 'https://www.example.com/CART/1')).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: null,
    });
    expect(await route(routing, 'https://example.com/cart')).toEqual({ kind: 'room', room: 'shop', rule: null });
  });

  it('lets the staff ACL bypass where the service has it', async () => {
    const edge = fakeEdge({ acls: { staff_ips: { '192.0.2.1': 'allow' } } });
    expect(await route(routing, '/', { edge })).toEqual({ kind: 'bypass', rule: 'staff' });
    expect(await route(routing, '/', { edge, ip: '192.0.2.9' })).toEqual({ kind: 'room', room: 'shop', rule: null });
  });
});

describe('the answer', () => {
  const { routing } = parsed(SPEC);

  it('comes at once, not as a promise, when no rule the request is tested against needs an ACL', () => {
    expect(routeRequest(routing, facts('https://shop.example.com/pay'))).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: null,
    });
    expect(routeRequest(routing, facts('/webhooks/x', { method: 'POST' }))).toEqual({
      kind: 'bypass',
      rule: 'webhooks',
    });
    expect(routeRequest(parseRouting(null).routing!, facts('/any'))).toEqual({
      kind: 'room',
      room: 'default',
      rule: null,
    });
  });

  it('waits for an ACL a rule needs, then goes on with the rules after it when it does not apply', async () => {
    const edge = fakeEdge({ acls: { staff_ips: { '192.0.2.1': 'block' } } });
    const answer = routeRequest(routing, facts('/', { edge, headers: { cookie: 'vip=1' } }));
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual({ kind: 'room', room: 'checkout', rule: 'vip' });
  });
});

describe('rules', () => {
  it('"then": "bot" sends the request where the routes send it, marked a bot, with the rule id', async () => {
    const { routing, messages } = parsed({
      ...SPEC,
      rules: [{ id: 'scrapers', if: { header: { name: 'user-agent', prefix: 'curl/' } }, then: 'bot' }, ...SPEC.rules],
    });
    expect(messages).toEqual([]);
    expect(await route(routing, '/checkout/pay', { headers: { 'user-agent': 'curl/8' } })).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: 'scrapers',
      bot: true,
    });
    expect(await route(routing, '/', { headers: { 'user-agent': 'curl/8' } })).toEqual({
      kind: 'room',
      room: 'shop',
      rule: 'scrapers',
      bot: true,
    });
    expect(await route(routing, '/checkout/pay', { headers: { 'user-agent': 'Mozilla/5.0' } })).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: null,
    });
  });

  it('are tried in order: the first that applies wins', async () => {
    const { routing } = parsed({
      rooms: [{ id: 'a' }, { id: 'b' }],
      rules: [
        { id: 'first', if: { path: { prefix: '/x' } }, then: 'room:b' },
        { id: 'second', if: { path: { prefix: '/x' } }, then: 'bypass' },
      ],
    });
    expect(await route(routing, '/x')).toEqual({ kind: 'room', room: 'b', rule: 'first' });
  });

  it('a request matching no rule and no route, with no default room, goes to the origin untouched', async () => {
    const { routing } = parsed({ rooms: [{ id: 'a', routes: ['/a'] }] });
    expect(await route(routing, '/b')).toEqual({ kind: 'none' });
  });

  it('a broken rule is skipped, named by id or index: it never queues everyone nor opens a room', async () => {
    const { routing, messages } = parsed({
      rooms: [
        { id: 'drops', routes: ['/drops'] },
        { id: 'all', routes: ['/'] },
      ],
      rules: [
        { id: 'open-drops', if: { path: { prefix: '/drops' }, colour: 'red' }, then: 'bypass' },
        { id: 'queue-all', if: { path: { prefix: '/' }, method: 7 }, then: 'room:drops' },
        { id: 'ghost', if: { cookie: 'a' }, then: 'room:nowhere' },
        { if: { cookie: 'a' }, then: 'bypass' },
        { id: 'Bad Id', if: { cookie: 'a' }, then: 'bypass' },
        { id: 'no-then', if: { cookie: 'a' } },
        { id: 'no-if', then: 'bypass' },
        { id: 'extra', if: { cookie: 'a' }, then: 'bypass', else: 'bypass' },
        { id: 'good', if: { cookie: 'a' }, then: 'bypass' },
        { id: 'good', if: { cookie: 'b' }, then: 'bypass' },
        'rule',
      ],
    });
    expect(routing.rules.map((r) => r.id)).toEqual(['extra', 'good']);
    expect(messages).toEqual([
      'rule open-drops: unknown condition "colour": the rule is skipped',
      'rule queue-all: method is not a non-empty string or list of strings: the rule is skipped',
      'rule ghost: "then" names room "nowhere", which is not among the rooms: the rule is skipped',
      'rule rules[3]: "id" is not a rule id (lower case letters, digits, - and _, at most 64 characters): the rule is skipped',
      'rule rules[4] ("Bad Id"): "id" is not a rule id (lower case letters, digits, - and _, at most 64 characters): the rule is skipped',
      'rule no-then: "then" is not "bypass", "bot" or "room:ID": the rule is skipped',
      'rule no-if: no "if": the rule is skipped',
      'rule extra: unknown key "else" (a rule has id, if, then): ignored',
      'rule rules[9] ("good"): a rule of that id is listed before: the rule is skipped',
      'rule rules[10]: not an object: the rule is skipped',
    ]);
    expect(await route(routing, '/drops/x', { method: 'POST' })).toEqual({ kind: 'room', room: 'drops', rule: null });
    expect(await route(routing, '/')).toEqual({ kind: 'room', room: 'all', rule: null });
  });

  it('a rule whose condition the edge cannot answer does not apply, even under not', async () => {
    const { routing } = parsed({
      rooms: [{ id: 'shop', routes: ['/'] }],
      rules: [
        { id: 'not-eu', if: { not: { continent: ['EU'] } }, then: 'bypass' },
        { id: 'no-bots', if: { not: { verified_bot: true } }, then: 'bypass' },
      ],
    });
    const notes: string[] = [];
    expect(await route(routing, '/', { notes })).toEqual({ kind: 'room', room: 'shop', rule: null });
    expect(await route(routing, '/', { notes, edge: fakeEdge() })).toEqual({ kind: 'room', room: 'shop', rule: null });
    expect(notes.some((n) => n.startsWith('rule "no-bots": verified_bot cannot be evaluated'))).toBe(true);
  });
});

describe('rooms and routes', () => {
  it('a duplicate route stays with the room listed first, and is named', async () => {
    const { routing, messages } = parsed({
      rooms: [
        { id: 'a', routes: ['/x', '/x/'] },
        { id: 'b', routes: [{ path: '/x' }, '/y'] },
      ],
    });
    expect(messages).toEqual([
      'room a: route /x/ is listed twice',
      "room b: route /x is room a's already: it stays room a's",
    ]);
    expect(await route(routing, '/x')).toEqual({ kind: 'room', room: 'a', rule: null });
    expect(await route(routing, '/y')).toEqual({ kind: 'room', room: 'b', rule: null });
  });

  it('a bad room is skipped, a bad route is skipped, the rest kept', async () => {
    const { routing, messages } = parsed({
      rooms: [
        { id: 'a', routes: ['/a', 'bad host/x'] },
        { id: 'a', routes: ['/dup'] },
        { id: 'Upper', routes: ['/u'] },
        { id: 'b', routes: '/b' },
        { id: 'c', routes: ['/c'], pages: 'x' },
        'd',
        { id: 'x'.repeat(33) },
      ],
      default_room: 'zzz',
      extra: 1,
    });
    expect(routing.roomIds).toEqual(['a', 'c']);
    expect(routing.defaultRoom).toBeNull();
    expect(messages).toEqual([
      'routing has unknown key "extra" (it has rooms, default_room, rules): ignored',
      'room a: host "bad host" is not a host name (or *.suffix): the route is skipped',
      'room a: a room of that id is listed before: the room is skipped',
      'room rooms[2]: "id" is not a room id (lower case letters, digits, - and _, at most 32 characters): the room is skipped',
      'room b: "routes" is not a list: the room is skipped',
      'room c: unknown key "pages" (a room has id and routes): ignored',
      'room rooms[5]: not an object: the room is skipped',
      'room rooms[6]: "id" is not a room id (lower case letters, digits, - and _, at most 32 characters): the room is skipped',
      'default_room is not one of the rooms: requests matching no route go to the origin',
    ]);
    expect(await route(routing, '/dup')).toEqual({ kind: 'none' });
  });

  it('room ids of 1 and 32 characters are good', () => {
    const { routing, messages } = parsed({ rooms: [{ id: 'a' }, { id: `a${'-'.repeat(30)}z` }] });
    expect(messages).toEqual([]);
    expect(routing.roomIds).toHaveLength(2);
  });
});

describe('20 rooms and 50 rules', () => {
  const value = sampleRouting(20, 50);
  const { routing, messages } = parsed(value);

  it('parse whole and fit a Config Store value', () => {
    expect(messages).toEqual([]);
    expect(routing.roomIds).toHaveLength(20);
    expect(routing.rules).toHaveLength(50);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(CONFIG_STORE_VALUE_LIMIT);
  });

  it('route each request as its rule or route says', async () => {
    const edge = fakeEdge({
      acls: { staff_ips: { '192.0.2.1': 'allow' } },
      geo: { '192.0.2.7': { country: 'CA', continent: 'NA', asn: null } },
    });
    expect(await route(routing, '/webhooks/h42', { method: 'POST', edge, ip: '192.0.2.9' })).toEqual({
      kind: 'bypass',
      rule: 'hook-42',
    });
    expect(await route(routing, '/webhooks/h42', { method: 'GET', edge, ip: '192.0.2.9' })).toEqual({
      kind: 'room',
      room: 'room-0',
      rule: null,
    });
    expect(await route(routing, '/shop/s7/x', { edge })).toEqual({ kind: 'bypass', rule: 'staff-9' });
    expect(await route(routing, '/shop/s7/x', { edge: null })).toEqual({ kind: 'room', room: 'room-7', rule: null });
    expect(await route(routing, '/shop/s7/x', { edge, ip: '192.0.2.7' })).toEqual({
      kind: 'room',
      room: 'room-19',
      rule: 'country-19',
    });
    expect(await route(routing, '/', { headers: { 'x-staff': 'k29' } })).toEqual({ kind: 'bypass', rule: 'staff-29' });
    expect(await route(routing, '/', { headers: { cookie: 'a=1; vip_47=1' } })).toEqual({
      kind: 'room',
      room: 'room-7',
      rule: 'vip-47',
    });
    expect(await route(routing, '/a.v45.css')).toEqual({ kind: 'bypass', rule: 'assets-45' });
    expect(await route(routing, '/a.V45.CSS')).toEqual({ kind: 'room', room: 'room-0', rule: null });
    expect(await route(routing, '/', { ip: '10.48.3.4' })).toEqual({ kind: 'room', room: 'room-8', rule: 'office-48' });
    expect(await route(routing, '/', { ip: '2001:db8:30::5' })).toEqual({
      kind: 'room',
      room: 'room-8',
      rule: 'office-48',
    });
    expect(await route(routing, 'https://s13.example.com/DROPS/now')).toEqual({
      kind: 'room',
      room: 'room-13',
      rule: null,
    });
    expect(await route(routing, '/elsewhere')).toEqual({ kind: 'room', room: 'room-0', rule: null });
  });
});

describe('spellings of a path or host', () => {
  const { routing } = parsed({
    rooms: [
      { id: 'shop', routes: ['/shop'] },
      { id: 'checkout', routes: ['/checkout', 'pay.example.com'] },
    ],
    rules: [
      { id: 'cart', if: { path: { exact: '/cart/pay' } }, then: 'room:checkout' },
      { id: 'api', if: { host: 'api.example.com', path: { prefix: '/v1' } }, then: 'room:shop' },
    ],
  });
  const checkout = { kind: 'room', room: 'checkout', rule: null };

  it('an origin would serve as /checkout keep the request in the checkout room', async () => {
    for (const url of [
      '/%63heckout',
      '/%63%68eckout/pay',
      '//checkout',
      '/checkout;a=b',
      '/checkout;a=b/pay',
      '/;x/checkout',
      '/shop/..;/checkout',
      '/%2e%2e/checkout',
      'http://pay.example.com./',
      'https://PAY.example.com.:8443/x',
    ]) {
      expect(await route(routing, url), url).toEqual(checkout);
    }
  });

  it('rules see the same canonical path and host', async () => {
    expect(await route(routing, '//cart//pay')).toEqual({ kind: 'room', room: 'checkout', rule: 'cart' });
    expect(await route(routing, '/%63art/pay;jsessionid=1')).toEqual({ kind: 'room', room: 'checkout', rule: 'cart' });
    expect(await route(routing, 'https://api.example.com./%76%31/x')).toEqual({
      kind: 'room',
      room: 'shop',
      rule: 'api',
    });
  });

  it("a path an origin may read as another one, through an encoded slash or dot, is placed in that other one's room", async () => {
    expect(await route(routing, '/shop/..%2fcheckout')).toEqual(checkout);
    expect(await route(routing, '/shop/..%5Ccheckout')).toEqual(checkout);
    expect(await route(routing, '/about/%2e%2e%2fcheckout/pay')).toEqual(checkout);
    expect(await route(routing, '/checkout%2fpay')).toEqual(checkout);
    expect(await route(routing, '/about/..%2fx')).toEqual({ kind: 'none' });
  });

  it('ignore_case compares the canonical paths lower-cased', async () => {
    const { routing: r } = parsed({ rooms: [{ id: 'cart', routes: [{ path: '/Cart', ignore_case: true }] }] });
    expect(await route(r, '/%43ART/x')).toEqual({ kind: 'room', room: 'cart', rule: null });
    expect(await route(r, '//cArT;v=1')).toEqual({ kind: 'room', room: 'cart', rule: null });
  });
});

describe('bypass rules and encoded separators', () => {
  const { routing } = parsed({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'checkout', routes: ['/checkout'] },
    ],
    rules: [
      { id: 'hooks', if: { path: { prefix: '/webhooks' } }, then: 'bypass' },
      { id: 'images', if: { path: { suffix: '.png' } }, then: 'bypass' },
      { id: 'staff', if: { header: { name: 'x-staff', equals: '1' } }, then: 'bypass' },
      { id: 'vip', if: { cookie: 'vip' }, then: 'room:checkout' },
    ],
  });

  it('no bypass rule applies to a path holding an encoded slash, backslash or dot', async () => {
    for (const path of [
      '/webhooks/..%2fcheckout',
      '/webhooks/..%2Fcheckout',
      '/webhooks/..%5ccheckout',
      '/webhooks/%2E%2E%2fcheckout',
      '/checkout%2f..%2f.png',
      '/checkout/x%2epng.png',
    ]) {
      const target = await route(routing, path, { headers: { 'x-staff': '1' } });
      expect(target.kind, path).toBe('room');
    }
  });

  it('the same paths without encoded separators still bypass, and room rules still apply to encoded ones', async () => {
    expect(await route(routing, '/webhooks/a')).toEqual({ kind: 'bypass', rule: 'hooks' });
    expect(await route(routing, '/a/b.png')).toEqual({ kind: 'bypass', rule: 'images' });
    expect(await route(routing, '/webhooks/..%2fx', { headers: { cookie: 'vip=1' } })).toEqual({
      kind: 'room',
      room: 'checkout',
      rule: 'vip',
    });
  });
});

describe('unknown keys', () => {
  it('a room or rule with an unknown key of its own is kept, and the key reported', async () => {
    const { routing, messages } = parsed({
      rooms: [
        { id: 'shop', routes: ['/'] },
        { id: 'checkout', routes: ['/checkout'], ignore_case: true },
      ],
      rules: [
        { id: 'hooks', comment: 'for the payment provider', if: { path: { prefix: '/webhooks' } }, then: 'bypass' },
        { id: 'odd', if: { path: { prefix: '/x' }, colour: 'red' }, then: 'bypass' },
      ],
    });
    expect(routing.roomIds).toEqual(['shop', 'checkout']);
    expect(routing.rules.map((r) => r.id)).toEqual(['hooks']);
    expect(messages).toEqual([
      'room checkout: unknown key "ignore_case" (a room has id and routes): ignored',
      'rule hooks: unknown key "comment" (a rule has id, if, then): ignored',
      'rule odd: unknown condition "colour": the rule is skipped',
    ]);
    expect(await route(routing, '/checkout')).toEqual({ kind: 'room', room: 'checkout', rule: null });
    expect(await route(routing, '/webhooks/a')).toEqual({ kind: 'bypass', rule: 'hooks' });
  });
});

describe('cookies in rules', () => {
  it('a cookie rule matches in repeated Cookie headers joined by a comma', async () => {
    const { routing } = parsed({
      rooms: [
        { id: 'shop', routes: ['/'] },
        { id: 'vip', routes: [] },
      ],
      rules: [{ id: 'vip', if: { cookie: 'vip' }, then: 'room:vip' }],
    });
    expect(await route(routing, '/', { headers: { cookie: 'a=1, vip=1' } })).toEqual({
      kind: 'room',
      room: 'vip',
      rule: 'vip',
    });
    expect(await route(routing, '/', { headers: { cookie: 'a=1,vip=1' } })).toEqual({
      kind: 'room',
      room: 'shop',
      rule: null,
    });
  });
});
