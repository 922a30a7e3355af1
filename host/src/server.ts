// The host: accepts downstream requests, hands each to a guest (a sandbox waiting for a next
// request first, else a free worker for a fresh instance), and carries out what the guests ask of
// the main thread. The main thread owns every socket and all shared state.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalServer, WorkerManifest } from './config.js';
import { downstreamUrl } from './downstream-url.js';
import { Exchange } from './downstream.js';
import { GuestIo } from './guest-io.js';
import { unmapIp } from './ip.js';
import { KvStores } from './kv-store.js';
import type { MemoryLimits } from './memory-rewrite.js';
import { headerPairs } from './message-headers.js';
import { Pool, type Slot } from './pool.js';
import type { DownstreamRequest, NextReply, OneWay, RpcMessage } from './protocol.js';
import { usageLine } from './guest/limits.js';
import { RateLimiter } from './rate-limiter.js';
import { passRawMethods } from './raw-method.js';

export interface HostOptions {
  module: WebAssembly.Module;
  memory: MemoryLimits | null;
  workerUrl: URL;
  workers: number;
  /** The pool grows up to this many while workers sit blocked on backends and requests queue. */
  maxWorkers: number;
  requestTimeoutMs: number;
  verbose: boolean;
  /** Also a line per request of what it used of the per-execution limits (-vv). */
  usage?: boolean;
  config: LocalServer;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}

interface Queued {
  msg: DownstreamRequest;
  exchange: Exchange;
}

const SHRINK_CHECK_MS = 5_000;
const SHRINK_IDLE_MS = 15_000;

export class ComputeHost {
  private readonly pool: Pool;
  private readonly queue: Queued[] = [];
  /** Sandboxes waiting for a next request, the most recent last. */
  private readonly parked: Slot[] = [];
  private readonly kv = new KvStores();
  private readonly erl = new RateLimiter();
  private readonly reportedUnsupported = new Set<string>();
  private manifest: WorkerManifest;
  /** Counts reloads, so a worker is sent the manifest only when its copy is older. */
  private manifestVersion = 1;
  private server: http.Server | null = null;
  private seed: string;
  private nextRid = 1;
  private nextTrace = 0n;
  private closing = false;
  private readonly log: (line: string) => void;
  private readonly warn: (line: string) => void;
  private readonly shrinkTimer: NodeJS.Timeout;

  constructor(private readonly opts: HostOptions) {
    this.manifest = opts.config.workerManifest;
    this.seed = seedSignature(opts.config);
    this.kv.seed(opts.config.kvStores);
    this.log = opts.log ?? ((line) => process.stdout.write(`${line}\n`));
    this.warn = opts.warn ?? ((line) => process.stderr.write(`${line}\n`));
    this.pool = new Pool({
      module: opts.module,
      memory: opts.memory,
      workerUrl: opts.workerUrl,
      verbose: opts.verbose,
      kv: this.kv,
      erl: this.erl,
      manifest: () => ({ manifest: this.manifest, version: this.manifestVersion }),
      onMessage: (slot, m) => {
        if ('rpc' in m) void this.answer(slot, m.rpc);
        else this.oneWay(slot, m.oneWay);
      },
      onLost: (slot, reason) => {
        if (!this.closing) this.replace(slot, reason);
      },
    });
    for (let i = 0; i < opts.workers; i++) this.pool.spawn();
    this.shrinkTimer = setInterval(() => this.shrink(), SHRINK_CHECK_MS);
    this.shrinkTimer.unref();
  }

  /** New store values reach the next request each guest is handed, reused sandboxes included. */
  reload(config: LocalServer): void {
    this.manifest = config.workerManifest;
    this.manifestVersion++;
    // Re-seed the KV stores only when their entries in the manifest changed, so editing another store
    // does not undo KV writes.
    const seed = seedSignature(config);
    if (seed !== this.seed) {
      this.seed = seed;
      this.kv.seed(config.kvStores);
    }
  }

  // ---- downstream ----------------------------------------------------------------------------

  listen(host: string, port: number): Promise<AddressInfo> {
    const server = http.createServer((req, res) => this.accept(req, res));
    // Announced to clients as `Keep-Alive: timeout=5`; Node closes an idle connection a second later.
    // (Viceroy's hyper server never closes one: a client ignoring the announcement can meet our close.)
    server.keepAliveTimeout = 5_000;
    passRawMethods(server); // methods llhttp refuses (`get`, `purge`, `FOO`) reach the guest as sent, as under Viceroy
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
    const rid = this.nextRid++;
    const msg: DownstreamRequest = {
      type: 'request',
      rid,
      method: req.method ?? 'GET',
      url: target,
      headers: headerPairs(req.rawHeaders),
      bodyStream: null,
      clientIp: unmapIp(req.socket.remoteAddress ?? '127.0.0.1'),
      serverIp: unmapIp(req.socket.localAddress ?? '127.0.0.1'),
      traceId: (this.nextTrace++).toString(16).padStart(32, '0'),
    };
    const exchange = new Exchange(rid, req, res, begin);
    if (this.opts.verbose) {
      res.on('finish', () =>
        this.log(`${req.method} ${req.url} ${exchange.status} ${(performance.now() - begin).toFixed(1)}ms`),
      );
    }
    this.queue.push({ msg, exchange });
    this.pump();
  }

  /** Hands queued requests out: to a parked sandbox (reuse) first, then to a free worker. */
  private pump(): void {
    while (this.queue.length > 0) {
      const parked = this.parked.pop();
      const slot = parked ?? this.pool.free();
      if (!slot) break;
      const q = this.queue.shift()!;
      if (q.exchange.res.destroyed) {
        if (parked) this.parked.push(parked);
        continue;
      }
      this.start(slot, q, parked !== undefined);
    }
    if (this.queue.length > 0) this.grow();
  }

  private start(slot: Slot, q: Queued, reuse: boolean): void {
    const ex = q.exchange;
    slot.exchange = ex;
    ex.timer = setTimeout(
      () => this.replace(slot, `request timed out after ${this.opts.requestTimeoutMs} ms`),
      this.opts.requestTimeoutMs,
    );
    q.msg.bodyStream = slot.io.downstreamBody(ex.req);
    const manifest = slot.manifestVersion === this.manifestVersion ? undefined : this.manifest;
    slot.manifestVersion = this.manifestVersion;
    if (reuse) {
      const hand = slot.awaitingNext!;
      slot.awaitingNext = null;
      hand({ request: q.msg, manifest });
    } else {
      slot.free = false;
      slot.worker.postMessage({ ...q.msg, manifest });
    }
  }

  /**
   * Guests block a whole worker while a backend answers, so a slow origin would cap throughput at
   * workers / latency. While requests queue and some workers are only waiting, add workers (a
   * blocked worker costs memory, not CPU).
   */
  private grow(): void {
    if (this.closing) return;
    const slots = this.pool.slots;
    const unblocked = slots.filter((s) => !s.blocked).length;
    const wanted = Math.min(this.queue.length, this.opts.workers - unblocked, this.opts.maxWorkers - slots.length);
    if (wanted <= 0) return;
    for (let i = 0; i < wanted; i++) this.pool.spawn();
    this.pump();
  }

  /** Workers added under load go again once they have been idle a while. */
  private shrink(): void {
    const now = performance.now();
    for (const slot of [...this.pool.slots]) {
      if (this.pool.slots.length <= this.opts.workers) return;
      if (!slot.free || now - slot.idleSince < SHRINK_IDLE_MS) continue;
      this.pool.retire(slot);
    }
  }

  /** A worker that hung or died is thrown away; its request gets a 5xx, the host goes on. */
  private replace(slot: Slot, reason: string): void {
    if (slot.dead) return;
    const ex = slot.exchange;
    if (ex) {
      this.warn(`compute-host: ${ex.req.method} ${ex.req.url}: ${reason}`);
      ex.fail(reason.includes('timed out') ? 504 : 500, reason);
    }
    this.unpark(slot);
    this.pool.retire(slot);
    if (!this.closing) {
      this.pool.spawn();
      this.pump();
    }
  }

  private unpark(slot: Slot): void {
    const i = this.parked.indexOf(slot);
    if (i >= 0) this.parked.splice(i, 1);
  }

  // ---- messages from workers -----------------------------------------------------------------

  private oneWay(slot: Slot, m: OneWay): void {
    switch (m.op) {
      case 'unsupported':
        if (!this.reportedUnsupported.has(m.name)) {
          this.reportedUnsupported.add(m.name);
          this.warn(`compute-host: ${m.name} is not emulated; the guest was answered "unsupported"`);
        }
        return;
      case 'send':
        slot.io.send(m);
        return;
      case 'upChunk':
        slot.io.upChunk(m.upstreamId, m.data);
        return;
      case 'upEnd':
        slot.io.upEnd(m.upstreamId);
        return;
      case 'done': {
        const ex = slot.exchange;
        if (!ex || ex.rid !== m.rid) return;
        if (this.opts.usage && m.usage) this.log(usageLine(ex.req, m.usage));
        ex.finish(m.error, this.warn);
        slot.io.release(ex.chain);
        slot.exchange = null;
        return;
      }
      case 'free':
        if (slot.dead) return;
        slot.free = true;
        slot.idleSince = performance.now();
        this.pump();
        return;
    }
    const ex = slot.exchange;
    if (!ex || ex.rid !== m.rid) return;
    switch (m.op) {
      case 'respond': {
        const piped = m.pipe === undefined ? undefined : slot.io.stream(m.pipe);
        ex.respond(m.status, m.headers, m.body, m.streaming, piped?.contentLength);
        if (piped) ex.pipe(piped);
        return;
      }
      case 'chunk':
        ex.write(m.data);
        return;
      case 'pipe': {
        const stream = slot.io.stream(m.stream);
        if (stream) ex.pipe(stream);
        return;
      }
      case 'end':
        ex.end();
        return;
    }
  }

  private async answer(slot: Slot, rpc: RpcMessage['rpc']): Promise<void> {
    if (rpc.op === 'next') {
      this.park(slot, rpc.timeoutMs);
      return;
    }
    const waits = GuestIo.waits(rpc);
    if (waits) {
      slot.blocked = true;
      if (this.queue.length > 0) this.grow();
    }
    let reply: unknown;
    try {
      reply = await slot.io.answer(rpc);
    } catch {
      // A read reports its own failure (ReadResult); nothing else has an error reply.
      reply = null;
    }
    slot.blocked = false;
    this.pool.reply(slot, reply);
  }

  /** A sandbox offers to take another request; it is told "none" if nothing comes within its wait. */
  private park(slot: Slot, timeoutMs: number): void {
    if (this.closing) {
      this.pool.reply(slot, null satisfies NextReply);
      return;
    }
    const timer = setTimeout(() => {
      if (slot.awaitingNext !== hand) return;
      slot.awaitingNext = null;
      this.unpark(slot);
      this.pool.reply(slot, null satisfies NextReply);
    }, timeoutMs);
    const hand = (reply: NextReply): void => {
      clearTimeout(timer);
      this.pool.reply(slot, reply);
    };
    slot.awaitingNext = hand;
    this.parked.push(slot);
    this.pump();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.shrinkTimer);
    const server = this.server;
    if (server) {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await this.pool.close();
  }
}

function seedSignature(config: LocalServer): string {
  return JSON.stringify(config.kvStores, (_k, v: unknown) =>
    v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v,
  );
}
