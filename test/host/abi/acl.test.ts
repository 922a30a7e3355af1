// fastly_acl: open by name; a lookup answers the longest matching prefix as JSON, or no content.
import { describe, expect, it } from 'vitest';
import { acl } from '../../../host/src/abi/acl.js';
import { BADF, INVAL, NONE, OK, INVALID_HANDLE } from '../../../host/src/abi/status.js';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { harness, snapshot } from './sandbox-fixture.js';

const ACL_OK = 1;
const ACL_NO_CONTENT = 2;

const entries = [
  { network: [10, 0, 0, 0], bits: 8, prefix: '10.0.0.0/8', action: 'ALLOW' },
  { network: [10, 1, 0, 0], bits: 16, prefix: '10.1.0.0/16', action: 'BLOCK' },
  { network: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], bits: 32, prefix: '2001:db8::/32', action: 'BLOCK' },
];

function opened() {
  const h = harness({ snapshot: snapshot({ acls: { office: entries } }) });
  const [np, nl] = h.put('office');
  const out = h.area(4);
  expect(h.call(acl.open, np, nl, out)).toBe(OK);
  return { ...h, handle: h.u32(out) };
}

function lookup(t: ReturnType<typeof opened>, ip: number[]): { status: number; error: number; match: unknown } {
  const [ip_, il] = t.put(Uint8Array.from(ip));
  const body = t.area(4);
  const err = t.area(4);
  const status = t.call(acl.lookup, t.handle, ip_, il, body, err);
  let match: unknown = null;
  if (status === OK && t.u32(body) !== INVALID_HANDLE) {
    const buf = t.area(256);
    const nr = t.area(4);
    t.call(httpBody.read, t.u32(body), buf, 256, nr);
    match = JSON.parse(t.text(buf, t.u32(nr)));
  }
  return { status, error: t.u32(err), match };
}

describe('fastly_acl', () => {
  it('answers NONE for an ACL the manifest lacks', () => {
    const h = harness();
    const [np, nl] = h.put('office');
    expect(h.call(acl.open, np, nl, h.area(4))).toBe(NONE);
  });

  it('answers the longest matching prefix, IPv4 and IPv6', () => {
    const t = opened();
    expect(lookup(t, [10, 1, 2, 3])).toEqual({ status: OK, error: ACL_OK, match: { action: 'BLOCK', prefix: '10.1.0.0/16' } });
    expect(lookup(t, [10, 9, 2, 3]).match).toEqual({ action: 'ALLOW', prefix: '10.0.0.0/8' });
    expect(lookup(t, [0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).match).toEqual({ action: 'BLOCK', prefix: '2001:db8::/32' });
  });

  it('answers no content (and an invalid body handle) when nothing matches', () => {
    expect(lookup(opened(), [192, 0, 2, 1])).toEqual({ status: OK, error: ACL_NO_CONTENT, match: null });
  });

  it('answers INVAL for an address of the wrong size, BADF for a handle that is not an ACL', () => {
    const t = opened();
    expect(lookup(t, [10, 1, 2]).status).toBe(INVAL);
    const [ip, il] = t.put(Uint8Array.from([10, 1, 2, 3]));
    expect(t.call(acl.lookup, 999, ip, il, t.area(4), t.area(4))).toBe(BADF);
  });
});
