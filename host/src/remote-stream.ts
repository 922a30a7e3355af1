// A body the guest reads in pieces from the main thread (a backend response, or the client's request
// body), buffered with back-pressure and cut off when the bytes stop coming.
import type { Readable } from 'node:stream';

const HIGH_WATER = 1 << 20;

/** A backend response body: buffered with back-pressure, read in pieces by the guest. */
export class RemoteStream {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private error: string | null = null;
  private waiters: Array<() => void> = [];
  private between: NodeJS.Timeout | null = null;

  constructor(
    private readonly source: Readable,
    private readonly betweenBytesMs: number,
    /** The backend's Content-Length, when the bytes reach the guest unchanged. */
    readonly contentLength?: number,
    /** For a downstream request: unread bytes are discarded rather than the connection cut. */
    private readonly dumpOnDestroy = false,
  ) {
    source.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      if (this.buffered > HIGH_WATER) source.pause();
      this.arm();
      this.wake();
    });
    source.on('end', () => {
      this.ended = true;
      this.disarm();
      this.wake();
    });
    source.on('error', (err) => this.fail(err.message));
    source.on('close', () => {
      if (!this.ended) this.fail('connection closed before the body was complete');
    });
    this.arm();
  }

  private arm(): void {
    this.disarm();
    if (this.betweenBytesMs > 0 && !this.ended) {
      this.between = setTimeout(() => {
        this.fail('between-bytes timeout');
        this.source.destroy();
      }, this.betweenBytesMs);
    }
  }

  private disarm(): void {
    if (this.between) clearTimeout(this.between);
    this.between = null;
  }

  private fail(message: string): void {
    if (this.ended || this.error) return;
    this.error = message;
    this.disarm();
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  get ready(): boolean {
    return this.chunks.length > 0 || this.ended || this.error !== null;
  }

  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Up to `max` bytes; null at the end. Throws when the backend broke off. */
  async read(max: number): Promise<Buffer | null> {
    await this.whenReady();
    const first = this.chunks[0];
    if (first) {
      let out: Buffer;
      if (first.length <= max) {
        this.chunks.shift();
        out = first;
      } else {
        out = first.subarray(0, max);
        this.chunks[0] = first.subarray(max);
      }
      this.buffered -= out.length;
      if (this.buffered < HIGH_WATER / 4 && this.source.isPaused()) this.source.resume();
      return out;
    }
    if (this.error) throw new Error(this.error);
    return null;
  }

  destroy(): void {
    this.disarm();
    this.ended = true;
    this.chunks = [];
    if (this.dumpOnDestroy) {
      // Destroying a request also destroys its socket, which would cut off the response being sent.
      this.source.removeAllListeners('data');
      this.source.resume();
    } else {
      this.source.destroy();
    }
    this.wake();
  }
}
