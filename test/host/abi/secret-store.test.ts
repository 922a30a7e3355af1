// fastly_secret_store: the manifest's secret stores, secrets as handles, and secrets made from bytes.
import { describe, expect, it } from 'vitest';
import { secretStore } from '../../../host/src/abi/secret-store.js';
import { BADF, INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import { Guest, opened, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

const STORES = { manifest: { secretStores: { keys: { signing: 's3cr3t-ü', empty: '' } } } };
const guest = () => new Guest(STORES);
const store = () => opened(secretStore, 'keys', STORES);

describe('fastly_secret_store.open', () => {
  it('gives a handle for a store the manifest has', () => {
    const g = guest();
    expect(g.callOut(secretStore, 'open', ...g.str('keys')).status).toBe(OK);
  });

  it('answers NONE for a store the manifest lacks, as Viceroy does', () => {
    const g = guest();
    expect(g.callOut(secretStore, 'open', ...g.str('key'))).toEqual({ status: NONE, value: UNTOUCHED });
  });

  it('answers NONE for a store named like an object property', () => {
    const g = guest();
    for (const name of ['constructor', 'hasOwnProperty'])
      expect(g.callOut(secretStore, 'open', ...g.str(name)).status, name).toBe(NONE);
  });

  it('answers INVAL for a name outside guest memory', () => {
    expect(guest().call(secretStore, 'open', OUTSIDE, 4, 16)).toBe(INVAL);
  });
});

describe('fastly_secret_store.get and plaintext', () => {
  it('give a secret handle whose plaintext is the value as UTF-8', () => {
    const [g, s] = store();
    const secret = g.handle(secretStore, 'get', s, ...g.str('signing'));
    const out = g.buffer(64);
    expect(g.call(secretStore, 'plaintext', secret, ...out.args)).toBe(OK);
    expect(out.written()).toBe(9);
    expect(out.text()).toBe('s3cr3t-ü');
  });

  it('answer NONE for a secret the store lacks, as Viceroy does', () => {
    const [g, s] = store();
    expect(g.callOut(secretStore, 'get', s, ...g.str('absent'))).toEqual({ status: NONE, value: UNTOUCHED });
  });

  it('give an empty secret as 0 bytes', () => {
    const [g, s] = store();
    const out = g.buffer(4);
    expect(g.call(secretStore, 'plaintext', g.handle(secretStore, 'get', s, ...g.str('empty')), ...out.args)).toBe(OK);
    expect(out.written()).toBe(0);
  });

  it('answer BUFLEN with the size needed when the buffer is too small', () => {
    const [g, s] = store();
    const secret = g.handle(secretStore, 'get', s, ...g.str('signing'));
    g.fitsExactly(9, (out) => g.call(secretStore, 'plaintext', secret, ...out));
  });

  it('answer BADF for a handle of the wrong kind: a secret is not a store, a store is not a secret', () => {
    const [g, s] = store();
    const secret = g.handle(secretStore, 'get', s, ...g.str('signing'));
    expect(g.callOut(secretStore, 'get', secret, ...g.str('signing')).status).toBe(BADF);
    expect(g.call(secretStore, 'plaintext', s, ...g.buffer(64).args)).toBe(BADF);
    expect(g.call(secretStore, 'plaintext', 999, ...g.buffer(64).args)).toBe(BADF);
  });
});

describe('fastly_secret_store.from_bytes', () => {
  it('makes a secret of any bytes, copied at the call', () => {
    const g = guest();
    const [p, l] = g.bytes([0xff, 0x00, 0x41]);
    const secret = g.handle(secretStore, 'from_bytes', p, l);
    // The guest reuses that memory afterwards: the secret keeps what it was given.
    new Uint8Array(g.memory.buffer).fill(0, p, p + l);
    const out = g.buffer(8);
    expect(g.call(secretStore, 'plaintext', secret, ...out.args)).toBe(OK);
    expect([...out.bytes()]).toEqual([0xff, 0x00, 0x41]);
  });

  it('answers INVAL for bytes outside guest memory', () => {
    expect(guest().call(secretStore, 'from_bytes', OUTSIDE, 4, 16)).toBe(INVAL);
  });
});
