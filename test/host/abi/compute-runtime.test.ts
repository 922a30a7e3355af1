// fastly_compute_runtime: the request's elapsed time and the sandbox's heap.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeRuntime } from '../../../host/src/abi/compute-runtime.js';
import { OK } from '../../../host/src/abi/status.js';
import { harness } from './sandbox-fixture.js';

afterEach(() => vi.useRealTimers());

describe('fastly_compute_runtime', () => {
  it('answers the milliseconds since the current request began (wall time stands in for CPU time)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const h = harness();
    vi.advanceTimersByTime(37);
    const out = h.area(8);
    expect(h.call(computeRuntime.get_vcpu_ms, out)).toBe(OK);
    expect(h.u64(out)).toBe(37n);
  });

  it('answers the heap in whole MiB, rounded up', () => {
    const h = harness();
    const out = h.area(4);
    expect(h.call(computeRuntime.get_heap_mib, out)).toBe(OK);
    // Two 64 KiB pages are a part of one MiB.
    expect(h.u32(out)).toBe(1);
  });
});
