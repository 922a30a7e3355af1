// fastly_async_io: which of several handles is ready, asking the main thread only about those that
// wait on it (a pending send, a body that is all a main-thread stream).
import { describe, expect, it } from 'vitest';
import { asyncIo } from '../../../host/src/abi/async-io.js';
import { BADF, OK } from '../../../host/src/abi/status.js';
import { backend, harness } from './sandbox-fixture.js';

const NO_INDEX = 0xffff_ffff;

function handles(t: ReturnType<typeof harness>, list: number[]): number {
  const at = t.area(list.length * 4);
  list.forEach((h, i) => t.sb.mem.w32(at + i * 4, h));
  return at;
}

describe('fastly_async_io', () => {
  it('answers a handle that is ready now without asking the main thread', () => {
    const t = harness();
    const written = t.sb.handles.add({ kind: 'body', chunks: [new Uint8Array([1])], remote: null, sink: null });
    const out = t.area(4);
    expect(t.call(asyncIo.select, handles(t, [written]), 1, 0, out)).toBe(OK);
    expect(t.u32(out)).toBe(0);
    expect(t.line.calls).toEqual([]);
  });

  it("asks the main thread about the waiting ones and maps its answer back to the guest's index", () => {
    const t = harness({ answer: () => 1 });
    const first = t.sb.handles.add({ kind: 'pending', pid: 3, backend: backend('origin') });
    const second = t.sb.handles.add({ kind: 'body', chunks: [], remote: 21, sink: null });
    const out = t.area(4);
    expect(t.call(asyncIo.select, handles(t, [first, second]), 2, 250, out)).toBe(OK);
    expect(t.line.calls).toEqual([{ op: 'select', items: [{ kind: 'pending', id: 3 }, { kind: 'stream', id: 21 }], timeoutMs: 250 }]);
    expect(t.u32(out)).toBe(1);
  });

  it('answers no index when the wait times out, and BADF for a handle that does not exist', () => {
    const t = harness({ answer: () => -1 });
    const waiting = t.sb.handles.add({ kind: 'pending', pid: 3, backend: backend('origin') });
    const out = t.area(4);
    expect(t.call(asyncIo.select, handles(t, [waiting]), 1, 10, out)).toBe(OK);
    expect(t.u32(out)).toBe(NO_INDEX);
    expect(t.call(asyncIo.select, handles(t, [waiting, 999]), 2, 10, out)).toBe(BADF);
  });

  it('is_ready: 1 for a handle with nothing to wait for, else what the main thread says', () => {
    let ready = false;
    const t = harness({ answer: () => ready });
    const done = t.sb.handles.add({ kind: 'pending', pid: 1, backend: backend('origin'), result: { ok: false, tag: 'dns_error', message: '' } });
    const waiting = t.sb.handles.add({ kind: 'pending', pid: 2, backend: backend('origin') });
    const out = t.area(4);
    t.call(asyncIo.is_ready, done, out);
    expect(t.u32(out)).toBe(1);
    t.call(asyncIo.is_ready, waiting, out);
    expect(t.u32(out)).toBe(0);
    ready = true;
    t.call(asyncIo.is_ready, waiting, out);
    expect(t.u32(out)).toBe(1);
    expect(t.call(asyncIo.is_ready, 999, out)).toBe(BADF);
  });
});
