// The worker's line to the main thread. One-way messages are posted; a call blocks this thread
// with Atomics.wait until the main thread has done the I/O, because the guest (SpiderMonkey) expects
// its imports to be synchronous.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { OneWay, Rpc } from '../protocol.js';
import { sleep } from './blocking.js';

/** What hostcalls need of the line to the main thread; a unit test hands a sandbox a fake. */
export interface MainThread {
  post(msg: OneWay): void;
  call<T>(rpc: Rpc): T;
  /** Wall time spent blocked in `call` so far (a hostcall's own CPU is its wall time less this). */
  readonly blockedMs: number;
  unsupported(name: string): void;
}

export class Transport implements MainThread {
  private readonly signal: Int32Array;
  private readonly reported = new Set<string>();
  /** Wall time this thread has spent blocked waiting for the main thread's replies (for COMPUTE_HOST_PROFILE). */
  blockedMs = 0;

  constructor(
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
  ) {
    this.signal = new Int32Array(signal);
  }

  // Nothing is transferred, only copied: transferring an ArrayBuffer takes a process-wide V8 lock
  // that every worker's instantiation also takes, and under load the wait cost milliseconds.
  post(msg: OneWay): void {
    this.port.postMessage({ oneWay: msg });
  }

  call<T>(rpc: Rpc): T {
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage({ rpc });
    const waitFrom = performance.now();
    Atomics.wait(this.signal, 0, 0);
    this.blockedMs += performance.now() - waitFrom;
    let reply = receiveMessageOnPort(this.port);
    // The reply is queued before the flag is set, so this is insurance rather than a path in use.
    for (let tries = 0; !reply && tries < 1000; tries++) {
      sleep(1);
      reply = receiveMessageOnPort(this.port);
    }
    if (!reply) throw new Error('host: rpc reply missing');
    return reply.message as T;
  }

  /** Names a hostcall the host does not emulate, once per worker (the main thread dedupes again). */
  unsupported(name: string): void {
    if (this.reported.has(name)) return;
    this.reported.add(name);
    this.post({ op: 'unsupported', name });
  }
}
