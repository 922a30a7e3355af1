// The guest worker threads: started, grown while guests wait on backends, shrunk when idle, and
// replaced when one hangs or dies. Each worker is a Slot; which request it serves is the server's.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { WorkerManifest } from './config.js';
import type { Exchange } from './downstream.js';
import { GuestIo } from './guest-io.js';
import type { KvStores } from './kv-store.js';
import type { MemoryLimits } from './memory-rewrite.js';
import type { NextReply, OneWayMessage, RpcMessage } from './protocol.js';
import type { RateLimiter } from './rate-limiter.js';

export interface Slot {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  io: GuestIo;
  /** The request the worker's guest is serving. */
  exchange: Exchange | null;
  /** The worker runs no instance and can start one. */
  free: boolean;
  /** The worker's sandbox waits for a next request: answering this hands it one. */
  awaitingNext: ((reply: NextReply) => void) | null;
  dead: boolean;
  /** In a hostcall waiting on the network: the worker uses no CPU until it is answered. */
  blocked: boolean;
  idleSince: number;
  /** The version of the manifest this worker has. */
  manifestVersion: number;
}

export interface PoolOptions {
  module: WebAssembly.Module;
  memory: MemoryLimits | null;
  workerUrl: URL;
  verbose: boolean;
  kv: KvStores;
  erl: RateLimiter;
  manifest(): { manifest: WorkerManifest; version: number };
  onMessage(slot: Slot, m: RpcMessage | OneWayMessage): void;
  onLost(slot: Slot, reason: string): void;
}

const PROFILE = process.env.COMPUTE_HOST_PROFILE === '1';

export class Pool {
  readonly slots: Slot[] = [];

  constructor(private readonly opts: PoolOptions) {}

  spawn(): Slot {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const { manifest, version } = this.opts.manifest();
    const worker = new Worker(this.opts.workerUrl, {
      workerData: {
        module: this.opts.module,
        memory: this.opts.memory,
        signal,
        port: port2,
        manifest,
        verbose: this.opts.verbose,
        profile: PROFILE,
      },
      transferList: [port2],
      stdout: false,
      stderr: false,
    });
    const slot: Slot = {
      worker,
      port: port1,
      signal: new Int32Array(signal),
      io: new GuestIo(this.opts.kv, this.opts.erl),
      exchange: null,
      free: true,
      awaitingNext: null,
      dead: false,
      blocked: false,
      idleSince: performance.now(),
      manifestVersion: version,
    };
    port1.on('message', (m: RpcMessage | OneWayMessage) => this.opts.onMessage(slot, m));
    worker.on('error', (err) => this.opts.onLost(slot, `worker failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (!slot.dead) this.opts.onLost(slot, `worker exited with code ${code}`);
    });
    this.slots.push(slot);
    return slot;
  }

  /** Stops a worker for good (the caller answers its request, if any). */
  retire(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    slot.io.release(null);
    slot.awaitingNext = null;
    slot.port.close();
    void slot.worker.terminate();
    this.slots.splice(this.slots.indexOf(slot), 1);
  }

  /** Answers a worker's blocking call and wakes it. */
  reply(slot: Slot, value: unknown): void {
    if (slot.dead) return;
    slot.port.postMessage(value);
    Atomics.store(slot.signal, 0, 1);
    Atomics.notify(slot.signal, 0);
  }

  free(): Slot | undefined {
    return this.slots.find((s) => s.free && !s.dead);
  }

  async close(): Promise<void> {
    const slots = [...this.slots];
    for (const slot of slots) this.retire(slot);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
