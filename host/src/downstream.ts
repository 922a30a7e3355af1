// One client request and its response, from the moment it is accepted until the response is
// written: what the guest's respond/chunk/pipe/end messages do to the client's connection.
import http from 'node:http';
import { stripHopByHop } from './message-headers.js';
import type { Header } from './protocol.js';
import type { RemoteStream } from './remote-stream.js';

const NO_BODY_STATUS = new Set([204, 304]);

export class Exchange {
  /** The status line has gone out (by the guest's response or by a failure). */
  started = false;
  status = 0;
  /** Serialises writes to the response (chunks must follow a pipe in order). */
  chain: Promise<void> = Promise.resolve();
  timer: NodeJS.Timeout | null = null;

  constructor(
    readonly rid: number,
    readonly req: http.IncomingMessage,
    readonly res: http.ServerResponse,
    readonly begin: number,
  ) {}

  /** The guest's response head, with its whole body or the start of a stream. */
  respond(
    status: number,
    guestHeaders: Header[],
    body: Uint8Array | null,
    streaming: boolean,
    knownLength?: number,
  ): void {
    if (this.started) return;
    this.started = true;
    this.status = status;
    const headers = stripHopByHop(guestHeaders).filter(([n]) => n !== 'content-length');
    const raw: string[] = [];
    for (const [n, v] of headers) raw.push(n, v);
    const noBody = NO_BODY_STATUS.has(status) || status < 200;
    if (!streaming) {
      const data = body ?? new Uint8Array(0);
      if (!noBody) raw.push('content-length', String(data.length));
      this.res.writeHead(status, raw);
      this.res.end(noBody || this.req.method === 'HEAD' ? undefined : data);
      return;
    }
    if (knownLength !== undefined && !noBody) raw.push('content-length', String(knownLength));
    this.res.writeHead(status, raw);
    if (noBody) this.res.end();
    // A streamed body may stall: the client has its status and headers now, as Viceroy sends them,
    // not once the first chunk moves (Node holds headers back until the first write).
    else this.res.flushHeaders();
  }

  write(data: Uint8Array): void {
    this.chain = this.chain.then(() => writeAsync(this.res, data));
  }

  end(): void {
    this.chain = this.chain.then(() => {
      if (!this.res.writableEnded) this.res.end();
    });
  }

  pipe(stream: RemoteStream): void {
    this.chain = this.chain.then(async () => {
      for (;;) {
        const chunk = await stream.read(1 << 20);
        if (!chunk) break;
        await writeAsync(this.res, chunk);
      }
    });
    // A backend that breaks off mid-body cannot be reported in-band: cut the client's connection too.
    this.chain = this.chain.catch(() => {
      this.res.destroy();
    });
  }

  /** The host answers instead of the guest (a failure before any response), or cuts a started one. */
  fail(status: number, reason: string): void {
    this.clearTimer();
    if (!this.started) {
      this.started = true;
      this.status = status;
      const body = Buffer.from(`${http.STATUS_CODES[status] ?? 'Error'}: ${reason}\n`);
      this.res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length });
      this.res.end(body);
    } else if (!this.res.writableEnded) {
      this.res.destroy();
    }
  }

  /**
   * The guest is done with the request. With no response yet, the client gets a 500; a streamed body
   * is finished only by the guest closing it (queued before this), so one it left open is cut off
   * rather than look whole.
   */
  finish(error: string | undefined, warn: (line: string) => void): void {
    this.clearTimer();
    if (error) warn(`compute-host: ${this.req.method} ${this.req.url}: ${error}`);
    if (!this.started) {
      this.fail(500, error ?? 'the guest finished without sending a response');
      return;
    }
    this.chain = this.chain.then(() => {
      if (this.res.writableEnded) return;
      warn(
        `compute-host: ${this.req.method} ${this.req.url}: the guest left its streamed response unfinished; cutting it off`,
      );
      this.res.destroy(new Error(error ?? 'unfinished streaming body'));
    });
  }

  clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export function writeAsync(res: http.ServerResponse, data: Uint8Array): Promise<void> {
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
