import { describe, expect, it } from 'vitest';
import { cookieNames, requestFacts } from '../../src/core/request-facts.js';

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
    expect(make('https://a.test/').f.hasCookie('a')).toBe(false);
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

describe('cookieNames', () => {
  it('takes the names before = of each part', () => {
    expect(cookieNames('a=1; b=x=y;  c=;=nameless; a=2')).toEqual(['a', 'b', 'c', 'a']);
  });
});
