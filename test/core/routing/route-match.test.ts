import { describe, expect, it } from 'vitest';
import {
  buildRouteTable,
  hostMatches,
  matchRoute,
  parseRoute,
  prefixMatches,
  routeKey,
  type Route,
} from '../../../src/core/routing/route-match.js';

function route(raw: unknown, room = 'r'): Route {
  const r = parseRoute(raw, room);
  if (typeof r === 'string') throw new Error(r);
  return r;
}

/** The room of the most specific route for a URL, over routes given as [room, route]. */
function roomFor(routes: Array<[string, unknown]>, url: string): string | null {
  const table = buildRouteTable(routes.map(([room, raw]) => route(raw, room)));
  const u = new URL(url);
  return matchRoute(table, u.hostname, { path: u.pathname, lowerPath: u.pathname.toLowerCase() })?.room ?? null;
}

describe('a route path', () => {
  it('matches on whole segments', () => {
    const routes: Array<[string, unknown]> = [['drops', '/drops']];
    expect(roomFor(routes, 'https://a.test/drops')).toBe('drops');
    expect(roomFor(routes, 'https://a.test/drops/')).toBe('drops');
    expect(roomFor(routes, 'https://a.test/drops/a/b')).toBe('drops');
    expect(roomFor(routes, 'https://a.test/dropship')).toBeNull();
    expect(roomFor(routes, 'https://a.test/')).toBeNull();
  });

  it('ignores a trailing slash, except / itself, which covers every path', () => {
    expect(roomFor([['d', '/drops/']], 'https://a.test/drops')).toBe('d');
    expect(roomFor([['all', '/']], 'https://a.test/anything/at/all')).toBe('all');
  });

  it('is case-sensitive unless ignore_case', () => {
    expect(roomFor([['c', '/Cart']], 'https://a.test/cart')).toBeNull();
    expect(roomFor([['c', '/Cart']], 'https://a.test/Cart/x')).toBe('c');
    expect(roomFor([['c', { path: '/Cart', ignore_case: true }]], 'https://a.test/CART/x')).toBe('c');
  });
});

describe('a route host', () => {
  it('exact: that host in any case, any port', () => {
    const routes: Array<[string, unknown]> = [['pay', 'Shop.Example.com/pay']];
    expect(roomFor(routes, 'https://shop.example.com:8443/pay/now')).toBe('pay');
    expect(roomFor(routes, 'https://www.example.com/pay')).toBeNull();
  });

  it('*.suffix: any subdomain, not the bare domain', () => {
    const routes: Array<[string, unknown]> = [['w', '*.example.com']];
    expect(roomFor(routes, 'https://a.b.example.com/x')).toBe('w');
    expect(roomFor(routes, 'https://example.com/x')).toBeNull();
    expect(roomFor(routes, 'https://badexample.com/x')).toBeNull();
  });

  it('alone means every path of that host', () => {
    expect(roomFor([['h', 'shop.example.com']], 'https://shop.example.com/a/b')).toBe('h');
  });
});

describe('the most specific route wins', () => {
  const routes: Array<[string, unknown]> = [
    ['any', '/'],
    ['deep', '/checkout/pay'],
    ['wild', '*.example.com/'],
    ['wild-long', '*.shop.example.com/'],
    ['exact', 'www.shop.example.com/'],
    ['exact-deep', 'www.shop.example.com/checkout'],
  ];

  it('an exact host before a wildcard, a longer suffix before a shorter, any host last', () => {
    expect(roomFor(routes, 'https://www.shop.example.com/checkout/pay')).toBe('exact-deep');
    expect(roomFor(routes, 'https://www.shop.example.com/other')).toBe('exact');
    expect(roomFor(routes, 'https://m.shop.example.com/checkout/pay')).toBe('wild-long');
    expect(roomFor(routes, 'https://m.example.com/checkout/pay')).toBe('wild');
    expect(roomFor(routes, 'https://other.test/checkout/pay')).toBe('deep');
    expect(roomFor(routes, 'https://other.test/checkout')).toBe('any');
  });

  it('within one host kind, more segments win, whatever the order written', () => {
    const r: Array<[string, unknown]> = [
      ['a', '/a'],
      ['abc', '/a/b/c'],
      ['ab', '/a/b'],
    ];
    expect(roomFor(r, 'https://x.test/a/b/c/d')).toBe('abc');
    expect(roomFor(r, 'https://x.test/a/b/x')).toBe('ab');
    expect(roomFor(r, 'https://x.test/a/x')).toBe('a');
  });

  it('a tie goes to the case-sensitive route, then to the one listed first', () => {
    expect(
      roomFor(
        [
          ['any-case', { path: '/cart', ignore_case: true }],
          ['exact-case', '/cart'],
        ],
        'https://x.test/cart',
      ),
    ).toBe('exact-case');
    expect(
      roomFor(
        [
          ['any-case', { path: '/cart', ignore_case: true }],
          ['exact-case', '/cart'],
        ],
        'https://x.test/Cart',
      ),
    ).toBe('any-case');
    expect(
      roomFor(
        [
          ['first', { path: '/x', ignore_case: true }],
          ['second', { path: '/X', ignore_case: true }],
        ],
        'https://x.test/x',
      ),
    ).toBe('first');
  });
});

describe('parseRoute', () => {
  it('refuses what it could not match as written, saying why', () => {
    expect(parseRoute('', 'r')).toMatch(/empty/);
    expect(parseRoute('shop.example.com:8080/x', 'r')).toMatch(/port/);
    expect(parseRoute('shop_example.com', 'r')).toMatch(/not a host name/);
    expect(parseRoute('*.', 'r')).toMatch(/not \*\. followed by a host name/);
    expect(parseRoute('/a?b=1', 'r')).toMatch(/query/);
    expect(parseRoute({ path: 'a' }, 'r')).toMatch(/does not start with \//);
    expect(parseRoute({ path: '/a', regex: true }, 'r')).toMatch(/unknown key "regex"/);
    expect(parseRoute({ ignore_case: true }, 'r')).toMatch(/neither host nor path/);
    expect(parseRoute({ path: '/a', ignore_case: 'yes' }, 'r')).toMatch(/ignore_case/);
    expect(parseRoute(42, 'r')).toMatch(/neither a string nor an object/);
  });

  it('gives routes that match the same requests the same key', () => {
    expect(routeKey(route('/a/'))).toBe(routeKey(route({ path: '/a' })));
    expect(routeKey(route('SHOP.example.com/a'))).toBe(routeKey(route({ host: 'shop.example.com', path: '/a' })));
    expect(routeKey(route({ path: '/A', ignore_case: true }))).toBe(routeKey(route({ path: '/a', ignore_case: true })));
    expect(routeKey(route('/A'))).not.toBe(routeKey(route('/a')));
    expect(routeKey(route('/a'))).not.toBe(routeKey(route({ path: '/a', ignore_case: true })));
  });
});

describe('the route table index', () => {
  // Routes of every kind that touch one another: shared and differently cased first segments,
  // ignore_case ones, `/`, exact and wildcard hosts of shared last labels.
  const written: Array<[string, unknown]> = [
    ['root', '/'],
    ['shop', '/shop'],
    ['shop-deep', '/shop/a/b'],
    ['Shop', '/Shop/a'],
    ['shop-ic', { path: '/SHOP/a', ignore_case: true }],
    ['cart-ic', { path: '/Cart', ignore_case: true }],
    ['cart-ic-deep', { path: '/cart/x', ignore_case: true }],
    ['tickets', '/tickets/finals'],
    ['tickets-x', '/tickets/x'],
    ['wild', '*.example.com/'],
    ['wild-tickets', { host: '*.tickets.example.com', path: '/tickets' }],
    ['wild-other', '*.example.org/shop'],
    ['exact', 'www.example.com/shop'],
  ];
  const table = buildRouteTable(written.map(([room, raw]) => route(raw, room)));
  /** The route found by trying every route, most specific first: what the index must find too. */
  function walked(host: string, path: string): string | null {
    const f = { path, lowerPath: path.toLowerCase() };
    const hit = table.ordered.find((r) => (r.host === null || hostMatches(r.host, host)) && prefixMatches(r.prefix, f));
    return hit?.room ?? null;
  }

  it('finds for every host and path the route that trying each route in turn finds', () => {
    const hosts = [
      'www.example.com',
      'a.example.com',
      'a.tickets.example.com',
      'example.com',
      'x.example.org',
      'other.test',
      '127.0.0.1',
      'localhost',
      'com',
    ];
    const paths = [
      '/',
      '/shop',
      '/shop/a',
      '/Shop/a',
      '/SHOP/A/b',
      '/shop/a/b/c',
      '/cart',
      '/CART/X',
      '/cart/y',
      '/tickets',
      '/tickets/finals/seat-map',
      '/tickets/x',
      '/Tickets/finals',
      '/other',
      '/shopping',
    ];
    let compared = 0;
    for (const host of hosts) {
      for (const path of paths) {
        expect(matchRoute(table, host, { path, lowerPath: path.toLowerCase() })?.room ?? null, `${host}${path}`).toBe(
          walked(host, path),
        );
        compared++;
      }
    }
    expect(compared).toBe(hosts.length * paths.length);
  });

  it('tries for a path of a host no route names only the routes of its first segment and of /', () => {
    const rooms = (segment: string) => table.anyBySegment.get(segment)?.map((r) => r.room);
    expect(rooms('tickets')).toEqual(['tickets', 'tickets-x', 'root']);
    expect(rooms('shop')).toEqual(['shop-deep', 'shop-ic', 'shop', 'root']);
    expect(table.anyByLowerSegment.get('cart')?.map((r) => r.room)).toEqual(['cart-ic-deep', 'cart-ic', 'root']);
    expect(table.anyRoot.map((r) => r.room)).toEqual(['root']);
    expect(table.wildcardByLabel.get('org')?.map((r) => r.room)).toEqual(['wild-other']);
  });
});
