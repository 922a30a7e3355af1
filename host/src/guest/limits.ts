// Fastly's per-execution limits (docs.fastly.com/products/compute-resource-limits) as production
// enforces them, counted for each downstream request a sandbox serves: at most 32 dictionary / Config
// Store lookups, 32 backend requests, 50 ms of CPU time. (The 128 MiB heap is the memory's maximum,
// written into the module by memory-rewrite.ts; this only reports that a guest reached it.)
// COMPUTE_HOST_LIMITS=off counts and reports, but lets the call through.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { HostError, LIMITEXCEEDED } from './status.js';

export const LIMITS = { configLookups: 32, backendRequests: 32, cpuMs: 50 } as const;

/** Whether the host enforces the limits (COMPUTE_HOST_LIMITS=off only reports them). */
export function limitsEnforced(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.COMPUTE_HOST_LIMITS !== 'off';
}

/** What one request used, reported with its end (the `-v` usage line). */
export interface Usage {
  configLookups: number;
  backendRequests: number;
  /** CPU time of the worker thread while it served this request; null where it cannot be read. */
  cpuMs: number | null;
}

let schedstat = process.platform === 'linux';

/**
 * This thread's CPU time in ms, or null where the platform has no per-thread clock Node can read
 * (Node 20's process.cpuUsage counts every thread). Linux's schedstat gives the time the thread has
 * run on a CPU, in ns; time blocked in a hostcall (Atomics.wait) is not in it.
 */
export function threadCpuMs(): number | null {
  if (!schedstat) return null;
  try {
    const text = readFileSync('/proc/thread-self/schedstat', 'latin1');
    return Number(text.slice(0, text.indexOf(' '))) / 1e6;
  } catch {
    schedstat = false;
    return null;
  }
}

/**
 * Thrown out of a hostcall to end an execution past its CPU time: like proc_exit it unwinds the
 * guest, which cannot catch it, and the instance ends (never reused), as production ends it.
 */
export class CpuLimitExit {
  constructor(readonly cpuMs: number) {}

  toString(): string {
    return `the request used ${this.cpuMs.toFixed(1)} ms of CPU time, past Fastly's ${LIMITS.cpuMs} ms per execution; its execution was ended`;
  }
}

/**
 * A hostcall shorter than this (wall time) is not timed: reading the clock costs a few µs, and a guest
 * makes hundreds of short hostcalls a request (each `Date.now()` is one). Their CPU time stays the
 * guest's; a longer one's entry reading may be up to this old, so at most this much of the guest's
 * time before it is taken for the host's.
 */
export const HOSTCALL_GRAIN_MS = 0.1;

/** This thread's CPU clock for one execution: schedstat kept open and read at offset 0 (one syscall). */
class ThreadClock {
  private fd: number | null = null;
  private readonly buf = Buffer.alloc(64);

  constructor() {
    if (!schedstat) return;
    try {
      this.fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      this.fd = null;
    }
  }

  /** CPU time in ms, or null where it cannot be read. */
  read(): number | null {
    if (this.fd === null) return null;
    try {
      const n = readSync(this.fd, this.buf, 0, this.buf.length, 0);
      const text = this.buf.toString('latin1', 0, n);
      return Number(text.slice(0, text.indexOf(' '))) / 1e6;
    } catch {
      this.close();
      return null;
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** One execution's counts: made when a sandbox begins a request, read when it ends. */
export class Execution {
  configLookups = 0;
  backendRequests = 0;
  private readonly reported = new Set<string>();
  private readonly clock = new ThreadClock();
  private readonly cpuStart = this.clock.read();
  /** Before this wall time the CPU time cannot have reached the limit (it grows no faster than wall time). */
  private nextCpuCheck: number;
  /** CPU time the host spent inside hostcalls, not charged to the guest. */
  private hostcallsMs = 0;
  /** The last clock reading (CPU ms) and the wall time it was taken at. */
  private lastCpu: number | null;
  private lastReadAt = performance.now();
  /** The hostcall under way: its start (wall time) and the CPU time at (or just before) it. */
  private hostcallAt = 0;
  private hostcallCpu = 0;

  constructor(
    private readonly enforce: boolean,
    /** Writes one line to the host's stderr, naming the request. */
    private readonly report: (line: string) => void,
  ) {
    this.lastCpu = this.cpuStart;
    this.nextCpuCheck = this.cpuStart === null ? Infinity : performance.now() + LIMITS.cpuMs;
  }

  /** A dictionary / Config Store `get`; the 33rd and later fail with LIMITEXCEEDED. */
  configLookup(): void {
    if (++this.configLookups <= LIMITS.configLookups) return;
    this.exceeded(
      'lookups',
      `the ${ordinal(this.configLookups)} Config Store lookup of this request failed (Fastly allows ${LIMITS.configLookups} per execution)`,
    );
  }

  /** A `send` / `send_async*`; the 33rd and later fail with LIMITEXCEEDED. */
  backendRequest(): void {
    if (++this.backendRequests <= LIMITS.backendRequests) return;
    this.exceeded(
      'backends',
      `the ${ordinal(this.backendRequests)} backend request of this request failed (Fastly allows ${LIMITS.backendRequests} per execution)`,
    );
  }

  /**
   * As the guest makes a hostcall: ends the execution past its CPU time (checkCpu), then notes where
   * the guest's time stops and the host's begins.
   */
  enterHostcall(): void {
    this.checkCpu();
    const now = performance.now();
    if (this.lastCpu !== null && now - this.lastReadAt >= HOSTCALL_GRAIN_MS) this.readClock(now);
    this.hostcallAt = now;
    this.hostcallCpu = this.lastCpu ?? 0;
  }

  /** As the hostcall returns: what the host spent in it (if it took long enough to time) is not the guest's. */
  leaveHostcall(): void {
    if (this.lastCpu === null) return;
    const now = performance.now();
    if (now - this.hostcallAt < HOSTCALL_GRAIN_MS) return;
    const cpu = this.readClock(now);
    if (cpu !== null) this.hostcallsMs += Math.max(0, cpu - this.hostcallCpu);
  }

  /** Throws CpuLimitExit once the guest has used more than the request's CPU time. */
  checkCpu(): void {
    const now = performance.now();
    if (now < this.nextCpuCheck) return;
    const used = this.cpuMs() ?? 0;
    if (used <= LIMITS.cpuMs) {
      this.nextCpuCheck = now + (LIMITS.cpuMs - used);
      return;
    }
    this.nextCpuCheck = Infinity;
    const exit = new CpuLimitExit(used);
    if (!this.enforce) {
      this.once(
        'cpu',
        `limit: the request used ${used.toFixed(1)} ms of CPU time (Fastly allows ${LIMITS.cpuMs} ms per execution); not enforced (COMPUTE_HOST_LIMITS=off)`,
      );
      return;
    }
    this.once('cpu', `limit: ${exit.toString()}`);
    throw exit;
  }

  /** The guest's CPU time so far: the thread's since the request began, less the host's inside hostcalls. */
  cpuMs(): number | null {
    if (this.cpuStart === null) return null;
    const now = this.readClock(performance.now());
    return now === null ? null : now - this.cpuStart - this.hostcallsMs;
  }

  private readClock(at: number): number | null {
    const cpu = this.clock.read();
    this.lastCpu = cpu;
    this.lastReadAt = at;
    return cpu;
  }

  /** At the request's end: what it used, and the limits it reached that no hostcall saw. */
  finish(memoryBytes: number, memoryCap: number): Usage {
    const cpuMs = this.cpuMs();
    this.clock.close();
    if (cpuMs !== null && cpuMs > LIMITS.cpuMs) {
      this.once(
        'cpu',
        `limit: the request used ${cpuMs.toFixed(1)} ms of CPU time (Fastly allows ${LIMITS.cpuMs} ms per execution); the host saw it only at the request's end, after its last hostcall`,
      );
    }
    // A failed memory.grow leaves no trace the host can see (the guest gets -1), so the line comes
    // when the memory ends within a sixteenth of its cap, where a guest's next grow fails.
    if (memoryBytes > memoryCap - memoryCap / 16) {
      const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1).replace(/\.0$/, '');
      this.once(
        'memory',
        `limit: the instance's memory grew to ${mib(memoryBytes)} MiB, near its ${mib(memoryCap)} MiB cap (Fastly allows 128 MB of heap per execution); a memory.grow past the cap fails`,
      );
    }
    return { configLookups: this.configLookups, backendRequests: this.backendRequests, cpuMs };
  }

  private exceeded(kind: string, what: string): void {
    if (!this.enforce) {
      this.once(
        kind,
        `limit: ${what.replace(' failed ', ' was let through ')}; not enforced (COMPUTE_HOST_LIMITS=off)`,
      );
      return;
    }
    this.once(kind, `limit: ${what}`);
    throw new HostError(LIMITEXCEEDED, what);
  }

  private once(kind: string, line: string): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.report(line);
  }
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * With `-v`, one line per request as the guest finishes it: what it used of Fastly's per-execution
 * limits, for tests and benchmarks to read; `cpu_ms=-` where it cannot be measured.
 */
export function usageLine(req: { method?: string | undefined; url?: string | undefined }, usage: Usage): string {
  const cpu = usage.cpuMs === null ? '-' : usage.cpuMs.toFixed(1);
  return `usage: ${req.method} ${req.url} config_lookups=${usage.configLookups} backend_requests=${usage.backendRequests} cpu_ms=${cpu}`;
}
