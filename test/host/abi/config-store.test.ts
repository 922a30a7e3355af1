// fastly_config_store (and fastly_dictionary, the same table): opening the manifest's config stores
// and reading their values, as a guest sees it through the statuses and its memory, at most 32 a request.
import { describe, expect, it } from 'vitest';
import { configStore } from '../../../host/src/abi/config-store.js';
import { BADF, BUFLEN, INVAL, LIMITEXCEEDED, NONE, OK } from '../../../host/src/guest/status.js';
import { downstreamRequest, Guest, opened, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

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
    for (const name of ['constructor', 'toString', '__proto__'])
      expect(g.callOut(configStore, 'open', ...g.str(name)).status, name).toBe(BADF);
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

describe("Fastly's 32 lookups per execution", () => {
  it('answers the first 32 gets of a request, found or not, and LIMITEXCEEDED from the 33rd, writing nothing', () => {
    const [g, h] = settings();
    for (let i = 0; i < 16; i++) {
      expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...g.buffer(16).args)).toBe(OK);
      expect(g.call(configStore, 'get', h, ...g.str('absent'), ...g.buffer(16).args)).toBe(NONE);
    }
    const out = g.buffer(16);
    expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...out.args)).toBe(LIMITEXCEEDED);
    expect(out.written()).toBe(UNTOUCHED);
    expect(g.imported('fastly_dictionary', 'get')(h, ...g.str('greeting'), ...g.buffer(16).args)).toBe(LIMITEXCEEDED);
    expect(g.limitReports).toEqual([
      'compute-host: GET /: limit: the 33rd Config Store lookup of this request failed (Fastly allows 32 per execution)',
    ]);
  });

  it('counts a get answered BUFLEN and retried with a bigger buffer once', () => {
    const [g, h] = settings();
    for (let i = 0; i < 32; i++) {
      expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...g.buffer(2).args)).toBe(BUFLEN);
      expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...g.buffer(16).args)).toBe(OK);
    }
    expect(g.sb.current?.execution.configLookups).toBe(32);
  });

  it('starts again at 0 with the next request of a reused sandbox', () => {
    const [g, h] = settings();
    for (let i = 0; i < 32; i++) g.call(configStore, 'get', h, ...g.str('greeting'), ...g.buffer(16).args);
    g.sb.current!.responded = true;
    g.sb.end();
    g.sb.begin(downstreamRequest({ rid: 2 }));
    expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...g.buffer(16).args)).toBe(OK);
    expect(g.sb.current?.execution.configLookups).toBe(1);
  });

  it('lets the 33rd through with COMPUTE_HOST_LIMITS=off, and says so', () => {
    const [g, h] = opened(configStore, 'settings', { ...STORES, enforceLimits: false });
    for (let i = 0; i < 40; i++)
      expect(g.call(configStore, 'get', h, ...g.str('greeting'), ...g.buffer(16).args)).toBe(OK);
    expect(g.limitReports).toEqual([
      'compute-host: GET /: limit: the 33rd Config Store lookup of this request was let through (Fastly allows 32 per execution); not enforced (COMPUTE_HOST_LIMITS=off)',
    ]);
  });
});
