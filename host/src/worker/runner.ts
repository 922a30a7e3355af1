// Runs guest instances on one worker thread. Each instance gets a Sandbox; it serves the request it
// was started for and, when the guest asks (next_request), more requests the main thread hands it,
// until the guest stops asking, fails, or no request comes in time. A failed instance is never reused.
import { DEFAULT_MAX_MEMORY, MEMORY_IMPORT, WASM_PAGE } from '../memory-rewrite.js';
import type { WorkerManifest } from '../config.js';
import type { DownstreamRequest, NextReply, WorkerInit } from '../protocol.js';
import { ProcExit } from '../abi/index.js';
import { writeFd } from '../guest/blocking.js';
import { GuestMemory } from '../guest/memory.js';
import { MemoryPool } from '../guest/memory-pool.js';
import { CpuLimitExit, limitsEnforced } from '../guest/limits.js';
import { Sandbox, type Downstream, type ExecutionLimits, type SandboxWorker } from '../guest/sandbox.js';
import { Transport } from '../guest/transport.js';
import { buildImports, type HostcallTimes } from './linking.js';

function describeFailure(err: unknown): string | undefined {
  if (err instanceof ProcExit) return err.code === 0 ? undefined : `guest exited with code ${err.code}`;
  if (err instanceof CpuLimitExit) return err.toString();
  if (err instanceof WebAssembly.RuntimeError) return `guest trapped: ${err.message}`;
  if (err instanceof RangeError) return `guest ran out of memory: ${err.message}`;
  return `guest failed: ${(err as Error).stack ?? String(err)}`;
}

export class Runner implements SandboxWorker {
  readonly io: Transport;
  readonly limits: ExecutionLimits;
  private currentManifest: WorkerManifest;
  private active: Sandbox | null = null;
  private readonly imports: Record<string, Record<string, WebAssembly.ImportValue>>;
  private readonly pool: MemoryPool | null;
  private readonly profile: Map<string, HostcallTimes> | null;
  /** Instantiation time of the running instance, reported with its first request only. */
  private instantiateMs = 0;

  constructor(private readonly init: WorkerInit) {
    this.io = new Transport(init.port, init.signal);
    this.limits = {
      enforce: limitsEnforced(),
      memoryCap: init.memory ? init.memory.maximum * WASM_PAGE : DEFAULT_MAX_MEMORY,
      report: (line) => writeFd(2, Buffer.from(`${line}\n`)),
    };
    this.currentManifest = init.manifest;
    this.pool = init.memory ? new MemoryPool(init.memory) : null;
    this.profile = init.profile ? new Map() : null;
    this.imports = buildImports(init.module, {
      sandbox: () => this.active,
      io: this.io,
      verbose: init.verbose,
      profile: this.profile,
    });
    // Import wrappers are compiled per thread on first instantiation; pay that before the first request.
    try {
      this.instantiate();
    } catch {
      // A module that cannot be instantiated fails again, with its message, on the first request.
    }
  }

  manifest(): WorkerManifest {
    return this.currentManifest;
  }

  useManifest(manifest: WorkerManifest | undefined): void {
    if (manifest) this.currentManifest = manifest;
  }

  nextRequest(timeoutMs: number): DownstreamRequest | null {
    const reply = this.io.call<NextReply>({ op: 'next', timeoutMs });
    if (!reply) return null;
    this.useManifest(reply.manifest);
    return reply.request;
  }

  private instantiate(): WebAssembly.Instance {
    if (this.pool) (this.imports[MEMORY_IMPORT.module] ??= {})[MEMORY_IMPORT.name] = this.pool.next();
    return new WebAssembly.Instance(this.init.module, this.imports);
  }

  /** One instance, from the request it starts with to its end. */
  run(first: DownstreamRequest): void {
    this.useManifest(first.manifest);
    let sandbox: Sandbox | null = null;
    let error: string | undefined;
    const t0 = performance.now();
    try {
      const instance = this.instantiate();
      sandbox = new Sandbox(new GuestMemory(instance.exports.memory as WebAssembly.Memory), this);
      sandbox.begin(first);
      this.active = sandbox;
      this.instantiateMs = performance.now() - t0;
      (instance.exports._start as () => void)();
    } catch (err) {
      error = describeFailure(err);
    } finally {
      this.active = null;
    }
    // A streaming body the guest never closed is unfinished (Viceroy: UnfinishedStreamingBody); the
    // main thread cuts it off rather than end it, so no one takes a truncated body for a whole one.
    if (sandbox) sandbox.end(error);
    else this.io.post({ op: 'done', rid: first.rid, error });
    this.io.post({ op: 'free' });
  }

  /**
   * With COMPUTE_HOST_PROFILE=1, two lines per request: `profile:` in words (instantiation, 0 on a reused
   * sandbox; run; the costliest hostcalls) and `profile-json:` for tools (bench/room-account.ts): each
   * hostcall's calls, wall time and time blocked waiting for the main thread. No CPU time per request:
   * the thread's clock (schedstat) is brought up to date only when the thread blocks or at a scheduler
   * tick, so a reading at a request's end can miss its last milliseconds; a tool reads the worker
   * thread's CPU over many requests instead.
   */
  requestEnded(sandbox: Sandbox, request: Downstream): void {
    if (!this.profile) return;
    const calls = [...this.profile].sort((a, b) => b[1][1] - a[1][1]);
    const total = calls.reduce((n, [, [, ms]]) => n + ms, 0);
    const top = calls
      .slice(0, 4)
      .map(([n, [c, ms]]) => `${n} x${c} ${ms.toFixed(2)}ms`)
      .join(', ');
    const mib = (sandbox.mem.byteLength / (1 << 20)).toFixed(1);
    const run = performance.now() - request.start;
    const json = {
      served: sandbox.served,
      instantiateMs: this.instantiateMs,
      runMs: run,
      memoryBytes: sandbox.mem.byteLength,
      hostcalls: Object.fromEntries(calls),
    };
    writeFd(
      2,
      Buffer.from(
        `profile: instantiate ${this.instantiateMs.toFixed(2)} ms, memory ${mib} MiB, run ${run.toFixed(2)} ms (request ${sandbox.served} of this sandbox), hostcalls ${total.toFixed(2)} ms (${top})\nprofile-json: ${JSON.stringify(json)}\n`,
      ),
    );
    this.instantiateMs = 0;
    this.profile.clear();
  }
}
