// fastly_kv_store: each operation is one call to the main thread's stores; its *_wait hands over
// the result: a body, metadata, a generation and the kv_error code.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { kvStore } from '../../../host/src/abi/kv-store.js';
import { BADF, BUFLEN, INVAL, INVALID_HANDLE, OK } from '../../../host/src/abi/status.js';
import type { KvResult, Rpc } from '../../../host/src/protocol.js';
import { harness } from './sandbox-fixture.js';

const KV_OK = 1;
const KV_NOT_FOUND = 3;
const KV_PRECONDITION_FAILED = 4;

function withStore(results: (rpc: Rpc) => KvResult) {
  const t = harness({ answer: (rpc) => (rpc.op === 'kv' && rpc.kv.kind === 'exists' ? { status: rpc.kv.store === 'carts' ? 'ok' : 'no_store' } : results(rpc)) });
  const [np, nl] = t.put('carts');
  const out = t.area(4);
  expect(t.call(kvStore.open, np, nl, out)).toBe(OK);
  return { ...t, store: t.u32(out) };
}

function readAll(t: ReturnType<typeof harness>, body: number): string {
  const buf = t.area(256);
  const nr = t.area(4);
  t.call(httpBody.read, body, buf, 256, nr);
  return t.text(buf, t.u32(nr));
}

describe('fastly_kv_store', () => {
  it('answers INVAL with an invalid handle for a store that does not exist, as Viceroy does', () => {
    const t = harness({ answer: () => ({ status: 'no_store' }) });
    const [np, nl] = t.put('nope');
    const out = t.area(4);
    expect(t.call(kvStore.open, np, nl, out)).toBe(INVAL);
    expect(t.u32(out)).toBe(INVALID_HANDLE);
  });

  it('looks a key up and hands over its value, metadata and 64-bit generation', () => {
    const t = withStore(() => ({ status: 'ok', value: new TextEncoder().encode('3 items'), metadata: '{"v":1}', generation: 0x1_0000_0002n }));
    const [kp, kl] = t.put('cart-1');
    const pending = t.area(4);
    expect(t.call(kvStore.lookup, t.store, kp, kl, 0, 0, pending)).toBe(OK);
    expect(t.line.calls.at(-1)).toEqual({ op: 'kv', kv: { kind: 'lookup', store: 'carts', key: 'cart-1' } });
    const [body, meta, nw, gen, err] = [t.area(4), t.area(64), t.area(4), t.area(8), t.area(4)];
    expect(t.call(kvStore.lookup_wait_v2, t.u32(pending), body, meta, 64, nw, gen, err)).toBe(OK);
    expect(t.u32(err)).toBe(KV_OK);
    expect(t.text(meta, t.u32(nw))).toBe('{"v":1}');
    expect(t.u64(gen)).toBe(0x1_0000_0002n);
    expect(readAll(t, t.u32(body))).toBe('3 items');
  });

  it('gives the 32-bit wait the low half of the generation', () => {
    const t = withStore(() => ({ status: 'ok', value: new Uint8Array([1]), generation: 0x1_0000_0002n }));
    const [kp, kl] = t.put('k');
    const pending = t.area(4);
    t.call(kvStore.lookup, t.store, kp, kl, 0, 0, pending);
    const gen = t.area(4);
    expect(t.call(kvStore.lookup_wait, t.u32(pending), t.area(4), t.area(8), 8, t.area(4), gen, t.area(4))).toBe(OK);
    expect(t.u32(gen)).toBe(2);
  });

  it('answers a missing key with not found and no body, and metadata too long for the buffer with BUFLEN', () => {
    let next: KvResult = { status: 'not_found' };
    const t = withStore(() => next);
    const [kp, kl] = t.put('k');
    const pending = t.area(4);
    t.call(kvStore.lookup, t.store, kp, kl, 0, 0, pending);
    const [body, err, nw] = [t.area(4), t.area(4), t.area(4)];
    expect(t.call(kvStore.lookup_wait_v2, t.u32(pending), body, t.area(8), 8, nw, t.area(8), err)).toBe(OK);
    expect([t.u32(err), t.u32(body)]).toEqual([KV_NOT_FOUND, INVALID_HANDLE]);
    next = { status: 'ok', value: new Uint8Array([1]), metadata: 'a long piece of metadata' };
    t.call(kvStore.lookup, t.store, kp, kl, 0, 0, pending);
    expect(t.call(kvStore.lookup_wait_v2, t.u32(pending), body, t.area(8), 4, nw, t.area(8), err)).toBe(BUFLEN);
    expect(t.u32(nw)).toBe(24);
  });

  it('inserts the whole body with the mode, metadata, TTL and generation the options name', () => {
    const t = withStore(() => ({ status: 'precondition_failed' }));
    const bodyOut = t.area(4);
    t.call(httpBody.new, bodyOut);
    const [vp, vl] = t.put('value bytes');
    t.call(httpBody.write, t.u32(bodyOut), vp, vl, 0, t.area(4));
    const [mp, ml] = t.put('meta');
    const opts = t.area(32);
    t.sb.mem.w32(opts, 2); // mode: append
    t.sb.mem.w32(opts + 8, mp);
    t.sb.mem.w32(opts + 12, ml);
    t.sb.mem.w32(opts + 16, 60);
    t.sb.mem.w64(opts + 24, 9n);
    const [kp, kl] = t.put('k');
    const pending = t.area(4);
    const mask = (1 << 3) | (1 << 4) | (1 << 5);
    expect(t.call(kvStore.insert, t.store, kp, kl, t.u32(bodyOut), mask, opts, pending)).toBe(OK);
    const sent = t.line.calls.at(-1);
    expect(sent).toMatchObject({ op: 'kv', kv: { kind: 'insert', store: 'carts', key: 'k', mode: 2, metadata: 'meta', ttlSec: 60, ifGenerationMatch: 9n } });
    expect(Buffer.from((sent as { kv: { value: Uint8Array } }).kv.value).toString()).toBe('value bytes');
    const err = t.area(4);
    expect(t.call(kvStore.insert_wait, t.u32(pending), err)).toBe(OK);
    expect(t.u32(err)).toBe(KV_PRECONDITION_FAILED);
  });

  it('lists with cursor, limit and prefix, and hands the listing over as a body', () => {
    const t = withStore(() => ({ status: 'ok', body: new TextEncoder().encode('{"data":["k"]}') }));
    const [cp, cl] = t.put('cur');
    const [pp, pl] = t.put('pre');
    const opts = t.area(24);
    t.sb.mem.w32(opts + 4, cp);
    t.sb.mem.w32(opts + 8, cl);
    t.sb.mem.w32(opts + 12, 10);
    t.sb.mem.w32(opts + 16, pp);
    t.sb.mem.w32(opts + 20, pl);
    const pending = t.area(4);
    expect(t.call(kvStore.list, t.store, (1 << 1) | (1 << 2) | (1 << 3), opts, pending)).toBe(OK);
    expect(t.line.calls.at(-1)).toEqual({ op: 'kv', kv: { kind: 'list', store: 'carts', cursor: 'cur', limit: 10, prefix: 'pre' } });
    const [body, err] = [t.area(4), t.area(4)];
    expect(t.call(kvStore.list_wait, t.u32(pending), body, err)).toBe(OK);
    expect(readAll(t, t.u32(body))).toBe('{"data":["k"]}');
  });

  it('spends a pending handle on its wait: a second wait is BADF', () => {
    const t = withStore(() => ({ status: 'ok' }));
    const [kp, kl] = t.put('k');
    const pending = t.area(4);
    t.call(kvStore.delete, t.store, kp, kl, 0, 0, pending);
    expect(t.line.calls.at(-1)).toEqual({ op: 'kv', kv: { kind: 'delete', store: 'carts', key: 'k' } });
    expect(t.call(kvStore.delete_wait, t.u32(pending), t.area(4))).toBe(OK);
    expect(t.call(kvStore.delete_wait, t.u32(pending), t.area(4))).toBe(BADF);
  });
});
