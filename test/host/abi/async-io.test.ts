// fastly_async_io: waiting on pending sends and streamed bodies at once. What is ready in the worker
// is answered there; what the main thread holds is one select or ready RPC.
import { describe, expect, it } from 'vitest';
import { asyncIo } from '../../../host/src/abi/async-io.js';
import { BADF, INVAL, OK } from '../../../host/src/guest/status.js';
import { newBody } from '../../../host/src/guest/bodies.js';
import type { WaitResult } from '../../../host/src/protocol.js';
import { backendConfig, Guest, OUTSIDE } from './sandbox-fixture.js';

const NO_INDEX = 0xffff_ffff;
const ORIGIN = backendConfig('origin', 'http://127.0.0.1:8080/');
const DONE: WaitResult = { ok: false, tag: 'connection_refused', message: 'refused' };

/** Handles the host would hold: a send still pending in the main thread, one already answered, bodies. */
function handles(g: Guest) {
  return {
    pending: g.add({ kind: 'pending', upstreamId: 4, backend: ORIGIN }),
    answered: g.add({ kind: 'pending', upstreamId: 5, backend: ORIGIN, result: DONE }),
    streamed: g.add(newBody(9)),
    inWorker: g.add(newBody(null, [Buffer.from('here')])),
    partlyRead: g.add(newBody(9, [Buffer.from('first')])),
  };
}

function select(g: Guest, list: number[], timeoutMs: number): { status: number; index: number } {
  const { status, value } = g.callOut(asyncIo, 'select', g.u32s(list), list.length, timeoutMs);
  return { status, index: value };
}

describe('fastly_async_io.select', () => {
  it("waits in the main thread on the sends and streams listed, with the guest's timeout", () => {
    const g = new Guest({ answers: { select: () => 1 } });
    const h = handles(g);
    expect(select(g, [h.pending, h.streamed], 250)).toEqual({ status: OK, index: 1 });
    expect(g.io.calls).toEqual([
      {
        op: 'select',
        timeoutMs: 250,
        items: [
          { kind: 'pending', id: 4 },
          { kind: 'stream', id: 9 },
        ],
      },
    ]);
  });

  it('answers u32::MAX when the timeout passes first, as Viceroy does', () => {
    const g = new Guest({ answers: { select: () => -1 } });
    expect(select(g, [handles(g).pending], 10)).toEqual({ status: OK, index: NO_INDEX });
  });

  it('answers the first item that is ready in the worker at once, without an RPC', () => {
    const g = new Guest();
    const h = handles(g);
    expect(select(g, [h.pending, h.inWorker], 0)).toEqual({ status: OK, index: 1 });
    expect(select(g, [h.answered, h.pending], 0).index).toBe(0);
    expect(select(g, [h.pending, h.partlyRead], 0).index).toBe(1);
    expect(g.io.calls).toEqual([]);
  });

  it('answers u32::MAX at once for an empty list (Viceroy: INVAL without a timeout, else it waits)', () => {
    const g = new Guest();
    expect(select(g, [], 0)).toEqual({ status: OK, index: NO_INDEX });
    expect(select(g, [], 50)).toEqual({ status: OK, index: NO_INDEX });
    expect(g.io.calls).toEqual([]);
  });

  it('answers BADF for a listed handle that is not live, without an RPC', () => {
    const g = new Guest();
    expect(select(g, [handles(g).pending, 999], 0).status).toBe(BADF);
    expect(g.io.calls).toEqual([]);
  });

  it('answers INVAL for a list or out-slot outside guest memory', () => {
    const g = new Guest();
    expect(g.call(asyncIo, 'select', OUTSIDE, 2, 0, g.alloc(4))).toBe(INVAL);
    expect(g.call(asyncIo, 'select', g.u32s([handles(g).inWorker]), 1, 0, OUTSIDE)).toBe(INVAL);
  });
});

describe('fastly_async_io.is_ready', () => {
  it('asks the main thread about a pending send or a streamed body and writes its answer', () => {
    const replies = [true, false];
    const g = new Guest({ answers: { ready: () => replies.shift() } });
    const h = handles(g);
    expect(g.callOut(asyncIo, 'is_ready', h.pending)).toEqual({ status: OK, value: 1 });
    expect(g.callOut(asyncIo, 'is_ready', h.streamed)).toEqual({ status: OK, value: 0 });
    expect(g.io.calls).toEqual([
      { op: 'ready', item: { kind: 'pending', id: 4 } },
      { op: 'ready', item: { kind: 'stream', id: 9 } },
    ]);
  });

  it('is 1 without an RPC for what the worker already holds', () => {
    const g = new Guest();
    const h = handles(g);
    for (const handle of [h.answered, h.inWorker, h.partlyRead])
      expect(g.callOut(asyncIo, 'is_ready', handle).value).toBe(1);
    expect(g.io.calls).toEqual([]);
  });

  it('answers BADF for a handle that is not live', () => {
    expect(new Guest().callOut(asyncIo, 'is_ready', 12).status).toBe(BADF);
  });
});
