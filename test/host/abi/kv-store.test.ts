// fastly_kv_store: each call is one RPC to the main thread's stores, answered at once; the *_wait
// calls hand the guest that answer through its error slot, body handle and metadata buffer.
import { describe, expect, it } from 'vitest';
import { kvStore } from '../../../host/src/abi/kv-store.js';
import { BADF, BUFLEN, INVAL, INVALID_HANDLE, OK } from '../../../host/src/guest/status.js';
import { newBody } from '../../../host/src/guest/bodies.js';
import type { KvOp, KvResult } from '../../../host/src/protocol.js';
import { Guest, inTurn, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

// kv_error values.
const KV_OK = 1;
const KV_BAD_REQUEST = 2;
const KV_NOT_FOUND = 3;
const KV_PRECONDITION_FAILED = 4;

/** A guest whose main thread has store "pages" and answers each other KV operation with `reply`. */
function guest(reply: (op: KvOp) => KvResult = () => ({ status: 'ok' })): Guest {
  return new Guest({
    answers: {
      kv: ({ kv }) => (kv.kind === 'exists' ? { status: kv.store === 'pages' ? 'ok' : 'no_store' } : reply(kv)),
    },
  });
}

function opened(reply?: (op: KvOp) => KvResult): [Guest, number] {
  const g = guest(reply);
  return [g, g.handle(kvStore, 'open', ...g.str('pages'))];
}

/** The KV operations the guest sent, past its open. */
const ops = (g: Guest) => g.io.calls.flatMap((c) => (c.op === 'kv' && c.kv.kind !== 'exists' ? [c.kv] : []));

/** lookup_wait(_v2) on a lookup of `key`: status, kv_error, body text, metadata, nwritten, generation slot. */
function lookupWait(g: Guest, store: number, key: string, call = 'lookup_wait', metaMax = 32) {
  const pending = g.handle(kvStore, 'lookup', store, ...g.str(key), 0, 0);
  const [body, meta, nw, gen, err] = [g.alloc(4), g.alloc(metaMax), g.alloc(4), g.alloc(8), g.alloc(4)];
  const status = g.call(kvStore, call, pending, body, meta, metaMax, nw, gen, err);
  const handle = g.u32(body);
  return {
    status,
    error: g.u32(err),
    value: handle === INVALID_HANDLE || handle === UNTOUCHED ? null : g.readBody(handle),
    metadata: Buffer.from(g.read(meta, Math.min(g.u32(nw), metaMax))).toString(),
    nwritten: g.u32(nw),
    gen,
    pending,
  };
}

describe('fastly_kv_store.open', () => {
  it('asks the main thread whether the store exists and gives a handle', () => {
    const g = guest();
    expect(g.callOut(kvStore, 'open', ...g.str('pages')).status).toBe(OK);
    expect(g.io.calls).toEqual([{ op: 'kv', kv: { kind: 'exists', store: 'pages' } }]);
  });

  it('answers INVAL for a store that does not exist, as Viceroy does, with an invalid handle', () => {
    const g = guest();
    expect(g.callOut(kvStore, 'open', ...g.str('page'))).toEqual({ status: INVAL, value: INVALID_HANDLE });
  });

  it('answers INVAL for a name outside guest memory, without an RPC', () => {
    const g = guest();
    expect(g.call(kvStore, 'open', OUTSIDE, 5, g.alloc(4))).toBe(INVAL);
    expect(g.io.calls).toEqual([]);
  });
});

describe('lookup', () => {
  const found: KvResult = { status: 'ok', value: Buffer.from('<html>'), metadata: 'v=2', generation: 0x1_0000_0007n };

  it('sends the key at lookup; the wait gives the value as a body, its metadata and generation', () => {
    const [g, store] = opened(() => found);
    const r = lookupWait(g, store, 'deny.html');
    expect(ops(g)).toEqual([{ kind: 'lookup', store: 'pages', key: 'deny.html' }]);
    expect(r).toMatchObject({ status: OK, error: KV_OK, value: '<html>', metadata: 'v=2', nwritten: 3 });
    expect(g.u32(r.gen)).toBe(7);
  });

  it('lookup_wait_v2 writes the whole 64-bit generation', () => {
    const [g, store] = opened(() => found);
    expect(g.u64(lookupWait(g, store, 'k', 'lookup_wait_v2').gen)).toBe(0x1_0000_0007n);
  });

  it('answers a missing key with kv_error not_found and no body, status OK', () => {
    const [g, store] = opened(() => ({ status: 'not_found' }));
    expect(lookupWait(g, store, 'nope')).toMatchObject({ status: OK, error: KV_NOT_FOUND, value: null, nwritten: 0 });
  });

  it('writes 0 metadata bytes for a value without metadata', () => {
    const [g, store] = opened(() => ({ status: 'ok', value: Buffer.from('v') }));
    expect(lookupWait(g, store, 'k')).toMatchObject({ error: KV_OK, value: 'v', nwritten: 0 });
  });

  it('answers BUFLEN with the metadata size when it does not fit', () => {
    const [g, store] = opened(() => ({ ...found, metadata: 'x'.repeat(40) }));
    expect(lookupWait(g, store, 'k', 'lookup_wait', 16)).toMatchObject({ status: BUFLEN, value: null, nwritten: 40 });
  });

  it('spends the pending handle: a second wait is BADF', () => {
    const [g, store] = opened(() => found);
    const { pending } = lookupWait(g, store, 'k');
    expect(g.call(kvStore, 'lookup_wait', pending, ...[1, 2, 3, 4, 5, 6].map(() => g.alloc(8)))).toBe(BADF);
  });

  it('answers BADF for a handle that is not an open store, without an RPC', () => {
    const g = guest();
    expect(g.callOut(kvStore, 'lookup', 42, ...g.str('k'), 0, 0).status).toBe(BADF);
    expect(g.io.calls).toEqual([]);
  });
});

describe('insert', () => {
  /** An insert config: mode, metadata, ttl and if_generation_match at their offsets. */
  function insertConfig(g: Guest, mode: number, metadata: string, ttl: number, generation: bigint): number {
    const [mp, ml] = g.str(metadata);
    return g.record(32, { 0: mode, 8: mp, 12: ml, 16: ttl, 24: generation });
  }

  it('sends the body and the options its mask names, and spends the body handle', () => {
    const [g, store] = opened();
    const body = g.add(newBody(null, [Buffer.from('value')]));
    const cfg = insertConfig(g, 2, 'meta', 60, 9n);
    const pending = g.handle(kvStore, 'insert', store, ...g.str('k'), body, (1 << 3) | (1 << 4) | (1 << 5), cfg);
    expect(ops(g)).toEqual([
      {
        kind: 'insert',
        store: 'pages',
        key: 'k',
        value: Buffer.from('value'),
        mode: 2,
        metadata: 'meta',
        ttlSec: 60,
        ifGenerationMatch: 9n,
      },
    ]);
    expect(g.callOut(kvStore, 'insert_wait', pending)).toEqual({ status: OK, value: KV_OK });
    expect(g.call(kvStore, 'insert', store, ...g.str('k'), body, 0, 0, g.alloc(4))).toBe(BADF);
  });

  it('reads only the mode without mask bits, and nothing without a config', () => {
    const [g, store] = opened();
    g.handle(kvStore, 'insert', store, ...g.str('a'), g.add(newBody()), 0, insertConfig(g, 1, 'm', 5, 5n));
    g.handle(kvStore, 'insert', store, ...g.str('b'), g.add(newBody()), 1 << 3, 0);
    expect(ops(g)).toEqual([
      { kind: 'insert', store: 'pages', key: 'a', value: Buffer.alloc(0), mode: 1 },
      { kind: 'insert', store: 'pages', key: 'b', value: Buffer.alloc(0), mode: 0 },
    ]);
  });

  it('reads a streamed body to its end before it sends the insert', () => {
    const [g, store] = opened();
    g.io.answers.read = inTurn({ data: Buffer.from('streamed') }, { data: null });
    g.handle(kvStore, 'insert', store, ...g.str('k'), g.add(newBody(9)), 0, 0);
    expect(g.io.calls.map((c) => c.op)).toEqual(['kv', 'read', 'read', 'kv']);
    expect(ops(g)[0]).toMatchObject({ kind: 'insert', value: Buffer.from('streamed') });
  });

  it.each([
    ['precondition_failed', KV_PRECONDITION_FAILED],
    ['bad_request', KV_BAD_REQUEST],
    ['no_store', KV_BAD_REQUEST],
  ] as const)('writes a %s answer to the error slot as kv_error %i', (answer, error) => {
    const [g, store] = opened(() => ({ status: answer }));
    const pending = g.handle(kvStore, 'insert', store, ...g.str('k'), g.add(newBody()), 0, 0);
    expect(g.callOut(kvStore, 'insert_wait', pending)).toEqual({ status: OK, value: error });
  });
});

describe('delete and list', () => {
  it('delete sends the key; delete_wait writes the answer', () => {
    const [g, store] = opened(() => ({ status: 'not_found' }));
    const pending = g.handle(kvStore, 'delete', store, ...g.str('gone'), 0, 0);
    expect(g.callOut(kvStore, 'delete_wait', pending)).toEqual({ status: OK, value: KV_NOT_FOUND });
    expect(ops(g)).toEqual([{ kind: 'delete', store: 'pages', key: 'gone' }]);
  });

  it('list sends cursor, limit and prefix as its mask names them; list_wait gives the listing as a body', () => {
    const [g, store] = opened(() => ({ status: 'ok', body: Buffer.from('{"data":["a"]}') }));
    const [cp, cl] = g.str('c1');
    const [pp, pl] = g.str('pre/');
    const cfg = g.record(24, { 4: cp, 8: cl, 12: 10, 16: pp, 20: pl });
    const pending = g.handle(kvStore, 'list', store, (1 << 1) | (1 << 2) | (1 << 3), cfg);
    g.handle(kvStore, 'list', store, 1 << 2, 0);
    expect(ops(g)).toEqual([
      { kind: 'list', store: 'pages', cursor: 'c1', limit: 10, prefix: 'pre/' },
      { kind: 'list', store: 'pages' },
    ]);
    const [body, err] = [g.alloc(4), g.alloc(4)];
    expect(g.call(kvStore, 'list_wait', pending, body, err)).toBe(OK);
    expect([g.readBody(g.u32(body)), g.u32(err)]).toEqual(['{"data":["a"]}', KV_OK]);
  });

  it('list_wait writes no body for a failed listing', () => {
    const [g, store] = opened(() => ({ status: 'bad_request' }));
    const pending = g.handle(kvStore, 'list', store, 0, 0);
    const [body, err] = [g.alloc(4), g.alloc(4)];
    expect(g.call(kvStore, 'list_wait', pending, body, err)).toBe(OK);
    expect([g.u32(body), g.u32(err)]).toEqual([INVALID_HANDLE, KV_BAD_REQUEST]);
  });
});
