// The per-execution counts (host/src/guest/limits.ts) alone: CPU time against Fastly's 50 ms, the
// memory report, the usage line. Lookups and backend requests through their hostcalls:
// test/host/abi/config-store.test.ts and send.test.ts; on the host as a process: limits.guest.wasm.test.ts.
import { describe, expect, it } from 'vitest';
import {
  CpuLimitExit,
  Execution,
  LIMITS,
  limitsEnforced,
  threadCpuMs,
  usageLine,
} from '../../../host/src/guest/limits.js';

/** Burns this thread's CPU until `ms` more of it have been used. */
function burn(ms: number): void {
  const until = threadCpuMs()! + ms;
  while (threadCpuMs()! < until);
}

const linux = process.platform === 'linux';

describe('limitsEnforced', () => {
  it('enforces unless COMPUTE_HOST_LIMITS=off', () => {
    expect(limitsEnforced({})).toBe(true);
    expect(limitsEnforced({ COMPUTE_HOST_LIMITS: 'on' })).toBe(true);
    expect(limitsEnforced({ COMPUTE_HOST_LIMITS: 'off' })).toBe(false);
  });
});

describe.runIf(linux)('CPU time', () => {
  it("reads this thread's CPU time, which a wait does not add to", () => {
    const before = threadCpuMs()!;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    expect(threadCpuMs()! - before).toBeLessThan(LIMITS.cpuMs);
  });

  it('ends the execution at the first hostcall past 50 ms of CPU time, and says so once', () => {
    const lines: string[] = [];
    const e = new Execution(true, (line) => lines.push(line));
    e.checkCpu();
    burn(LIMITS.cpuMs + 5);
    let thrown: unknown;
    try {
      e.checkCpu();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CpuLimitExit);
    expect(lines).toEqual([
      expect.stringMatching(
        /^limit: the request used \d+\.\d ms of CPU time, past Fastly's 50 ms per execution; its execution was ended$/,
      ),
    ]);
    e.finish(0, 128 * 2 ** 20);
    expect(lines).toHaveLength(1);
  });

  it('only reports it with COMPUTE_HOST_LIMITS=off', () => {
    const lines: string[] = [];
    const e = new Execution(false, (line) => lines.push(line));
    burn(LIMITS.cpuMs + 5);
    e.checkCpu();
    e.checkCpu();
    expect(lines).toEqual([expect.stringMatching(/not enforced \(COMPUTE_HOST_LIMITS=off\)$/)]);
  });

  it("does not charge the request the host's own work inside a hostcall, only the guest's between them", () => {
    const lines: string[] = [];
    const e = new Execution(true, (line) => lines.push(line));
    // A hostcall copying a large value: the host's CPU time, not the guest's.
    e.enterHostcall();
    burn(LIMITS.cpuMs + 20);
    e.leaveHostcall();
    e.enterHostcall();
    e.leaveHostcall();
    expect(e.cpuMs()!).toBeLessThan(LIMITS.cpuMs);
    expect(e.finish(0, 128 * 2 ** 20).cpuMs!).toBeLessThan(LIMITS.cpuMs);
    expect(lines).toEqual([]);
    // The guest computing between hostcalls is charged, and ended at its next one.
    const g = new Execution(true, () => {});
    g.enterHostcall();
    g.leaveHostcall();
    burn(LIMITS.cpuMs + 5);
    expect(() => g.enterHostcall()).toThrow(CpuLimitExit);
  });

  it('reports at the end CPU time used after the last hostcall', () => {
    const lines: string[] = [];
    const e = new Execution(true, (line) => lines.push(line));
    burn(LIMITS.cpuMs + 5);
    const usage = e.finish(0, 128 * 2 ** 20);
    expect(usage.cpuMs).toBeGreaterThan(LIMITS.cpuMs);
    expect(lines).toEqual([
      expect.stringMatching(/the host saw it only at the request's end, after its last hostcall$/),
    ]);
  });
});

describe('memory', () => {
  it('says when the memory ends near its cap, and not below', () => {
    const lines: string[] = [];
    new Execution(true, (line) => lines.push(line)).finish(64 * 2 ** 20, 128 * 2 ** 20);
    expect(lines).toEqual([]);
    new Execution(true, (line) => lines.push(line)).finish(127 * 2 ** 20, 128 * 2 ** 20);
    expect(lines).toEqual([
      "limit: the instance's memory grew to 127 MiB, near its 128 MiB cap (Fastly allows 128 MB of heap per execution); a memory.grow past the cap fails",
    ]);
  });
});

describe('usageLine', () => {
  it('names the request and its counts, and `-` for CPU time the platform cannot measure', () => {
    expect(usageLine({ method: 'GET', url: '/a?b=1' }, { configLookups: 7, backendRequests: 1, cpuMs: 2.345 })).toBe(
      'usage: GET /a?b=1 config_lookups=7 backend_requests=1 cpu_ms=2.3',
    );
    expect(usageLine({ method: 'GET', url: '/' }, { configLookups: 0, backendRequests: 0, cpuMs: null })).toMatch(
      / cpu_ms=-$/,
    );
  });
});
