// One guest instance's state, as Viceroy's `Sandbox`: its memory, the handles it holds, the backends
// it registered, and the downstream request it is serving. A sandbox is made with its instance and
// dropped with it; a reused sandbox serves several requests, one `Downstream` at a time.
import { HostError, INVAL } from './status.js';
import type { WorkerManifest } from '../config.js';
import type { BackendConfig } from '../manifest/backends.js';
import type { DownstreamRequest } from '../protocol.js';
import { newBody } from './bodies.js';
import { type BodyObj, type ReqObj, HandleTable } from './handles.js';
import { Execution } from './limits.js';
import type { GuestMemory } from './memory.js';
import type { MainThread } from './transport.js';

export const HTTP_11 = 2;

/** What a sandbox needs of the worker thread it runs on. */
export interface SandboxWorker {
  io: MainThread;
  manifest(): WorkerManifest;
  nextRequest(timeoutMs: number): DownstreamRequest | null;
  /** Called as each request ends (for COMPUTE_HOST_PROFILE). */
  requestEnded(sandbox: Sandbox, request: Downstream): void;
  /** Fastly's per-execution limits (limits.ts): whether they are enforced, the memory cap, where a limit reached is reported. */
  readonly limits: ExecutionLimits;
}

export interface ExecutionLimits {
  enforce: boolean;
  /** The linear memory's maximum, in bytes. */
  memoryCap: number;
  /** One line for the host's stderr. */
  report(line: string): void;
}

/** One downstream request while a sandbox serves it. */
export class Downstream {
  readonly req: ReqObj;
  readonly body: BodyObj;
  /** The guest has sent its response (send_downstream). */
  responded = false;
  readonly start = performance.now();
  /** What this execution has used of Fastly's per-execution limits. */
  readonly execution: Execution;

  constructor(
    readonly msg: DownstreamRequest,
    limits: ExecutionLimits,
  ) {
    const label = `${msg.method} ${pathOf(msg.url)}`;
    this.execution = new Execution(limits.enforce, (line) => limits.report(`compute-host: ${label}: ${line}`));
    this.req = {
      kind: 'req',
      method: msg.method,
      uri: msg.url,
      // A copy: the header hostcalls edit this array in place, and `msg.headers` must keep the
      // headers as they arrived for the original_header_* and bot calls.
      headers: [...msg.headers],
      version: HTTP_11,
      autoDecompress: false,
      downstream: msg,
    };
    this.body = newBody(msg.bodyStream);
  }
}

/** The path and query of a request's absolute URL, for log lines. */
function pathOf(url: string): string {
  const at = url.indexOf('/', url.indexOf('//') + 2);
  return at < 0 ? '/' : url.slice(at, at + 80);
}

export class Sandbox {
  readonly handles = new HandleTable();
  /** Backends the guest registered (Viceroy keeps them per sandbox too). */
  readonly dynamicBackends = new Map<string, BackendConfig>();
  /** The request being served; null between requests of a reused sandbox. */
  current: Downstream | null = null;
  /** Requests this sandbox has been handed, the first included. */
  served = 0;
  /** Handle of the guest's outstanding next_request promise, if any. */
  pendingNext: number | null = null;
  private nextUpstreamId = 1;

  constructor(
    readonly mem: GuestMemory,
    private readonly worker: SandboxWorker,
  ) {}

  get io(): MainThread {
    return this.worker.io;
  }

  /** The worker's manifest as of now (a reload lands between requests). */
  get manifest(): WorkerManifest {
    return this.worker.manifest();
  }

  /** Blocks until the host hands this sandbox another request, or null when none came in time. */
  awaitNext(timeoutMs: number): DownstreamRequest | null {
    return this.worker.nextRequest(timeoutMs);
  }

  begin(msg: DownstreamRequest): Downstream {
    this.current = new Downstream(msg, this.worker.limits);
    this.served++;
    return this.current;
  }

  /** The request is over for the guest; the main thread finishes its response (or reports it unsent). */
  end(error?: string): void {
    const d = this.current;
    if (!d) return;
    this.current = null;
    const usage = d.execution.finish(this.mem.byteLength, this.worker.limits.memoryCap);
    this.io.post({ op: 'done', rid: d.msg.rid, error, usage });
    this.worker.requestEnded(this, d);
  }

  /** The downstream request a handle names, else the one being served (js-compute passes either). */
  downstreamOf(h: number): DownstreamRequest | null {
    const obj = this.handles.peek(h);
    if (obj?.kind === 'req' && obj.downstream) return obj.downstream;
    return this.current?.msg ?? null;
  }

  findBackend(name: string): BackendConfig | undefined {
    const configured = this.manifest.backends;
    return (Object.hasOwn(configured, name) ? configured[name] : undefined) ?? this.dynamicBackends.get(name);
  }

  backendNamed(name: string): BackendConfig {
    const b = this.findBackend(name);
    if (!b) throw new HostError(INVAL, `no backend named "${name}"`);
    return b;
  }

  /** An id for a backend request the guest sends, which the main thread keeps its `Upstream` under. */
  newUpstreamId(): number {
    return this.nextUpstreamId++;
  }
}
