// The network side of the virtual browsers: one keep-alive connection pool to the room, and a cap on
// requests in flight. node:http rather than fetch: fetch's pool (undici's) can only be configured
// through the undici package, which is not a dependency here, while http.Agent gives keep-alive and a
// socket limit directly. Requests beyond the cap wait in a FIFO queue; the queue's length is reported,
// since a long one means the browsers come back later than their pages asked.
import http from 'node:http';
import type { LoadAnswer, LoadRequest } from './browser.js';

export interface HttpClientOptions {
  /** The identity header each browser sends its id in. */
  header: string;
  /** Requests in flight at most (and sockets in the pool). */
  concurrency: number;
  /** A request without a complete answer after this long fails as "timeout". */
  timeoutMs: number;
}

/** Bodies beyond this are read and dropped: the page parser needs the start of a page only. */
const BODY_KEEP = 256 * 1024;

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;
  private active = 0;
  private readonly queue: (() => void)[] = [];
  /** The most requests that waited for a free slot at once. */
  maxQueued = 0;
  /** How long each request since the last `takeSlotWaits()` waited for a free slot, ms. */
  private slotWaits: number[] = [];

  constructor(
    baseUrl: string,
    private readonly options: HttpClientOptions,
  ) {
    this.base = new URL(baseUrl);
    if (this.base.protocol !== 'http:')
      throw new Error(`--url must be http:// (the local room), not ${this.base.protocol}`);
    // `timeout` makes the agent honour the room's `Keep-Alive: timeout=N` (it closes an idle connection
    // a second before the server would); without it a virtual browser that waited about that long
    // reuses a connection the server is closing and sees ECONNRESET, an error no real browser reports.
    this.agent = new http.Agent({
      keepAlive: true,
      maxSockets: options.concurrency,
      maxFreeSockets: options.concurrency,
      timeout: 4_000,
    });
  }

  /**
   * The slot waits since the last call, ms (0 for a request sent at once): how late this tool itself
   * made its browsers, apart from the room's own answer times.
   */
  takeSlotWaits(): number[] {
    const waits = this.slotWaits;
    this.slotWaits = [];
    return waits;
  }

  get queued(): number {
    return this.queue.length;
  }

  get inFlight(): number {
    return this.active;
  }

  readonly send = async (request: LoadRequest): Promise<LoadAnswer> => {
    await this.slot();
    try {
      return await this.once(request);
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  };

  private slot(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      this.slotWaits.push(0);
      return Promise.resolve();
    }
    const queuedAt = performance.now();
    return new Promise((resolve) => {
      this.queue.push(() => {
        this.active++;
        this.slotWaits.push(performance.now() - queuedAt);
        resolve();
      });
      this.maxQueued = Math.max(this.maxQueued, this.queue.length);
    });
  }

  private once(request: LoadRequest): Promise<LoadAnswer> {
    const headers: Record<string, string> = {
      [this.options.header]: request.visitor,
      'user-agent': 'waiting-room-load/1',
      // What the page's fetch and a browser's navigation send.
      accept: request.json ? 'application/json' : 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
    };
    if (request.json) headers['cache-control'] = 'no-store';
    if (request.cookie !== null) headers.cookie = request.cookie;
    return new Promise<LoadAnswer>((resolve, reject) => {
      const req = http.request(
        {
          protocol: 'http:',
          hostname: this.base.hostname,
          port: this.base.port || 80,
          path: request.path,
          method: 'GET',
          headers,
          agent: this.agent,
          timeout: this.options.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept < BODY_KEEP) chunks.push(chunk);
            kept += chunk.length;
          });
          res.on('end', () => {
            const ra = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: typeof ra === 'string' ? ra : null,
              setCookies: res.headers['set-cookie'] ?? [],
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', (error) => reject(new Error(describe(error))));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (error) => reject(new Error(describe(error))));
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A short, countable cause: the errno code when there is one ("ECONNREFUSED"), else the message. */
function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  return code ?? error.message;
}
