// fastly_compute_runtime: the time the current request has taken and the sandbox's heap size.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeRuntime } from '../../../host/src/abi/compute-runtime.js';
import { INVAL, OK } from '../../../host/src/guest/status.js';
import { downstreamRequest, Guest, OUTSIDE } from './sandbox-fixture.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** What get_vcpu_ms writes, read as the u64 it is. */
function vcpuMs(g: Guest): bigint {
  const out = g.alloc(8);
  expect(g.call(computeRuntime, 'get_vcpu_ms', out)).toBe(OK);
  return g.u64(out);
}

describe('fastly_compute_runtime.get_vcpu_ms', () => {
  it('is the wall time since the current request began, in whole milliseconds (no CPU clock in Node)', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const g = new Guest();
    now.mockReturnValue(1_250.6);
    expect(vcpuMs(g)).toBe(251n);
  });

  it('starts again with each request a reused sandbox serves', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const g = new Guest();
    now.mockReturnValue(5_000);
    g.sb.end();
    g.sb.begin(downstreamRequest({ rid: 2 }));
    now.mockReturnValue(5_040);
    expect(vcpuMs(g)).toBe(40n);
  });

  it('is 0 between requests', () => {
    expect(vcpuMs(new Guest({ request: null }))).toBe(0n);
  });

  it('answers INVAL for an out-slot outside guest memory', () => {
    expect(new Guest().call(computeRuntime, 'get_vcpu_ms', OUTSIDE)).toBe(INVAL);
  });
});

describe('fastly_compute_runtime.get_heap_mib', () => {
  it('is the linear memory in MiB, rounded up', () => {
    const g = new Guest();
    expect(g.callOut(computeRuntime, 'get_heap_mib')).toEqual({ status: OK, value: 1 });
    g.memory.grow(15); // 16 pages: exactly 1 MiB
    expect(g.callOut(computeRuntime, 'get_heap_mib').value).toBe(1);
    g.memory.grow(1);
    expect(g.callOut(computeRuntime, 'get_heap_mib').value).toBe(2);
  });

  it('answers INVAL for an out-slot outside guest memory', () => {
    expect(new Guest().call(computeRuntime, 'get_heap_mib', OUTSIDE)).toBe(INVAL);
  });
});
