// fastly_http_body: bodies the guest writes and reads, appends, and streams out through a sink.
import { describe, expect, it } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { BADF, ERROR, NONE, OK } from '../../../host/src/abi/status.js';
import type { ReadResult, Rpc } from '../../../host/src/protocol.js';
import { harness } from './sandbox-fixture.js';

type T = ReturnType<typeof harness>;

function newBody(t: T): number {
  const out = t.area(4);
  expect(t.call(httpBody.new, out)).toBe(OK);
  return t.u32(out);
}

function write(t: T, h: number, text: string, end = 0): number {
  const [p, l] = t.put(text);
  const nw = t.area(4);
  expect(t.call(httpBody.write, h, p, l, end, nw)).toBe(OK);
  return t.u32(nw);
}

function read(t: T, h: number, max = 256): { status: number; text: string } {
  const buf = t.area(max);
  const nr = t.area(4);
  const status = t.call(httpBody.read, h, buf, max, nr);
  return { status, text: t.text(buf, t.u32(nr)) };
}

/** A main thread holding one stream that answers `chunks` in turn, then its end. */
function streaming(chunks: Array<string | { error: string }>): (rpc: Rpc) => ReadResult {
  return (rpc) => {
    if (rpc.op !== 'read') throw new Error(`unexpected ${rpc.op}`);
    const next = chunks.shift();
    if (next === undefined) return { data: null };
    if (typeof next !== 'string') return next;
    return { data: new TextEncoder().encode(next) };
  };
}

describe('fastly_http_body', () => {
  it('reads back what was written, at most `max` bytes at a time, then an empty read at the end', () => {
    const t = harness();
    const h = newBody(t);
    expect(write(t, h, 'hello ')).toBe(6);
    write(t, h, 'world');
    expect(read(t, h, 4).text).toBe('hell');
    expect(read(t, h, 4).text).toBe('o ');
    expect(read(t, h).text).toBe('world');
    expect(read(t, h)).toEqual({ status: OK, text: '' });
  });

  it('writes at the front when asked (end = 1)', () => {
    const t = harness();
    const h = newBody(t);
    write(t, h, 'world');
    write(t, h, 'hello ', 1);
    expect(read(t, h).text + read(t, h).text).toBe('hello world');
  });

  it('knows its length while it is all in the guest, and not once a stream is behind it', () => {
    const t = harness({ answer: streaming(['x']) });
    const h = newBody(t);
    write(t, h, 'abc');
    const out = t.area(8);
    expect(t.call(httpBody.known_length, h, out)).toBe(OK);
    expect(t.u64(out)).toBe(3n);
    t.sb.handles.get(h, 'body').remote = 5;
    expect(t.call(httpBody.known_length, h, out)).toBe(NONE);
  });

  it('reads a main-thread stream after the written bytes, one call per read', () => {
    const t = harness({ answer: streaming(['from ', 'backend']) });
    const h = newBody(t);
    write(t, h, 'local ');
    t.sb.handles.get(h, 'body').remote = 5;
    expect([read(t, h).text, read(t, h).text, read(t, h).text, read(t, h).text]).toEqual(['local ', 'from ', 'backend', '']);
    expect(t.line.calls).toEqual([
      { op: 'read', stream: 5, max: 256 },
      { op: 'read', stream: 5, max: 256 },
      { op: 'read', stream: 5, max: 256 },
    ]);
  });

  it('answers ERROR when the stream fails, and an empty body after that', () => {
    const t = harness({ answer: streaming([{ error: 'connection reset' }]) });
    const h = newBody(t);
    t.sb.handles.get(h, 'body').remote = 5;
    expect(read(t, h).status).toBe(ERROR);
    expect(read(t, h)).toEqual({ status: OK, text: '' });
  });

  it('appends one body to another and spends the appended handle', () => {
    const t = harness();
    const a = newBody(t);
    const b = newBody(t);
    write(t, a, 'first ');
    write(t, b, 'second');
    expect(t.call(httpBody.append, a, b)).toBe(OK);
    expect(read(t, a).text + read(t, a).text).toBe('first second');
    expect(read(t, b).status).toBe(BADF);
  });

  it('forwards writes to a sink as they happen and ends it on close', () => {
    const t = harness();
    const h = newBody(t);
    t.sb.handles.get(h, 'body').sink = { type: 'up', pid: 4 };
    write(t, h, 'chunk');
    expect(t.call(httpBody.close, h)).toBe(OK);
    expect(t.line.posted).toEqual([
      { op: 'upChunk', pid: 4, data: new TextEncoder().encode('chunk') },
      { op: 'upEnd', pid: 4 },
    ]);
    expect(t.call(httpBody.close, h)).toBe(BADF);
  });
});
