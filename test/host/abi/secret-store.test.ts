// fastly_secret_store: a store opened by name, a secret by key as a handle, its bytes on request.
import { describe, expect, it } from 'vitest';
import { secretStore } from '../../../host/src/abi/secret-store.js';
import { BADF, BUFLEN, NONE, OK } from '../../../host/src/abi/status.js';
import { harness, snapshot } from './sandbox-fixture.js';

function opened() {
  const h = harness({ snapshot: snapshot({ secretStores: { keys: { k1: 's3cret' } } }) });
  const [np, nl] = h.put('keys');
  const out = h.area(4);
  expect(h.call(secretStore.open, np, nl, out)).toBe(OK);
  return { ...h, store: h.u32(out) };
}

describe('fastly_secret_store', () => {
  it('answers NONE for a store the manifest lacks', () => {
    const h = harness();
    const [np, nl] = h.put('keys');
    expect(h.call(secretStore.open, np, nl, h.area(4))).toBe(NONE);
  });

  it('hands a secret as a handle whose plaintext is its bytes; a missing key is NONE', () => {
    const h = opened();
    const [kp, kl] = h.put('k1');
    const secret = h.area(4);
    expect(h.call(secretStore.get, h.store, kp, kl, secret)).toBe(OK);
    const buf = h.area(32);
    const nw = h.area(4);
    expect(h.call(secretStore.plaintext, h.u32(secret), buf, 32, nw)).toBe(OK);
    expect(h.text(buf, h.u32(nw))).toBe('s3cret');
    const [mp, ml] = h.put('k2');
    expect(h.call(secretStore.get, h.store, mp, ml, h.area(4))).toBe(NONE);
  });

  it('answers BUFLEN with the length needed, and BADF for a handle that is not a secret', () => {
    const h = opened();
    const [kp, kl] = h.put('k1');
    const secret = h.area(4);
    h.call(secretStore.get, h.store, kp, kl, secret);
    const nw = h.area(4);
    expect(h.call(secretStore.plaintext, h.u32(secret), h.area(8), 2, nw)).toBe(BUFLEN);
    expect(h.u32(nw)).toBe(6);
    expect(h.call(secretStore.plaintext, h.store, h.area(8), 8, nw)).toBe(BADF);
  });

  it('makes a secret from bytes the guest holds (from_bytes), a copy it can no longer change', () => {
    const h = opened();
    const [p, l] = h.put('made here');
    const out = h.area(4);
    expect(h.call(secretStore.from_bytes, p, l, out)).toBe(OK);
    // The guest reuses its buffer afterwards.
    h.sb.mem.set(new TextEncoder().encode('XXXX'), p);
    const buf = h.area(32);
    const nw = h.area(4);
    h.call(secretStore.plaintext, h.u32(out), buf, 32, nw);
    expect(h.text(buf, h.u32(nw))).toBe('made here');
  });
});
