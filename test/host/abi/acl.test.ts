// fastly_acl: `[local_server.acls]` by name, the longest matching prefix answering as a JSON body.
import { describe, expect, it } from 'vitest';
import { acl } from '../../../host/src/abi/acl.js';
import { BADF, INVAL, INVALID_HANDLE, NONE, OK } from '../../../host/src/guest/status.js';
import type { AclEntry } from '../../../host/src/manifest/acls.js';
import { ipToBytes } from '../../../host/src/ip.js';
import { Guest, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

// acl_error values a lookup writes.
const ACL_OK = 1;
const ACL_NO_CONTENT = 2;

function entry(prefix: string, action: string): AclEntry {
  const [ip, bits] = prefix.split('/');
  return { network: ipToBytes(ip!)!, bits: Number(bits), prefix, action };
}

const BLOCKLIST = [
  entry('192.0.2.0/24', 'BLOCK'),
  entry('192.0.2.128/25', 'ALLOW'),
  entry('2001:db8::/32', 'BLOCK'),
  entry('0.0.0.0/0', 'LOG'),
];

function opened(): [Guest, number] {
  const g = new Guest({ manifest: { acls: { blocklist: BLOCKLIST, empty: [] } } });
  return [g, g.handle(acl, 'open', ...g.str('blocklist'))];
}

/** A lookup's status, the acl_error it wrote and the body's JSON (null without a body). */
function lookup(g: Guest, h: number, ip: number[]): { status: number; error: number; found: unknown } {
  const body = g.alloc(4);
  const error = g.alloc(4);
  const status = g.call(acl, 'lookup', h, ...g.bytes(ip), body, error);
  const handle = g.u32(body);
  const found = handle === INVALID_HANDLE || handle === UNTOUCHED ? null : JSON.parse(g.readBody(handle));
  return { status, error: g.u32(error), found };
}

describe('fastly_acl.open', () => {
  it('gives a handle for an ACL the manifest has, even an empty one', () => {
    const [g] = opened();
    expect(g.callOut(acl, 'open', ...g.str('empty')).status).toBe(OK);
  });

  it('answers NONE for an ACL the manifest lacks, as Viceroy does', () => {
    const [g] = opened();
    expect(g.callOut(acl, 'open', ...g.str('allowlist'))).toEqual({ status: NONE, value: UNTOUCHED });
  });

  it('answers NONE for an ACL named like an object property', () => {
    const [g] = opened();
    expect(g.callOut(acl, 'open', ...g.str('constructor')).status).toBe(NONE);
  });

  it('answers INVAL for a name outside guest memory', () => {
    const [g] = opened();
    expect(g.call(acl, 'open', OUTSIDE, 9, g.alloc(4))).toBe(INVAL);
  });
});

describe('fastly_acl.lookup', () => {
  it('answers the matching entry as a JSON body with acl_error ok', () => {
    const [g, h] = opened();
    expect(lookup(g, h, [192, 0, 2, 5])).toEqual({
      status: OK,
      error: ACL_OK,
      found: { action: 'BLOCK', prefix: '192.0.2.0/24' },
    });
  });

  it('lets the longest matching prefix win, whatever the order of entries', () => {
    const [g, h] = opened();
    expect(lookup(g, h, [192, 0, 2, 200]).found).toEqual({ action: 'ALLOW', prefix: '192.0.2.128/25' });
    expect(lookup(g, h, [198, 51, 100, 1]).found).toEqual({ action: 'LOG', prefix: '0.0.0.0/0' });
  });

  it('matches IPv6 addresses against IPv6 entries only', () => {
    const [g, h] = opened();
    expect(lookup(g, h, ipToBytes('2001:db8:1::9')!).found).toEqual({ action: 'BLOCK', prefix: '2001:db8::/32' });
    expect(lookup(g, h, ipToBytes('2001:db9::1')!)).toEqual({ status: OK, error: ACL_NO_CONTENT, found: null });
  });

  it('answers OK with acl_error no_content and no body when nothing matches', () => {
    const g = new Guest({ manifest: { acls: { empty: [] } } });
    const h = g.handle(acl, 'open', ...g.str('empty'));
    const body = g.alloc(4);
    const error = g.alloc(4);
    expect(g.call(acl, 'lookup', h, ...g.bytes([10, 0, 0, 1]), body, error)).toBe(OK);
    expect([g.u32(body), g.u32(error)]).toEqual([INVALID_HANDLE, ACL_NO_CONTENT]);
  });

  it('answers INVAL for an address that is neither 4 nor 16 bytes, as Viceroy does', () => {
    const [g, h] = opened();
    expect(lookup(g, h, [192, 0, 2]).status).toBe(INVAL);
  });

  it('answers BADF for a handle that is not an open ACL, before it looks at the address', () => {
    const [g] = opened();
    expect(lookup(g, 99, [192, 0, 2, 5]).status).toBe(BADF);
    expect(lookup(g, 99, [1]).status).toBe(BADF);
    expect(lookup(g, g.add({ kind: 'config', name: 'blocklist' }), [192, 0, 2, 5]).status).toBe(BADF);
  });

  it('answers INVAL for an address or out-slot outside guest memory', () => {
    const [g, h] = opened();
    expect(g.call(acl, 'lookup', h, OUTSIDE, 4, g.alloc(4), g.alloc(4))).toBe(INVAL);
    expect(g.call(acl, 'lookup', h, ...g.bytes([192, 0, 2, 5]), OUTSIDE, g.alloc(4))).toBe(INVAL);
  });
});
