// The main thread's side of one worker's I/O: the backend requests its guest sent, the streams it
// reads (backend bodies and the client's body), and the answers to its blocking calls.
import type http from 'node:http';
import type { KvStores } from './kv-store.js';
import type { OneWay, RemoteItem, Rpc, WaitResult } from './protocol.js';
import type { RateLimiter } from './rate-limiter.js';
import { RemoteStream } from './remote-stream.js';
import { sendUpstream, type Upstream } from './upstream.js';

type SendMessage = Extract<OneWay, { op: 'send' }>;

export class GuestIo {
  private upstreams = new Map<number, Upstream>();
  private streams = new Map<number, RemoteStream>();
  private nextStream = 1;

  constructor(
    private readonly kv: KvStores,
    private readonly erl: RateLimiter,
  ) {}

  private register(stream: RemoteStream): number {
    const id = this.nextStream++;
    this.streams.set(id, stream);
    return id;
  }

  stream(id: number): RemoteStream | undefined {
    return this.streams.get(id);
  }

  /** The client's request body, read by the guest through the same streams as backend bodies. */
  downstreamBody(req: http.IncomingMessage): number | null {
    const length = req.headers['content-length'];
    if (length === undefined && req.headers['transfer-encoding'] === undefined) return null;
    if (length === '0') return null;
    const declared = Number(length);
    return this.register(new RemoteStream(req, 0, Number.isSafeInteger(declared) ? declared : undefined, true));
  }

  send(m: SendMessage): void {
    const body = m.bodyStream === undefined ? m.body : (this.streams.get(m.bodyStream) ?? null);
    this.upstreams.set(
      m.upstreamId,
      sendUpstream(m.backend, m.req, body, m.streaming, (s) => this.register(s)),
    );
  }

  upChunk(upstreamId: number, data: Uint8Array): void {
    this.upstreams.get(upstreamId)?.write(data);
  }

  upEnd(upstreamId: number): void {
    this.upstreams.get(upstreamId)?.end();
  }

  /** Whether `rpc` may wait on the network (its worker then uses no CPU until answered). */
  static waits(rpc: Rpc): boolean {
    return rpc.op === 'wait' || rpc.op === 'read' || rpc.op === 'select';
  }

  async answer(rpc: Exclude<Rpc, { op: 'next' }>): Promise<unknown> {
    switch (rpc.op) {
      case 'wait': {
        const up = this.upstreams.get(rpc.upstreamId);
        if (!up)
          return {
            ok: false,
            tag: 'internal_error',
            message: `no backend request ${rpc.upstreamId} on this worker`,
          } satisfies WaitResult;
        return await up.result;
      }
      case 'read': {
        const stream = this.streams.get(rpc.stream);
        if (!stream) return { data: null };
        try {
          const chunk = await stream.read(rpc.max);
          return { data: chunk ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) : null };
        } catch (err) {
          return { error: (err as Error).message };
        }
      }
      case 'ready':
        return this.isReady(rpc.item);
      case 'select': {
        const ready = rpc.items.findIndex((item) => this.isReady(item));
        if (ready >= 0) return ready;
        const waits = rpc.items.map((item, i) => this.whenReady(item).then(() => i));
        if (rpc.timeoutMs > 0)
          waits.push(new Promise<number>((resolve) => setTimeout(() => resolve(-1), rpc.timeoutMs)));
        return await Promise.race(waits);
      }
      case 'kv':
        return this.kv.run(rpc.kv);
      case 'erl':
        return this.erl.run(rpc.erl);
    }
  }

  private isReady(item: RemoteItem): boolean {
    if (item.kind === 'pending') return this.upstreams.get(item.id)?.settled != null || !this.upstreams.has(item.id);
    const s = this.streams.get(item.id);
    return !s || s.ready;
  }

  private whenReady(item: RemoteItem): Promise<unknown> {
    if (item.kind === 'pending') return this.upstreams.get(item.id)?.result ?? Promise.resolve();
    return this.streams.get(item.id)?.whenReady() ?? Promise.resolve();
  }

  /**
   * Drops what the finished request used: backend connections and streams outlive it only while
   * its response is still being piped from them (`until`).
   */
  release(until: Promise<void> | null): void {
    const upstreams = [...this.upstreams.values()];
    const streams = [...this.streams.values()];
    this.upstreams = new Map();
    this.streams = new Map();
    const drop = () => {
      for (const u of upstreams) u.destroy();
      for (const s of streams) s.destroy();
    };
    if (until) void until.finally(drop);
    else drop();
  }
}
