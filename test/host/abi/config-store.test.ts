// fastly_config_store / fastly_dictionary: open by name, get by key, as a guest calls them.
import { describe, expect, it } from 'vitest';
import { configStore } from '../../../host/src/abi/config-store.js';
import { BADF, BUFLEN, INVAL, NONE, OK } from '../../../host/src/abi/status.js';
import { harness, OUTSIDE, snapshot } from './sandbox-fixture.js';

const stores = snapshot({ configStores: { settings: { colour: 'blue', empty: '', 'snow☃': 'white ☃' } } });

function opened() {
  const h = harness({ snapshot: stores });
  const [np, nl] = h.put('settings');
  const out = h.area(4);
  expect(h.call(configStore.open, np, nl, out)).toBe(OK);
  return { ...h, store: h.u32(out) };
}

describe('fastly_config_store', () => {
  it('opens a store of the manifest and answers BADF for one it lacks', () => {
    const h = opened();
    expect(h.store).toBeGreaterThan(0);
    const [np, nl] = h.put('nope');
    expect(h.call(configStore.open, np, nl, h.area(4))).toBe(BADF);
  });

  it('writes a value and its length; a missing key is NONE, an empty value is an empty answer', () => {
    const h = opened();
    const [kp, kl] = h.put('colour');
    const buf = h.area(64);
    const nw = h.area(4);
    expect(h.call(configStore.get, h.store, kp, kl, buf, 64, nw)).toBe(OK);
    expect(h.text(buf, h.u32(nw))).toBe('blue');
    const [mp, ml] = h.put('missing');
    expect(h.call(configStore.get, h.store, mp, ml, buf, 64, nw)).toBe(NONE);
    const [ep, el] = h.put('empty');
    expect(h.call(configStore.get, h.store, ep, el, buf, 64, nw)).toBe(OK);
    expect(h.u32(nw)).toBe(0);
  });

  it('reads keys and values as UTF-8 bytes', () => {
    const h = opened();
    const [kp, kl] = h.put('snow☃');
    const buf = h.area(64);
    const nw = h.area(4);
    expect(h.call(configStore.get, h.store, kp, kl, buf, 64, nw)).toBe(OK);
    expect(Buffer.from(h.text(buf, h.u32(nw)), 'latin1').toString('utf8')).toBe('white ☃');
  });

  it('answers BUFLEN with the length needed when the buffer is too small, so the guest can retry', () => {
    const h = opened();
    const [kp, kl] = h.put('colour');
    const nw = h.area(4);
    expect(h.call(configStore.get, h.store, kp, kl, h.area(8), 3, nw)).toBe(BUFLEN);
    expect(h.u32(nw)).toBe(4);
  });

  it('answers BADF for a handle that is not an open store, and INVAL for a pointer outside memory', () => {
    const h = opened();
    const [kp, kl] = h.put('colour');
    expect(h.call(configStore.get, 999, kp, kl, h.area(8), 8, h.area(4))).toBe(BADF);
    expect(h.call(configStore.get, h.store, OUTSIDE, 16, h.area(8), 8, h.area(4))).toBe(INVAL);
  });

  it('sees a reloaded manifest on the next call, through the same handle', () => {
    let current = stores;
    const h = harness({ snapshot: () => current });
    const [np, nl] = h.put('settings');
    const out = h.area(4);
    h.call(configStore.open, np, nl, out);
    current = snapshot({ configStores: { settings: { colour: 'green' } } });
    const [kp, kl] = h.put('colour');
    const buf = h.area(16);
    const nw = h.area(4);
    expect(h.call(configStore.get, h.u32(out), kp, kl, buf, 16, nw)).toBe(OK);
    expect(h.text(buf, h.u32(nw))).toBe('green');
  });
});
