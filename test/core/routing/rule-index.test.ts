import { describe, expect, it, vi } from 'vitest';
import { RuleContext, TRUE } from '../../../src/core/routing/rule-eval.js';
import {
  anchorOf,
  buildRuleIndex,
  candidateRules,
  firstSegment,
  HEADER_PROBES,
  ipKey,
} from '../../../src/core/routing/rule-index.js';
import { requestFacts } from '../../../src/core/request/request-facts.js';
import { parseCondition, type Condition } from '../../../src/core/routing/rule-parse.js';
import { facts, fakeEdge, type FactsInit } from '../../support/routing-facts.js';

function cond(raw: unknown): Condition {
  const c = parseCondition(raw);
  if (typeof c === 'string') throw new Error(c);
  return c;
}

const RULES = [
  { path: { prefix: '/webhooks' }, method: 'POST' },
  { path: { prefix: ['/API', '/v2'], ignore_case: true } },
  { path: { exact: '/robots.txt' } },
  { path: { suffix: ['.png', '.CSS'] } },
  { path: { suffix: '.PNG', ignore_case: true } },
  { host: ['shop.example.com', 'Pay.example.com'] },
  { host: '*.example.com' },
  { cookie: 'vip' },
  { method: ['PUT', 'delete'] },
  { ip: ['10.0.0.0/8', '2001:db8::/32'] },
  { ip: ['0.0.0.0/0'] },
  { any: [{ path: { prefix: '/a' } }, { path: { exact: '/b/c' } }] },
  { any: [{ cookie: 'x' }, { path: { prefix: '/x' } }] },
  { not: { path: { prefix: '/n' } } },
  { any: [{ acl: 'staff' }, { header: { name: 'x-staff' } }] },
  { country: ['FR'], path: { prefix: '/' } },
  { all: [{ query: { name: 'q' } }, { all: [{ cookie: 'deep' }] }] },
  { path: { prefix: '/' } },
  { cookie: 'a.b' },
].map(cond);

const edge = fakeEdge({
  acls: { staff: { '192.0.2.1': 'allow' } },
  geo: { '192.0.2.1': { country: 'FR', continent: 'EU', asn: 1 } },
});

const REQUESTS: Array<[string, FactsInit]> = [
  ['/webhooks/x', { method: 'POST' }],
  ['/webhooks', { method: 'GET' }],
  ['/api/v1', {}],
  ['/V2', {}],
  ['/robots.txt', {}],
  ['/Robots.txt', {}],
  ['/API/x', {}],
  ['/x.Png', {}],
  ['/', { ip: '2001:DB8::1' }],
  ['/', { ip: '11.0.0.1' }],
  ['/img/a.png', {}],
  ['/img/a.PNG', {}],
  ['/s.css', {}],
  ['/s.CSS', {}],
  ['/s.cSs', {}],
  ['/a.pNg', {}],
  ['/g', {}],
  ['https://pay.example.com/x', {}],
  ['https://PAY.example.com:8443/', {}],
  ['https://m.example.com/', {}],
  ['/', { headers: { cookie: 'vip=1; x=2' } }],
  ['/', { headers: { cookie: 'xvip=1; deep=' } }],
  ['/', { headers: { cookie: 'x=1;a.b=2' } }],
  ['/', { headers: { cookie: 'axb=1' } }],
  ['/', { method: 'DELETE' }],
  ['/', { ip: '10.1.2.3' }],
  ['/', { ip: '::ffff:10.1.2.3' }],
  ['/', { ip: '2001:db8::1' }],
  ['/', { ip: '2001:0db8::1' }],
  ['/', { ip: '::1' }],
  ['/', { ip: null }],
  ['/', { ip: 'garbage' }],
  ['/a/b', {}],
  ['/b/c', {}],
  ['/x', {}],
  ['/n/1', {}],
  ['/?q=1', { headers: { cookie: 'deep=1' } }],
  ['/', { headers: { 'x-staff': '1' }, ip: '192.0.2.9' }],
  ['/', { edge: null }],
];

describe('the rule index', () => {
  it('finds, for every request, exactly the rules that testing each one in turn finds, in order', async () => {
    const index = buildRuleIndex(RULES);
    for (const [url, init] of REQUESTS) {
      const f = facts(url, { edge, ...init });
      const brute: number[] = [];
      const ctx = new RuleContext(f);
      for (let i = 0; i < RULES.length; i++) if ((await ctx.test(RULES[i]!)) === TRUE) brute.push(i);
      const candidates = candidateRules(index, f);
      const indexed: number[] = [];
      for (const i of candidates) if ((await new RuleContext(f).test(RULES[i]!)) === TRUE) indexed.push(i);
      expect(indexed, `${url} ${JSON.stringify(init)}`).toEqual(brute);
      expect([...candidates].sort((a, b) => a - b)).toEqual(candidates);
      expect(new Set(candidates).size).toBe(candidates.length);
    }
  });

  it('tests few rules for a request that matches none of them', () => {
    const index = buildRuleIndex(RULES);
    const candidates = candidateRules(index, facts('https://other.test/shop/item', { edge }));
    // Only the rules with no anchor: *.example.com, 0.0.0.0/0, not /n, ACL-or-header, country-or-/, and the catch-all path.
    expect(candidates).toEqual([6, 10, 13, 14, 15, 17]);
  });

  it('does not test a suffix rule on a path that ends in the same character but not the same two', () => {
    const index = buildRuleIndex([
      cond({ path: { suffix: ['.webp', '.png'] } }),
      cond({ path: { suffix: '.MAP', ignore_case: true } }),
    ]);
    expect(candidateRules(index, facts('https://shop.example.com/tickets/seat-map'))).toEqual([1]);
    expect(candidateRules(index, facts('https://shop.example.com/tickets/seat-MaP'))).toEqual([1]);
    expect(candidateRules(index, facts('https://shop.example.com/tickets/a.webp'))).toEqual([0]);
    expect(candidateRules(index, facts('https://shop.example.com/tickets/a.jpg'))).toEqual([]);
  });

  it('files rules under the rarest fact they need', () => {
    expect(anchorOf(cond({ method: 'POST', path: { prefix: '/Hooks/a' } }))).toEqual([
      { kind: 'segment', key: 'Hooks' },
    ]);
    expect(anchorOf(cond({ path: { prefix: '/Hooks/a', ignore_case: true } }))).toEqual([
      { kind: 'segmentAnyCase', key: 'hooks' },
    ]);
    expect(anchorOf(cond({ path: { suffix: '.png' } }))).toEqual(
      ['ng', 'nG', 'Ng', 'NG'].map((key) => ({ kind: 'lastTwo', key })),
    );
    expect(anchorOf(cond({ path: { suffix: ['/', '.x'] } }))).toEqual([
      { kind: 'last', key: '/' },
      { kind: 'lastTwo', key: '.x' },
      { kind: 'lastTwo', key: '.X' },
    ]);
    expect(anchorOf(cond({ method: 'POST', cookie: 'a' }))).toEqual([{ kind: 'cookie', key: 'a' }]);
    expect(anchorOf(cond({ any: [{ cookie: 'a' }, { method: 'POST' }] }))).toEqual([
      { kind: 'method', key: 'POST' },
      { kind: 'cookie', key: 'a' },
    ]);
    expect(anchorOf(cond({ any: [{ cookie: 'a' }, { acl: 'x' }] }))).toBeNull();
    expect(anchorOf(cond({ ip: ['10.0.0.0/7'] }))).toBeNull();
    expect(anchorOf(cond({ ip: ['10.0.0.0/8', '2001::/16'] }))).toEqual([
      { kind: 'ip', key: 10 },
      { kind: 'ip', key: 256 + 0x2001 },
    ]);
    expect(anchorOf(cond({ host: ['a.test', '*.b.test'] }))).toBeNull();
    // A rule on a query parameter or a header needs the request to have it: a request without one skips the rule unread.
    expect(anchorOf(cond({ query: { name: 'preview', equals: 'staff' } }))).toEqual([
      { kind: 'query', key: 'preview' },
    ]);
    expect(anchorOf(cond({ header: { name: 'X-Region', equals: 'eu' } }))).toEqual([
      { kind: 'header', key: 'x-region' },
    ]);
    expect(anchorOf(cond({ header: { name: 'x-app' }, method: 'POST' }))).toEqual([{ kind: 'method', key: 'POST' }]);
    expect(anchorOf(cond({ not: { header: { name: 'x-app' } } }))).toBeNull();
  });

  it("reads a request's header names once, and no header for a request that lacks the rules' headers", () => {
    const index = buildRuleIndex([
      cond({ header: { name: 'x-region', equals: 'eu' } }),
      cond({ query: { name: 'preview' } }),
      cond({ header: { name: 'user-agent', prefix: 'Pingdom' } }),
    ]);
    const plain = facts('https://shop.example.com/tickets', { headers: { accept: 'text/html' } });
    expect(candidateRules(index, plain)).toEqual([]);
    expect(
      candidateRules(
        index,
        facts('https://shop.example.com/tickets?preview=1', {
          headers: { 'x-region': 'us', 'user-agent': 'Pingdom/1' },
        }),
      ),
    ).toEqual([0, 1, 2]);
  });

  it('asks a request about a few rule headers by name, and walks its headers only for many', () => {
    const make = (names: string[]) => buildRuleIndex(names.map((name) => cond({ header: { name } })));
    const request = (headers: Record<string, string>) => {
      const u = new URL('https://shop.example.com/tickets');
      const r = new Request(u, { headers });
      const walks = vi.spyOn(r.headers, 'keys');
      return { f: requestFacts(r, u, null, null, null, () => {}), walks };
    };
    const few = request({ accept: 'text/html', 'x-b': '1', 'user-agent': 'x' });
    expect(candidateRules(make(['x-a', 'x-b', 'x-c']), few.f)).toEqual([1]);
    expect(few.walks).not.toHaveBeenCalled();
    const names = Array.from({ length: HEADER_PROBES + 1 }, (_, i) => `x-${i}`);
    const many = request({ accept: 'text/html', 'x-3': '1', 'x-16': '' });
    expect(candidateRules(make(names), many.f)).toEqual([3, 16]);
    expect(many.walks).toHaveBeenCalledTimes(1);
  });

  it('keys paths by first segment and addresses by first byte or group', () => {
    expect(firstSegment('/')).toBe('');
    expect(firstSegment('/Shop')).toBe('Shop');
    expect(firstSegment('/shop/a/b')).toBe('shop');
    expect(ipKey('192.0.2.1')).toBe(192);
    expect(ipKey('8.8.8.8')).toBe(8);
    expect(ipKey('::ffff:192.0.2.1')).toBe(192);
    expect(ipKey('2001:db8::1')).toBe(256 + 0x2001);
    expect(ipKey('FE80::1')).toBe(256 + 0xfe80);
    expect(ipKey('::1')).toBe(256);
  });
});
