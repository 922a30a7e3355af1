import { describe, expect, it } from 'vitest';
import { describeCondition, describeRouting } from '../../lib/routing-describe.js';
import { parseCondition } from '../../src/core/routing/rule-parse.js';
import { parseRouting } from '../../src/core/routing/routing.js';

describe('describeRouting', () => {
  it('shows the rooms, the routes in the order they are tried, the rules and the default room', () => {
    const { routing } = parseRouting(
      JSON.stringify({
        rooms: [
          { id: 'shop', routes: ['/'] },
          {
            id: 'checkout',
            routes: ['/checkout', 'shop.example.com/pay', { host: '*.example.com', path: '/Cart', ignore_case: true }],
          },
          { id: 'vip' },
        ],
        default_room: 'shop',
        rules: [
          { id: 'webhooks', if: { path: { prefix: '/webhooks' }, method: 'POST' }, then: 'bypass' },
          {
            id: 'staff',
            if: { any: [{ acl: 'staff_ips' }, { header: { name: 'X-Staff', equals: '1' } }] },
            then: 'room:vip',
          },
        ],
      }),
    );
    expect(describeRouting(routing!)).toEqual([
      'room shop: /',
      'room checkout: /checkout, shop.example.com/pay, *.example.com/Cart (ignore case)',
      'room vip: (no routes: reached by rules or as the default room)',
      'routes, most specific first:',
      '  shop.example.com/pay -> checkout',
      '  *.example.com/cart (any case) -> checkout',
      '  /checkout -> checkout',
      '  / -> shop',
      'rules, first that applies wins:',
      '  1. webhooks: if method is POST and path under /webhooks -> bypass (origin, never queued)',
      '  2. staff: if header x-staff = "1" or client IP allowed by ACL staff_ips -> room vip',
      'default room: shop',
    ]);
  });

  it('says where requests matching nothing go without a default room', () => {
    const { routing } = parseRouting('{"rooms": []}');
    expect(describeRouting(routing!)).toEqual([
      'routes, most specific first:',
      'rules: none',
      'default room: none (a request matching no rule and no route goes to the origin)',
    ]);
  });
});

describe('describeCondition', () => {
  it('puts every condition in words', () => {
    const c = parseCondition({
      all: [
        { host: '*.example.com' },
        { path: { suffix: '.png', ignore_case: true } },
        { query: { name: 'p', equals: '1' } },
        { header: { name: 'ua', prefix: 'curl' } },
        { cookie: 'vip' },
        { ip: ['10.0.0.0/8'] },
        { country: ['fr'] },
        { continent: ['EU'] },
        { asn: [64496] },
        { device: ['mobile'] },
        { verified_bot: ['research'] },
        { not: { any: [{ verified_bot: true }, { query: { name: 'q' } }] } },
      ],
    });
    if (typeof c === 'string') throw new Error(c);
    expect(describeCondition(c)).toBe(
      'host is *.example.com and path ends with .png (any case) and cookie vip present and query p = "1" and header ua starts with "curl" and client IP in 10.0.0.0/8 and not (query has q or verified bot) and verified bot of research and country is FR and continent is EU and ASN is 64496 and device is mobile',
    );
  });
});
