import { describe, expect, it } from 'vitest';
import { needsEdge, parseCondition, type Condition } from '../../../src/core/routing/rule-parse.js';

function ok(raw: unknown): Condition {
  const c = parseCondition(raw);
  if (typeof c === 'string') throw new Error(c);
  return c;
}

describe('parseCondition', () => {
  it('reads every condition kind', () => {
    const kinds = [
      { host: ['shop.example.com', '*.example.com'] },
      { path: { prefix: '/a' } },
      { path: { exact: ['/a', '/b'], ignore_case: true } },
      { path: { suffix: '.png' } },
      { method: 'post' },
      { query: { name: 'preview' } },
      { query: { name: 'preview', equals: '1' } },
      { header: { name: 'X-Staff' } },
      { header: { name: 'x-staff', equals: '1' } },
      { header: { name: 'user-agent', prefix: 'Mozilla' } },
      { cookie: 'vip' },
      { acl: 'staff_ips' },
      { ip: ['10.0.0.0/8', '2001:db8::/32'] },
      { country: ['us', 'CA'] },
      { continent: ['eu'] },
      { asn: [64496] },
      { device: ['mobile', 'tablet'] },
      { verified_bot: true },
      { verified_bot: ['search-engine-crawler'] },
      { not: { cookie: 'a' } },
      { all: [{ cookie: 'a' }, { cookie: 'b' }] },
      { any: [{ cookie: 'a' }, { cookie: 'b' }] },
    ];
    for (const raw of kinds) expect(typeof parseCondition(raw), JSON.stringify(raw)).toBe('object');
  });

  it('makes several keys of one object an all, cheap tests first', () => {
    const c = ok({ acl: 'staff', country: ['US'], header: { name: 'x-a' }, path: { prefix: '/a' }, method: 'GET' });
    expect(c.k).toBe('all');
    if (c.k !== 'all') return;
    expect(c.cs.map((x) => x.k)).toEqual(['method', 'path', 'header', 'country', 'acl']);
  });

  it('upper-cases methods, countries and continents and lower-cases header names once', () => {
    const m = ok({ method: ['get', 'Post'] });
    expect(m.k === 'method' && [...m.methods]).toEqual(['GET', 'POST']);
    const c = ok({ country: ['us'] });
    expect(c.k === 'country' && [...c.codes]).toEqual(['US']);
    const h = ok({ header: { name: 'X-Staff' } });
    expect(h.k === 'header' && h.name).toBe('x-staff');
  });

  it('refuses what it cannot read, saying what', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{}, /empty/],
      ['cookie', /not an object/],
      [{ colour: 'red' }, /unknown condition "colour"/],
      [{ path: '/a' }, /path is not an object/],
      [{ path: { prefix: '/a', exact: '/a' } }, /exactly one of/],
      [{ path: { prefix: 'a' } }, /does not start with/],
      [{ path: { exact: 'a' } }, /start with \//],
      [{ path: { prefix: '/a', regex: '.*' } }, /unknown key "regex"/],
      [{ host: 'bad host' }, /not a host name/],
      [{ host: [] }, /non-empty/],
      [{ method: 'GE T' }, /not a method name/],
      [{ query: { equals: '1' } }, /"name"/],
      [{ header: { name: 'x', equals: '1', prefix: '1' } }, /not both/],
      [{ header: { name: 'bad name' } }, /not a header name/],
      [{ header: { name: 'x', equals: 1 } }, /"equals" is not a string/],
      [{ cookie: '' }, /not a cookie name/],
      [{ acl: '' }, /not an ACL name/],
      [{ ip: '10.0.0.0/8' }, /list of 1 to 32/],
      [{ ip: Array.from({ length: 33 }, (_, i) => `10.0.0.${i}`) }, /list of 1 to 32/],
      [{ ip: ['10.1.0.0/8'] }, /bits set/],
      [{ country: ['USA'] }, /two-letter/],
      [{ continent: ['XX'] }, /not one of AF/],
      [{ asn: ['64496'] }, /AS numbers/],
      [{ asn: [-1] }, /AS numbers/],
      [{ device: ['phone'] }, /not one of desktop/],
      [{ verified_bot: false }, /true or a list/],
      [{ verified_bot: ['friendly'] }, /not a bot category/],
      [{ all: [] }, /non-empty list/],
      [{ any: {} }, /non-empty list/],
      [{ not: {} }, /empty/],
      [{ any: [{ cookie: 'a' }, { cookie: 1 }] }, /not a cookie name/],
    ];
    for (const [raw, message] of bad) expect(parseCondition(raw), JSON.stringify(raw)).toMatch(message);
  });

  it('refuses a condition nested past eight levels', () => {
    let raw: unknown = { cookie: 'a' };
    for (let i = 0; i < 9; i++) raw = { not: raw };
    expect(parseCondition(raw)).toMatch(/nest deeper than 8/);
  });

  it('knows which conditions need the edge', () => {
    expect(needsEdge(ok({ cookie: 'a' }))).toBe(false);
    expect(needsEdge(ok({ not: { any: [{ cookie: 'a' }, { country: ['US'] }] } }))).toBe(true);
    expect(needsEdge(ok({ acl: 'x' }))).toBe(true);
    expect(needsEdge(ok({ ip: ['10.0.0.0/8'] }))).toBe(false);
  });
});
