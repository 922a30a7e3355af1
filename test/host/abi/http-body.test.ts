// fastly_http_body: bodies the guest builds, bodies streamed from the main thread (read by RPC),
// and streaming bodies whose writes are posted as they happen.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { BADF, ERROR, INVAL, NONE, OK, UNSUPPORTED } from '../../../host/src/guest/status.js';
import { newBody } from '../../../host/src/guest/bodies.js';
import type { Sink } from '../../../host/src/guest/handles.js';
import { type Answers, Guest, inTurn, OUTSIDE } from './sandbox-fixture.js';

const BACK = 0;
const FRONT = 1;
const data = (text: string) => ({ data: Buffer.from(text) });
/** Bytes as a write copies them out of guest memory. */
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

function write(g: Guest, h: number, text: string, end = BACK): { status: number; written: number } {
  const nw = g.alloc(4);
  const status = g.call(httpBody, 'write', h, ...g.str(text), end, nw);
  return { status, written: g.u32(nw) };
}

function knownLength(g: Guest, h: number): { status: number; length: bigint } {
  const out = g.alloc(8);
  const status = g.call(httpBody, 'known_length', h, out);
  return { status, length: g.u64(out) };
}

/** A guest whose main thread answers reads of stream 9 (and others) in turn. */
const streaming = (...reads: unknown[]) => new Guest({ answers: { read: inTurn(...reads) } satisfies Answers });

describe('a body the guest builds', () => {
  it('reads back what was written, front writes first, and reports each write whole', () => {
    const g = new Guest();
    const h = g.handle(httpBody, 'new');
    expect(write(g, h, 'world')).toEqual({ status: OK, written: 5 });
    expect(write(g, h, '!')).toEqual({ status: OK, written: 1 });
    expect(write(g, h, 'hello ', FRONT)).toEqual({ status: OK, written: 6 });
    expect(knownLength(g, h)).toEqual({ status: OK, length: 12n });
    expect(g.readBody(h)).toBe('hello world!');
  });

  it('splits a chunk over reads smaller than it, then reads 0 bytes at the end, again and again', () => {
    const g = new Guest();
    const h = g.handle(httpBody, 'new');
    write(g, h, 'abcdefg');
    const out = g.buffer(3);
    const reads: string[] = [];
    for (let i = 0; i < 5; i++) {
      expect(g.call(httpBody, 'read', h, ...out.args)).toBe(OK);
      reads.push(out.text());
    }
    expect(reads).toEqual(['abc', 'def', 'g', '', '']);
  });

  it('is empty when new: known length 0, reads 0 bytes', () => {
    const g = new Guest();
    const h = g.handle(httpBody, 'new');
    expect(knownLength(g, h)).toEqual({ status: OK, length: 0n });
    expect(g.readBody(h)).toBe('');
  });
});

describe('a body streamed from the main thread', () => {
  it('is read by one RPC per read, with the guest buffer size, until the stream ends', () => {
    const g = streaming(data('chunk one'), { data: null });
    const h = g.add(newBody(9));
    expect(g.readBody(h, 64)).toBe('chunk one');
    expect(g.io.calls).toEqual([
      { op: 'read', stream: 9, max: 64 },
      { op: 'read', stream: 9, max: 64 },
    ]);
    expect(g.readBody(h)).toBe('');
    expect(g.io.calls).toHaveLength(2);
  });

  it('answers ERROR when the stream fails, and reads as ended after', () => {
    const g = streaming({ error: 'backend reset' });
    const h = g.add(newBody(9));
    expect(g.call(httpBody, 'read', h, ...g.buffer(8).args)).toBe(ERROR);
    expect(g.readBody(h)).toBe('');
    expect(g.io.calls).toHaveLength(1);
  });

  it('gives what the guest wrote at its front before the stream', () => {
    const g = streaming(data('stream'), { data: null });
    const h = g.add(newBody(9));
    write(g, h, 'front:', FRONT);
    expect(g.readBody(h)).toBe('front:stream');
  });

  it('has no known length, as Viceroy for a body of unknown length', () => {
    const g = new Guest();
    expect(knownLength(g, g.add(newBody(9))).status).toBe(NONE);
  });
});

describe('fastly_http_body.append', () => {
  it("puts the source after the destination's bytes and spends the source handle", () => {
    const g = new Guest();
    const dst = g.add(newBody(null, [Buffer.from('a')]));
    const src = g.add(newBody(null, [Buffer.from('b'), Buffer.from('c')]));
    expect(g.call(httpBody, 'append', dst, src)).toBe(OK);
    expect(g.readBody(dst)).toBe('abc');
    expect(g.call(httpBody, 'read', src, ...g.buffer(4).args)).toBe(BADF);
  });

  it('moves a streamed source behind the destination without reading it yet', () => {
    const g = streaming(data('streamed'), { data: null });
    const dst = g.add(newBody(null, [Buffer.from('head:')]));
    expect(g.call(httpBody, 'append', dst, g.add(newBody(9)))).toBe(OK);
    expect(g.io.calls).toEqual([]);
    expect(g.readBody(dst)).toBe('head:streamed');
  });

  it('reads both streams now when the destination is streamed too, keeping their order', () => {
    const one = inTurn(data('one'), { data: null });
    const two = inTurn(data('two'), { data: null });
    const g = new Guest({ answers: { read: (rpc) => (rpc.stream === 1 ? one() : two()) } });
    const dst = g.add(newBody(1));
    expect(g.call(httpBody, 'append', dst, g.add(newBody(2)))).toBe(OK);
    expect(g.io.calls).toHaveLength(4);
    expect(g.readBody(dst)).toBe('onetwo');
  });

  it("into a client response being streamed: pipes a whole stream there, or posts the source's bytes", () => {
    const g = streaming();
    const sink = g.add({ kind: 'body', chunks: [], remote: null, sink: { type: 'down', rid: 1 } });
    expect(g.call(httpBody, 'append', sink, g.add(newBody(9)))).toBe(OK);
    expect(g.call(httpBody, 'append', sink, g.add(newBody(null, [Buffer.from('tail')])))).toBe(OK);
    expect(g.io.posts).toEqual([
      { op: 'pipe', rid: 1, stream: 9 },
      { op: 'chunk', rid: 1, data: Buffer.from('tail') },
    ]);
  });

  it('answers BADF for a destination or source that is not a body', () => {
    const g = new Guest();
    const body = g.handle(httpBody, 'new');
    expect(g.call(httpBody, 'append', 77, body)).toBe(BADF);
    expect(g.call(httpBody, 'append', body, 77)).toBe(BADF);
  });
});

describe('a streaming body', () => {
  const sinks: Array<[string, Sink, (text: string) => unknown, unknown]> = [
    [
      'a client response',
      { type: 'down', rid: 1 },
      (t) => ({ op: 'chunk', rid: 1, data: bytes(t) }),
      { op: 'end', rid: 1 },
    ],
    [
      'a backend request',
      { type: 'up', upstreamId: 3 },
      (t) => ({ op: 'upChunk', upstreamId: 3, data: bytes(t) }),
      { op: 'upEnd', upstreamId: 3 },
    ],
  ];

  it.each(sinks)('to %s posts each write as it happens, and its end on close', (_to, sink, chunk, end) => {
    const g = new Guest();
    const h = g.add({ kind: 'body', chunks: [], remote: null, sink });
    expect(write(g, h, 'part 1')).toEqual({ status: OK, written: 6 });
    expect(write(g, h, '')).toEqual({ status: OK, written: 0 });
    expect(knownLength(g, h).status).toBe(NONE);
    expect(g.call(httpBody, 'close', h)).toBe(OK);
    expect(g.io.posts).toEqual([chunk('part 1'), end]);
    expect(g.call(httpBody, 'close', h)).toBe(BADF);
  });

  it('is ended by abandon too (Viceroy drops it unfinished, so its reader sees a cut body)', () => {
    const g = new Guest();
    const h = g.add({ kind: 'body', chunks: [], remote: null, sink: { type: 'down', rid: 1 } });
    expect(g.call(httpBody, 'abandon', h)).toBe(OK);
    expect(g.io.posts).toEqual([{ op: 'end', rid: 1 }]);
  });
});

describe('refused calls', () => {
  it('answer BADF for a handle that is not a body', () => {
    const g = new Guest();
    const notBody = g.add({ kind: 'config', name: 'x' });
    expect(g.call(httpBody, 'read', notBody, ...g.buffer(4).args)).toBe(BADF);
    expect(write(g, 77, 'x').status).toBe(BADF);
    expect(g.call(httpBody, 'close', notBody)).toBe(BADF);
    expect(g.call(httpBody, 'abandon', 77)).toBe(BADF);
    expect(knownLength(g, 77).status).toBe(BADF);
  });

  it('answer INVAL for bytes to write outside guest memory, and write nothing', () => {
    const g = new Guest();
    const h = g.handle(httpBody, 'new');
    expect(g.call(httpBody, 'write', h, OUTSIDE, 4, BACK, g.alloc(4))).toBe(INVAL);
    expect(knownLength(g, h).length).toBe(0n);
  });

  it('answer UNSUPPORTED for the trailer calls, and name the call for the operator', () => {
    const g = new Guest();
    const h = g.handle(httpBody, 'new');
    expect(g.imported('fastly_http_body', 'trailer_append')(h, ...g.str('x-t'), ...g.str('1'))).toBe(UNSUPPORTED);
    expect(g.io.unsupportedNames).toEqual(['fastly_http_body.trailer_append']);
  });
});
