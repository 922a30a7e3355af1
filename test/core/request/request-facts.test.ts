import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  holdsEncodedSeparator,
  lenientPath,
  requestFacts,
} from '../../../src/core/request/request-facts.js';

function make(url: string, init: RequestInit = {}, cookie: string | null = null) {
  const u = new URL(url);
  const request = new Request(u, init);
  const notes: string[] = [];
  return { f: requestFacts(request, u, cookie, '192.0.2.1', null, (m) => notes.push(m)), request, notes };
}

describe('requestFacts', () => {
  it('gives the host in lower case without its port, the path without the query, the method in upper case', () => {
    const { f } = make('https://Shop.Example.COM:8443/Cart/a?x=1', { method: 'post' });
    expect(f.host).toBe('shop.example.com');
    expect(f.path).toBe('/Cart/a');
    expect(f.method).toBe('POST');
  });

  it('answers the first value of a query parameter, and null when absent', () => {
    const { f } = make('https://a.test/?p=1&p=2&e=');
    expect(f.query('p')).toBe('1');
    expect(f.query('e')).toBe('');
    expect(f.query('q')).toBeNull();
  });

  it('answers headers by any-case name', () => {
    const { f } = make('https://a.test/', { headers: { 'X-Staff': '1' } });
    expect(f.header('x-staff')).toBe('1');
    expect(f.header('x-other')).toBeNull();
  });

  it('knows which cookies are present by name', () => {
    const { f } = make('https://a.test/', {}, 'a=1; vip=; b = 2;flag');
    expect(f.hasCookie('vip')).toBe(true);
    expect(f.hasCookie('b')).toBe(true);
    expect(f.hasCookie('flag')).toBe(false);
    expect(f.hasCookie('1')).toBe(false);
    expect(make('https://a.test/', {}, 'a=1, vip=1').f.hasCookie('vip')).toBe(true);
    expect(make('https://a.test/').f.hasCookie('a')).toBe(false);
  });

  it('makes nothing per request but the facts themselves: its methods are shared by every request', () => {
    const a = make('https://a.test/x', {}, 'a=1').f;
    const b = make('https://b.test/y', {}, 'b=2').f;
    expect(a.header).toBe(b.header);
    expect(a.hasCookie).toBe(b.hasCookie);
    expect(a.cookieNames).toBe(b.cookieNames);
    expect(a.headerNames).toBe(b.headerNames);
    expect(a.query).toBe(b.query);
    expect([a.hasCookie('a'), b.hasCookie('a'), b.cookieNames()]).toEqual([true, false, ['b']]);
  });

  it('reads neither headers, nor query, nor method until asked', () => {
    const u = new URL('https://a.test/x?y=1');
    let reads = 0;
    const request = new Proxy(new Request(u), {
      get(target, prop) {
        if (prop === 'headers' || prop === 'method') reads++;
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const f = requestFacts(request, u, null, null, null, () => {});
    expect(f.path).toBe('/x');
    expect(reads).toBe(0);
    expect(f.method).toBe('GET');
    expect(f.method).toBe('GET');
    expect(reads).toBe(1);
  });
});

describe('canonicalPath', () => {
  it('decodes only unreserved characters, upper-cases the hex of the rest, collapses slashes, drops ;params', () => {
    const cases: Array<[string, string]> = [
      ['/checkout', '/checkout'],
      ['/%63heckout', '/checkout'],
      ['/%7e%7E%41%2d%2E%5F', '/~~A-._'],
      ['/a%2fb%2Fc', '/a%2Fb%2Fc'],
      ['/a%3b%20%zz%4', '/a%3B%20%zz%4'],
      ['//checkout///pay//', '/checkout/pay/'],
      ['/checkout;a=b/pay;x', '/checkout/pay'],
      ['/;x/checkout', '/checkout'],
      ['/shop/..;/checkout', '/checkout'],
      ['/shop/.;x/checkout', '/shop/checkout'],
      ['/shop/%2e%2e;/checkout', '/checkout'],
      ['/a/..;', '/'],
      ['//', '/'],
    ];
    for (const [raw, canonical] of cases) expect(canonicalPath(raw), raw).toBe(canonical);
  });

  it('gives a requestFacts path that is canonical, and a host without its trailing dot', () => {
    const { f } = make('https://Pay.Example.com.:8443//%63heckout;a=b');
    expect(f.host).toBe('pay.example.com');
    expect(f.path).toBe('/checkout');
    expect(f.lowerPath).toBe('/checkout');
  });

  it('reads a path as an origin decoding %2F, %5C and %2E before resolving .. would', () => {
    expect(lenientPath('/webhooks/..%2fcheckout')).toBe('/checkout');
    expect(lenientPath('/a/%2E%2E%5Cb%2Fc')).toBe('/b/c');
    expect(lenientPath(make('https://a.test/shop/..%2Fcheckout;x').f.rawPath)).toBe('/checkout');
  });

  it('tells a raw path holding an encoded slash, backslash or dot', () => {
    for (const [url, held] of [
      ['/a/b.png', false],
      ['/a%20b', false],
      ['/a%2fb', true],
      ['/a%5Cb', true],
      ['/a%2Eb', true],
      ['/a%2Fb', true],
    ] as const) {
      expect(holdsEncodedSeparator(make(`https://a.test${url}`).f.rawPath), url).toBe(held);
    }
  });
});
