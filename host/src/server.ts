// The downstream HTTP server and the pool of guest workers. The main thread owns every socket
// and all shared state; workers only run guest code and ask for I/O through their ports.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { LocalServer, StoreSnapshot } from './config.js';
import type { MemoryLimits } from './limits.js';
import type { DownstreamRequest, Header, OneWay, OneWayMessage, RemoteItem, Rpc, RpcMessage, WaitResult } from './protocol.js';
import { KvStores, RateLimiter } from './state.js';
import { downstreamUrl } from './downstream-url.js';
import { headerPairs, RemoteStream, sendUpstream, stripHopByHop, unmapIp, type Upstream } from './upstream.js';

export interface HostOptions {
  module: WebAssembly.Module;
  memory: MemoryLimits | null;
  workerUrl: URL;
  workers: number;
  /** The pool grows up to this many while workers sit blocked on backends and requests queue. */
  maxWorkers: number;
  requestTimeoutMs: number;
  verbose: boolean;
  config: LocalServer;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}

interface Active {
  rid: number;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  started: boolean;
  status: number;
  begin: number;
  /** Serialises writes to the downstream response (chunks must follow a pipe in order). */
  chain: Promise<void>;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  active: Active | null;
  upstreams: Map<number, Upstream>;
  streams: Map<number, RemoteStream>;
  nextStream: number;
  dead: boolean;
  /** In a hostcall waiting on the network: the worker uses no CPU until it is answered. */
  blocked: boolean;
  idleSince: number;
}

interface Queued {
  msg: DownstreamRequest;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  begin: number;
}

const NO_BODY_STATUS = new Set([204, 304]);
const SHRINK_CHECK_MS = 5_000;
const SHRINK_IDLE_MS = 15_000;

export class ComputeHost {
  private readonly slots: Slot[] = [];
  private readonly idle: Slot[] = [];
  private readonly queue: Queued[] = [];
  private readonly kv = new KvStores();
  private readonly erl = new RateLimiter();
  private readonly reportedUnsupported = new Set<string>();
  private snapshot: StoreSnapshot;
  private server: http.Server | null = null;
  private seed: string;
  private nextRid = 1;
  private nextTrace = 0n;
  private closing = false;
  private readonly log: (line: string) => void;
  private readonly warn: (line: string) => void;

  constructor(private readonly opts: HostOptions) {
    this.snapshot = opts.config.snapshot;
    this.seed = seedSignature(opts.config);
    this.kv.seed(opts.config.kvStores);
    this.log = opts.log ?? ((line) => process.stdout.write(`${line}\n`));
    this.warn = opts.warn ?? ((line) => process.stderr.write(`${line}\n`));
    for (let i = 0; i < opts.workers; i++) this.spawn();
    this.shrinkTimer = setInterval(() => this.shrink(), SHRINK_CHECK_MS);
    this.shrinkTimer.unref();
  }

  private readonly shrinkTimer: NodeJS.Timeout;

  /**
   * Guests block a whole worker while a backend answers, so a slow origin would cap throughput
   * at workers / latency. While requests queue and some workers are only waiting, add workers
   * (a blocked worker costs memory, not CPU).
   */
  private grow(): void {
    if (this.closing) return;
    // Keep at least --workers workers that are not blocked, within --max-workers.
    const unblocked = this.slots.filter((s) => !s.blocked).length;
    const wanted = Math.min(
      this.queue.length - this.idle.length,
      this.opts.workers - unblocked,
      this.opts.maxWorkers - this.slots.length,
    );
    if (wanted <= 0) return;
    for (let i = 0; i < wanted; i++) this.spawn();
    this.pump();
  }

  /** Workers added under load go again once they have been idle a while. */
  private shrink(): void {
    const now = performance.now();
    for (const slot of [...this.idle]) {
      if (this.slots.length <= this.opts.workers) return;
      if (now - slot.idleSince < SHRINK_IDLE_MS) continue;
      slot.dead = true;
      this.idle.splice(this.idle.indexOf(slot), 1);
      this.slots.splice(this.slots.indexOf(slot), 1);
      slot.port.close();
      void slot.worker.terminate();
    }
  }

  /** New store values reach the next request each worker runs. */
  reload(config: LocalServer): void {
    this.snapshot = config.snapshot;
    // Re-seed only when the seed itself changed, so editing another store does not undo KV writes.
    const seed = seedSignature(config);
    if (seed !== this.seed) {
      this.seed = seed;
      this.kv.seed(config.kvStores);
    }
    for (const slot of this.slots) slot.worker.postMessage({ type: 'config', snapshot: this.snapshot });
  }

  private spawn(): Slot {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const worker = new Worker(this.opts.workerUrl, {
      workerData: { module: this.opts.module, memory: this.opts.memory, signal, port: port2, snapshot: this.snapshot },
      transferList: [port2],
      stdout: false,
      stderr: false,
    });
    const slot: Slot = {
      worker,
      port: port1,
      signal: new Int32Array(signal),
      active: null,
      upstreams: new Map(),
      streams: new Map(),
      nextStream: 1,
      dead: false,
      blocked: false,
      idleSince: performance.now(),
    };
    port1.on('message', (m: RpcMessage | OneWayMessage) => {
      if ('rpc' in m) void this.answer(slot, m.rpc);
      else this.oneWay(slot, m.oneWay);
    });
    worker.on('error', (err) => this.replace(slot, `worker failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (!slot.dead && !this.closing) this.replace(slot, `worker exited with code ${code}`);
    });
    this.slots.push(slot);
    this.idle.push(slot);
    return slot;
  }

  /** A worker that hung or died is thrown away; its request gets a 5xx, the host goes on. */
  private replace(slot: Slot, reason: string): void {
    if (slot.dead) return;
    slot.dead = true;
    const a = slot.active;
    if (a) {
      this.warn(`compute-host: ${a.req.method} ${a.req.url}: ${reason}`);
      this.fail(a, reason.includes('timed out') ? 504 : 500, reason);
    }
    this.cleanupAfter(slot, null);
    slot.active = null;
    void slot.worker.terminate();
    slot.port.close();
    this.slots.splice(this.slots.indexOf(slot), 1);
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
    if (!this.closing) {
      this.spawn();
      this.pump();
    }
  }

  private fail(a: Active, status: number, reason: string): void {
    clearTimeout(a.timer);
    if (!a.started) {
      a.started = true;
      a.status = status;
      const body = Buffer.from(`${http.STATUS_CODES[status] ?? 'Error'}: ${reason}\n`);
      a.res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length });
      a.res.end(body);
    } else if (!a.res.writableEnded) {
      a.res.destroy();
    }
  }

  // ---- downstream ----------------------------------------------------------------------------

  listen(host: string, port: number): Promise<AddressInfo> {
    const server = http.createServer((req, res) => this.accept(req, res));
    server.keepAliveTimeout = 5_000;
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    });
  }

  private accept(req: http.IncomingMessage, res: http.ServerResponse): void {
    const begin = performance.now();
    req.on('error', () => res.destroy());
    const target = downstreamUrl(req);
    if (typeof target === 'number') {
      // As Fastly does: the guest never sees a request it could not have been sent.
      this.log(`${req.method} ${(req.url ?? '').slice(0, 80)} ${target} (refused before the guest)`);
      res.writeHead(target, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(target === 414 ? 'URI Too Long\n' : 'Bad Request\n');
      return;
    }
    const msg: DownstreamRequest = {
      type: 'request',
      rid: this.nextRid++,
      method: req.method ?? 'GET',
      url: target,
      headers: headerPairs(req.rawHeaders),
      bodyStream: null,
      clientIp: unmapIp(req.socket.remoteAddress ?? '127.0.0.1'),
      serverIp: unmapIp(req.socket.localAddress ?? '127.0.0.1'),
      traceId: (this.nextTrace++).toString(16).padStart(32, '0'),
    };
    this.queue.push({ msg, req, res, begin });
    this.pump();
  }

  /** The request body reaches the guest as it arrives, read through the same stream as backend bodies. */
  private downstreamBody(slot: Slot, req: http.IncomingMessage): number | null {
    const length = req.headers['content-length'];
    if (length === undefined && req.headers['transfer-encoding'] === undefined) return null;
    if (length === '0') return null;
    const declared = Number(length);
    const id = slot.nextStream++;
    slot.streams.set(id, new RemoteStream(req, 0, Number.isSafeInteger(declared) ? declared : undefined, true));
    return id;
  }

  private pump(): void {
    while (this.queue.length > 0 && this.idle.length > 0) {
      const q = this.queue.shift()!;
      if (q.res.destroyed) continue;
      const slot = this.idle.pop()!;
      const active: Active = {
        rid: q.msg.rid,
        req: q.req,
        res: q.res,
        started: false,
        status: 0,
        begin: q.begin,
        chain: Promise.resolve(),
        timer: setTimeout(
          () => this.replace(slot, `request timed out after ${this.opts.requestTimeoutMs} ms`),
          this.opts.requestTimeoutMs,
        ),
      };
      slot.active = active;
      if (this.opts.verbose) {
        q.res.on('finish', () => {
          const ms = (performance.now() - active.begin).toFixed(1);
          this.log(`${q.req.method} ${q.req.url} ${active.status} ${ms}ms`);
        });
      }
      q.msg.bodyStream = this.downstreamBody(slot, q.req);
      slot.worker.postMessage(q.msg);
    }
    if (this.queue.length > 0) this.grow();
  }

  // ---- messages from workers -----------------------------------------------------------------

  private oneWay(slot: Slot, m: OneWay): void {
    const a = slot.active;
    switch (m.op) {
      case 'unsupported':
        if (!this.reportedUnsupported.has(m.name)) {
          this.reportedUnsupported.add(m.name);
          this.warn(`compute-host: ${m.name} is not emulated; the guest was answered "unsupported"`);
        }
        return;
      case 'send': {
        const backend = m.dynamic ?? this.snapshot.backends[m.backend];
        if (!backend) return;
        const up = sendUpstream(backend, m.req, m.body, m.streaming, (s) => {
          const id = slot.nextStream++;
          slot.streams.set(id, s);
          return id;
        });
        slot.upstreams.set(m.pid, up);
        return;
      }
      case 'upChunk':
        slot.upstreams.get(m.pid)?.write(m.data);
        return;
      case 'upEnd':
        slot.upstreams.get(m.pid)?.end();
        return;
      case 'done':
        this.finish(slot, m.error);
        return;
    }
    if (!a || !('rid' in m) || a.rid !== m.rid) return;
    switch (m.op) {
      case 'respond': {
        const piped = m.pipe === undefined ? undefined : slot.streams.get(m.pipe);
        this.respond(a, m.status, m.headers, m.body, m.streaming, piped?.contentLength);
        if (piped) this.pipe(a, piped);
        return;
      }
      case 'chunk':
        a.chain = a.chain.then(() => writeAsync(a.res, m.data));
        return;
      case 'pipe': {
        const stream = slot.streams.get(m.stream);
        if (stream) this.pipe(a, stream);
        return;
      }
      case 'end':
        a.chain = a.chain.then(() => {
          if (!a.res.writableEnded) a.res.end();
        });
        return;
    }
  }

  private pipe(a: Active, stream: RemoteStream): void {
    a.chain = a.chain.then(async () => {
      for (;;) {
        const chunk = await stream.read(1 << 20);
        if (!chunk) break;
        await writeAsync(a.res, chunk);
      }
    });
    // A backend that breaks off mid-body cannot be reported in-band: cut the client's connection too.
    a.chain = a.chain.catch(() => {
      a.res.destroy();
    });
  }

  private respond(
    a: Active,
    status: number,
    guestHeaders: Header[],
    body: Uint8Array | null,
    streaming: boolean,
    knownLength?: number,
  ): void {
    if (a.started) return;
    a.started = true;
    a.status = status;
    const headers = stripHopByHop(guestHeaders).filter(([n]) => n !== 'content-length');
    const raw: string[] = [];
    for (const [n, v] of headers) raw.push(n, v);
    const noBody = NO_BODY_STATUS.has(status) || status < 200;
    if (!streaming) {
      const data = body ?? new Uint8Array(0);
      if (!noBody) raw.push('content-length', String(data.length));
      a.res.writeHead(status, raw);
      a.res.end(noBody || a.req.method === 'HEAD' ? undefined : data);
      return;
    }
    if (knownLength !== undefined && !noBody) raw.push('content-length', String(knownLength));
    a.res.writeHead(status, raw);
    if (noBody) a.res.end();
    // A streamed body may stall: the client has its status and headers now, as Viceroy sends them,
    // not once the first chunk moves (Node holds headers back until the first write).
    else a.res.flushHeaders();
  }

  private finish(slot: Slot, error: string | undefined): void {
    const a = slot.active;
    if (a) {
      clearTimeout(a.timer);
      if (error) this.warn(`compute-host: ${a.req.method} ${a.req.url}: ${error}`);
      if (!a.started) {
        this.fail(a, 500, error ?? 'the guest finished without sending a response');
      } else {
        // A streamed body is finished only by the guest closing it (queued before 'done'); one it
        // left open must not look finished, so the connection is cut instead.
        a.chain = a.chain.then(() => {
          if (a.res.writableEnded) return;
          this.warn(`compute-host: ${a.req.method} ${a.req.url}: the guest left its streamed response unfinished; cutting it off`);
          a.res.destroy(new Error(error ?? 'unfinished streaming body'));
        });
      }
    }
    this.cleanupAfter(slot, a);
    slot.active = null;
    if (!slot.dead) {
      slot.idleSince = performance.now();
      this.idle.push(slot);
      this.pump();
    }
  }

  /** Backend streams outlive the guest only while a response is still being piped from them. */
  private cleanupAfter(slot: Slot, a: Active | null): void {
    const upstreams = [...slot.upstreams.values()];
    const streams = [...slot.streams.values()];
    slot.upstreams = new Map();
    slot.streams = new Map();
    const drop = () => {
      for (const u of upstreams) u.destroy();
      for (const s of streams) s.destroy();
    };
    if (a) void a.chain.finally(drop);
    else drop();
  }

  private async answer(slot: Slot, rpc: Rpc): Promise<void> {
    let reply: unknown;
    const waits = rpc.op === 'wait' || rpc.op === 'read' || rpc.op === 'select';
    if (waits) {
      slot.blocked = true;
      if (this.queue.length > 0) this.grow();
    }
    try {
      reply = await this.rpc(slot, rpc);
    } catch {
      // A read reports its own failure (ReadResult); nothing else has an error reply.
      reply = null;
    }
    slot.blocked = false;
    if (slot.dead) return;
    slot.port.postMessage(reply);
    Atomics.store(slot.signal, 0, 1);
    Atomics.notify(slot.signal, 0);
  }

  private async rpc(slot: Slot, rpc: Rpc): Promise<unknown> {
    switch (rpc.op) {
      case 'wait': {
        const up = slot.upstreams.get(rpc.pid);
        if (!up) return { ok: false, tag: 'internal_error', message: 'unknown request' } satisfies WaitResult;
        return await up.result;
      }
      case 'read': {
        const stream = slot.streams.get(rpc.stream);
        if (!stream) return { data: null };
        try {
          const chunk = await stream.read(rpc.max);
          return { data: chunk ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) : null };
        } catch (err) {
          return { error: (err as Error).message };
        }
      }
      case 'ready':
        return this.isReady(slot, rpc.item);
      case 'select': {
        const ready = rpc.items.findIndex((item) => this.isReady(slot, item));
        if (ready >= 0) return ready;
        const waits = rpc.items.map((item, i) => this.whenReady(slot, item).then(() => i));
        if (rpc.timeoutMs > 0) {
          waits.push(new Promise<number>((resolve) => setTimeout(() => resolve(-1), rpc.timeoutMs)));
        }
        return await Promise.race(waits);
      }
      case 'kv':
        return this.kv.run(rpc.kv);
      case 'erl':
        return this.erl.run(rpc.erl);
    }
  }

  private isReady(slot: Slot, item: RemoteItem): boolean {
    if (item.kind === 'pending') return slot.upstreams.get(item.id)?.settled != null || !slot.upstreams.has(item.id);
    const s = slot.streams.get(item.id);
    return !s || s.ready;
  }

  private whenReady(slot: Slot, item: RemoteItem): Promise<unknown> {
    if (item.kind === 'pending') return slot.upstreams.get(item.id)?.result ?? Promise.resolve();
    return slot.streams.get(item.id)?.whenReady() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.shrinkTimer);
    const server = this.server;
    if (server) {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    for (const slot of this.slots) {
      slot.dead = true;
      this.cleanupAfter(slot, null);
      slot.port.close();
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

function seedSignature(config: LocalServer): string {
  return JSON.stringify(config.kvStores, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
}

function writeAsync(res: http.ServerResponse, data: Uint8Array): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    if (res.write(data)) {
      resolve();
      return;
    }
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
