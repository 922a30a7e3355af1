// The log stream `fastly log-tail --service-id ID` reads: the CLI turns managed logging on
// (`POST /service/{id}/log_stream/managed/instance_output`, 409 when it is on already), then polls
// `GET` on the same path: each answer is lines of `{"batch_id", "logs": [{sequence_number,
// request_start_us, stream, id, message}]}` and a `Link: <...?from=T>; rel="next"` header naming the
// next window. A poll is held until a test pushes lines or `holdMs` passes, so an idle CLI polls about
// once a second, as against Fastly, instead of spinning. The CLI prints each line as
// `stdout | REQUESTID | message`, after its one-second sort buffer; each line here is a request of its
// own, and the CLI keeps order only within a request, so lines can come out in another order, as on Fastly.
import type { ServerResponse } from 'node:http';
import { apiError, type Answer } from './config-store.js';

interface Waiting {
  res: ServerResponse;
  timer: ReturnType<typeof setTimeout>;
  next: string;
}

interface Stream {
  enabled: boolean;
  pending: string[];
  waiting: Waiting[];
  batch: number;
  sequence: number;
}

export class LogStreams {
  private readonly streams = new Map<string, Stream>();

  constructor(
    private readonly now: () => number,
    private readonly holdMs = 1000,
  ) {}

  private stream(serviceId: string): Stream {
    let s = this.streams.get(serviceId);
    if (s === undefined)
      this.streams.set(serviceId, (s = { enabled: false, pending: [], waiting: [], batch: 0, sequence: 0 }));
    return s;
  }

  /** Whether a `fastly log-tail` has turned managed logging on for the service. */
  enabled(serviceId: string): boolean {
    return this.streams.get(serviceId)?.enabled ?? false;
  }

  /** `POST .../instance_output`: 200 the first time, 409 (already on) after. */
  enable(serviceId: string): Answer {
    const s = this.stream(serviceId);
    if (s.enabled) return apiError(409, 'Conflict', 'managed logging is enabled already');
    s.enabled = true;
    return { status: 200, body: { service_id: serviceId, kind: 'instance_output', status: 'enabled' } };
  }

  /** Lines the service's Compute instances print on stdout, as the log stream will deliver them. */
  push(serviceId: string, lines: readonly string[]): void {
    const s = this.stream(serviceId);
    s.pending.push(...lines);
    const waiting = s.waiting.splice(0);
    for (const w of waiting) {
      clearTimeout(w.timer);
      this.answer(s, w.res, w.next);
    }
  }

  /**
   * `GET .../instance_output?from=T`: answered at once when lines are pending, else held (until lines
   * come or holdMs passes). `link` makes the next window's address from its epoch second.
   */
  poll(serviceId: string, res: ServerResponse, link: (from: number) => string, headers: Record<string, string>): void {
    const s = this.stream(serviceId);
    if (!s.enabled) {
      res
        .writeHead(404, { 'Content-Type': 'application/json', ...headers })
        .end(JSON.stringify({ msg: 'Record not found', detail: 'managed logging is not enabled' }));
      return;
    }
    const next = `<${link(Math.floor(this.now() / 1000))}>; rel="next"`;
    res.setHeader('Content-Type', 'application/x-ndjson');
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (s.pending.length > 0) {
      this.answer(s, res, next);
      return;
    }
    const w: Waiting = { res, next, timer: setTimeout(() => this.release(s, w), this.holdMs) };
    s.waiting.push(w);
    res.on('close', () => this.release(s, w, false));
  }

  private release(s: Stream, w: Waiting, reply = true): void {
    const i = s.waiting.indexOf(w);
    if (i === -1) return;
    s.waiting.splice(i, 1);
    clearTimeout(w.timer);
    if (reply) this.answer(s, w.res, w.next);
  }

  private answer(s: Stream, res: ServerResponse, next: string): void {
    const lines = s.pending.splice(0);
    const startUs = this.now() * 1000;
    const logs = lines.map((message, i) => ({
      sequence_number: (s.sequence += 1),
      request_start_us: startUs + i,
      stream: 'stdout',
      // one request per line: the CLI buffers and sorts lines by request
      id: `req${String(s.sequence).padStart(8, '0')}`.slice(-8),
      message,
    }));
    res.setHeader('Link', next);
    res.writeHead(200);
    res.end(logs.length === 0 ? '' : `${JSON.stringify({ batch_id: `b${(s.batch += 1)}`, logs })}\n`);
  }

  /** Ends every held poll (the server is stopping). */
  close(): void {
    for (const s of this.streams.values()) {
      for (const w of s.waiting.splice(0)) {
        clearTimeout(w.timer);
        w.res.destroy();
      }
    }
  }
}
