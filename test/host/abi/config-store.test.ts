// fastly_config_store (and fastly_dictionary, the same table): opening the manifest's config stores
// and reading their values, as a guest sees it through the statuses and its memory.
import { describe, expect, it } from 'vitest';
import { configStore } from '../../../host/src/abi/config-store.js';
import { BADF, INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import { Guest, opened, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

const STORES = { manifest: { configStores: { settings: { greeting: 'héllo', empty: '' }, other: {} } } };
const guest = () => new Guest(STORES);
const settings = () => opened(configStore, 'settings', STORES);

describe('fastly_config_store.open', () => {
  it('gives a handle for a store the manifest has', () => {
    const g = guest();
    const { status, value } = g.callOut(configStore, 'open', ...g.str('settings'));
    expect(status).toBe(OK);
    expect(value).not.toBe(UNTOUCHED);
    expect(value).not.toBe(g.handle(configStore, 'open', ...g.str('other')));
  });

  it('answers BADF for a store the manifest lacks, as Viceroy does, and writes no handle', () => {
    const g = guest();
    expect(g.callOut(configStore, 'open', ...g.str('setting'))).toEqual({ status: BADF, value: UNTOUCHED });
  });

  it('answers BADF for a store named like an object property (constructor, toString)', () => {
    const g = guest();
    for (const name of ['constructor', 'toString', '__proto__']) expect(g.callOut(configStore, 'open', ...g.str(name)).status, name).toBe(BADF);
  });

  it('is the same call under fastly_dictionary, as Viceroy reads dictionaries as config stores', () => {
    const g = guest();
    const out = g.alloc(4);
    expect(g.imported('fastly_dictionary', 'open')(...g.str('settings'), out)).toBe(OK);
    const value = g.buffer(16);
    expect(g.imported('fastly_dictionary', 'get')(g.u32(out), ...g.str('greeting'), ...value.args)).toBe(OK);
    expect(value.text()).toBe('héllo');
  });

  it('answers INVAL for a name outside guest memory', () => {
    const g = guest();
    expect(g.call(configStore, 'open', OUTSIDE, 8, g.alloc(4))).toBe(INVAL);
  });
});

describe('fastly_config_store.get', () => {
  it('writes the value as UTF-8 bytes and their count', () => {
    const [g, h] = settings();
    const out = g.buffer(32);
    expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...out.args)).toBe(OK);
    expect(out.written()).toBe(6);
    expect(out.text()).toBe('héllo');
  });

  it('tells an empty value (OK, 0 bytes) from a missing key (NONE)', () => {
    const [g, h] = settings();
    const out = g.buffer(8);
    expect(g.call(configStore, 'get', h, ...g.str('empty'), ...out.args)).toBe(OK);
    expect(out.written()).toBe(0);
    expect(g.call(configStore, 'get', h, ...g.str('absent'), ...out.args)).toBe(NONE);
  });

  it('answers NONE for a key named like an object property', () => {
    const [g, h] = settings();
    expect(g.call(configStore, 'get', h, ...g.str('constructor'), ...g.buffer(64).args)).toBe(NONE);
  });

  it('answers BUFLEN with the size needed when the buffer is too small, and leaves the buffer alone', () => {
    const [g, h] = settings();
    g.fitsExactly(6, (out) => g.call(configStore, 'get', h, ...g.str('greeting'), ...out));
  });

  it('answers BADF for a handle that is not an open config store', () => {
    const [g, h] = settings();
    const acl = g.add({ kind: 'acl', name: 'settings' });
    expect(g.call(configStore, 'get', h + 100, ...g.str('greeting'), ...g.buffer(8).args)).toBe(BADF);
    expect(g.call(configStore, 'get', acl, ...g.str('greeting'), ...g.buffer(8).args)).toBe(BADF);
  });

  it('answers INVAL for a key, buffer or nwritten slot outside guest memory', () => {
    const [g, h] = settings();
    const out = g.buffer(32);
    expect(g.call(configStore, 'get', h, OUTSIDE, 3, ...out.args)).toBe(INVAL);
    expect(g.call(configStore, 'get', h, ...g.str('greeting'), OUTSIDE, 32, out.nw)).toBe(INVAL);
    expect(g.call(configStore, 'get', h, ...g.str('greeting'), out.buf, 32, OUTSIDE)).toBe(INVAL);
  });
});
