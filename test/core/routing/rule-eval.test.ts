import { describe, expect, it, vi } from 'vitest';
import { FALSE, RuleContext, TRUE, UNKNOWN } from '../../../src/core/routing/rule-eval.js';
import { parseCondition, type Condition } from '../../../src/core/routing/rule-parse.js';
import type { RequestFacts } from '../../../src/core/request/request-facts.js';
import { facts, fakeEdge, type FactsInit } from '../../support/routing-facts.js';

function cond(raw: unknown): Condition {
  const c = parseCondition(raw);
  if (typeof c === 'string') throw new Error(c);
  return c;
}

async function test(raw: unknown, f: RequestFacts): Promise<number> {
  const ctx = new RuleContext(f);
  ctx.rule = 'r';
  return ctx.test(cond(raw));
}

const edge = fakeEdge({
  geo: { '192.0.2.1': { country: 'FR', continent: 'EU', asn: 64496 } },
  devices: { 'phone-agent': 'mobile' },
  bot: { verified: true, category: 'search-engine-crawler' },
  acls: { staff: { '192.0.2.1': 'allow', '192.0.2.2': 'block' } },
});

const at = (url: string, init: FactsInit = {}) => facts(url, { edge, ...init });

describe('each condition', () => {
  it('host, path, method', async () => {
    expect(await test({ host: '*.example.com' }, at('/'))).toBe(TRUE);
    expect(await test({ host: 'other.example.com' }, at('/'))).toBe(FALSE);
    expect(await test({ path: { prefix: '/webhooks' } }, at('/webhooks/stripe'))).toBe(TRUE);
    expect(await test({ path: { prefix: '/webhooks' } }, at('/webhooksx'))).toBe(FALSE);
    expect(await test({ path: { exact: '/a' } }, at('/a/'))).toBe(FALSE);
    expect(await test({ path: { exact: '/A', ignore_case: true } }, at('/a'))).toBe(TRUE);
    expect(await test({ path: { suffix: ['.png', '.css'] } }, at('/img/x.css'))).toBe(TRUE);
    expect(await test({ path: { suffix: '.PNG' } }, at('/x.png'))).toBe(FALSE);
    expect(await test({ path: { prefix: '/API', ignore_case: true } }, at('/api/v1'))).toBe(TRUE);
    expect(await test({ method: ['post', 'PUT'] }, at('/', { method: 'POST' }))).toBe(TRUE);
    expect(await test({ method: 'POST' }, at('/'))).toBe(FALSE);
  });

  it('query, header, cookie', async () => {
    expect(await test({ query: { name: 'preview' } }, at('/?preview'))).toBe(TRUE);
    expect(await test({ query: { name: 'preview', equals: '1' } }, at('/?preview=1&preview=2'))).toBe(TRUE);
    expect(await test({ query: { name: 'preview', equals: '2' } }, at('/?preview=1&preview=2'))).toBe(FALSE);
    expect(await test({ header: { name: 'X-Staff' } }, at('/', { headers: { 'x-staff': '0' } }))).toBe(TRUE);
    expect(await test({ header: { name: 'x-staff', equals: '1' } }, at('/', { headers: { 'x-staff': '0' } }))).toBe(
      FALSE,
    );
    expect(
      await test(
        { header: { name: 'user-agent', prefix: 'curl/' } },
        at('/', { headers: { 'user-agent': 'curl/8.0' } }),
      ),
    ).toBe(TRUE);
    expect(await test({ header: { name: 'x-staff' } }, at('/'))).toBe(FALSE);
    expect(await test({ cookie: 'vip' }, at('/', { headers: { cookie: 'a=1; vip=yes' } }))).toBe(TRUE);
    expect(await test({ cookie: 'vip' }, at('/', { headers: { cookie: 'vipx=1; a=vip' } }))).toBe(FALSE);
  });

  it('ip, country, continent, asn, device, verified_bot, acl', async () => {
    expect(await test({ ip: ['192.0.2.0/24'] }, at('/'))).toBe(TRUE);
    expect(await test({ ip: ['2001:db8::/32'] }, at('/'))).toBe(FALSE);
    expect(await test({ country: ['fr', 'de'] }, at('/'))).toBe(TRUE);
    expect(await test({ country: ['US'] }, at('/'))).toBe(FALSE);
    expect(await test({ continent: ['EU'] }, at('/'))).toBe(TRUE);
    expect(await test({ asn: [64496] }, at('/'))).toBe(TRUE);
    expect(await test({ asn: [1] }, at('/'))).toBe(FALSE);
    expect(await test({ device: ['mobile'] }, at('/', { headers: { 'user-agent': 'phone-agent' } }))).toBe(TRUE);
    expect(await test({ device: ['desktop'] }, at('/', { headers: { 'user-agent': 'phone-agent' } }))).toBe(FALSE);
    expect(await test({ device: ['mobile'] }, at('/', { headers: { 'user-agent': 'unknown-agent' } }))).toBe(FALSE);
    expect(await test({ verified_bot: true }, at('/'))).toBe(TRUE);
    expect(await test({ verified_bot: ['search-engine-crawler'] }, at('/'))).toBe(TRUE);
    expect(await test({ verified_bot: ['ai-crawler'] }, at('/'))).toBe(FALSE);
    expect(
      await test(
        { verified_bot: true },
        facts('/', { edge: fakeEdge({ bot: { verified: false, category: 'suspected' } }) }),
      ),
    ).toBe(FALSE);
    expect(await test({ acl: 'staff' }, at('/'))).toBe(TRUE);
    expect(await test({ acl: 'staff' }, at('/', { ip: '192.0.2.2' }))).toBe(FALSE);
    expect(await test({ acl: 'staff' }, at('/', { ip: '192.0.2.3' }))).toBe(FALSE);
  });
});

describe('not, all, any', () => {
  it('combine as written', async () => {
    expect(await test({ not: { cookie: 'vip' } }, at('/'))).toBe(TRUE);
    expect(await test({ all: [{ method: 'GET' }, { path: { prefix: '/a' } }] }, at('/a'))).toBe(TRUE);
    expect(await test({ all: [{ method: 'GET' }, { path: { prefix: '/a' } }] }, at('/b'))).toBe(FALSE);
    expect(await test({ any: [{ method: 'POST' }, { path: { prefix: '/a' } }] }, at('/a'))).toBe(TRUE);
    expect(await test({ any: [{ method: 'POST' }, { path: { prefix: '/a' } }] }, at('/b'))).toBe(FALSE);
    expect(await test({ method: 'GET', path: { prefix: '/a' } }, at('/b'))).toBe(FALSE);
  });
});

describe('a condition that cannot be evaluated', () => {
  it('is unknown without edge lookups, even under not, and says so', async () => {
    const notes: string[] = [];
    for (const raw of [
      { country: ['FR'] },
      { continent: ['EU'] },
      { asn: [1] },
      { device: ['mobile'] },
      { verified_bot: true },
      { acl: 'staff' },
    ]) {
      expect(await test(raw, facts('/', { notes, headers: { 'user-agent': 'x' } })), JSON.stringify(raw)).toBe(UNKNOWN);
      expect(
        await test({ not: raw }, facts('/', { notes, headers: { 'user-agent': 'x' } })),
        `not ${JSON.stringify(raw)}`,
      ).toBe(UNKNOWN);
    }
    expect(notes.length).toBeGreaterThanOrEqual(12);
    expect(notes[0]).toBe('rule "r": country cannot be evaluated (no geolocation here), so the rule does not apply');
  });

  it('is unknown for an ACL the service lacks, Bot Management that did not run, no geolocation data, no client address', async () => {
    const notes: string[] = [];
    const bare = fakeEdge();
    expect(await test({ acl: 'nope' }, facts('/', { edge, notes }))).toBe(UNKNOWN);
    expect(await test({ not: { verified_bot: true } }, facts('/', { edge: bare, notes }))).toBe(UNKNOWN);
    expect(await test({ not: { country: ['US'] } }, facts('/', { edge: bare, notes }))).toBe(UNKNOWN);
    expect(await test({ not: { ip: ['10.0.0.0/8'] } }, facts('/', { edge, ip: null, notes }))).toBe(UNKNOWN);
    expect(notes).toEqual([
      'rule "r": acl "nope" cannot be evaluated (the service has no ACL of that name, or its lookup failed), so the rule does not apply',
      'rule "r": verified_bot cannot be evaluated (Bot Management did not run on this request: is it enabled on the service?), so the rule does not apply',
      'rule "r": country cannot be evaluated (no geolocation data for the client address), so the rule does not apply',
      'rule "r": ip cannot be evaluated (the client address is unknown), so the rule does not apply',
    ]);
  });

  it('decides nothing in all or any unless the other parts decide whatever it would be', async () => {
    const f = () => facts('/a', { edge: null });
    expect(await test({ all: [{ path: { prefix: '/a' } }, { country: ['FR'] }] }, f())).toBe(UNKNOWN);
    expect(await test({ all: [{ path: { prefix: '/b' } }, { country: ['FR'] }] }, f())).toBe(FALSE);
    expect(await test({ any: [{ path: { prefix: '/a' } }, { country: ['FR'] }] }, f())).toBe(TRUE);
    expect(await test({ any: [{ path: { prefix: '/b' } }, { country: ['FR'] }] }, f())).toBe(UNKNOWN);
    expect(await test({ not: { any: [{ path: { prefix: '/b' } }, { country: ['FR'] }] } }, f())).toBe(UNKNOWN);
  });
});

describe('lookups', () => {
  it('are made only when a condition reaches them, and once per request', async () => {
    const e = fakeEdge({ acls: { staff: {} }, geo: {} });
    const f = facts('/public', { edge: e });
    const header = vi.spyOn(f, 'header');
    const ctx = new RuleContext(f);
    expect(
      await ctx.test(cond({ path: { prefix: '/admin' }, header: { name: 'x-staff' }, acl: 'staff', country: ['US'] })),
    ).toBe(FALSE);
    expect(header).not.toHaveBeenCalled();
    expect(e.calls).toEqual([]);
    expect(await ctx.test(cond({ any: [{ acl: 'staff' }, { acl: 'staff' }] }))).toBe(FALSE);
    expect(await ctx.test(cond({ acl: 'staff' }))).toBe(FALSE);
    expect(e.calls).toEqual(['acl staff 192.0.2.1']);
  });

  it('look up an ACL the service lacks once per parse, not once per request', async () => {
    const e = fakeEdge();
    const missing = new Set<string>();
    const c = cond({ acl: 'staff' });
    expect(await new RuleContext(facts('/', { edge: e }), missing).test(c)).toBe(UNKNOWN);
    expect(new RuleContext(facts('/', { edge: e }), missing).test(c)).toBe(UNKNOWN);
    expect(e.calls).toEqual(['acl staff 192.0.2.1']);
  });

  it('answer without a promise when no ACL is needed', () => {
    const ctx = new RuleContext(facts('/a', { edge }));
    expect(ctx.test(cond({ path: { prefix: '/a' } }))).toBe(TRUE);
  });
});
