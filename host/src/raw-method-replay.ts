// A connection handed on from a request Node's parser refused: the socket's bytes go from there to
// a Replay, a Duplex the server's parser reads as a new connection (`server.emit('connection', …)`),
// with the refused request's line rewritten (raw-method-line.ts); the Replay writes back to the
// socket. Each further refused method on the connection gets a new Replay, which takes over once
// every response already begun there has been written, so responses keep their order.
import http from 'node:http';
import type net from 'node:net';
import { Duplex } from 'node:stream';
import { readRequestLine, statusOnly } from './raw-method-line.js';

interface Tracked {
  /** Requests on the connection whose response has not closed yet. */
  open: number;
  /** Requests the connection has carried. */
  seen: number;
  /** Called once `open` is back to 0. */
  whenIdle: (() => void)[];
}

/** Requests are counted per socket (a net.Socket or a Replay), so a replay can wait its turn. */
const tracked = new WeakMap<object, Tracked>();

function track(socket: object): Tracked {
  let t = tracked.get(socket);
  if (!t) {
    t = { open: 0, seen: 0, whenIdle: [] };
    tracked.set(socket, t);
  }
  return t;
}

function whenIdle(socket: object, then: () => void): void {
  const t = track(socket);
  if (t.open === 0) then();
  else t.whenIdle.push(then);
}

/** Counts a request on its socket until its response closes. */
export function countRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
  const t = track(req.socket);
  t.open++;
  t.seen++;
  res.once('close', () => {
    if (--t.open === 0) for (const then of t.whenIdle.splice(0)) then();
  });
}

/** How many requests the socket has carried. */
export function requestsSeen(socket: object): number {
  return tracked.get(socket)?.seen ?? 0;
}

/**
 * A socket whose bytes go to replays: after the first refused method, everything it receives is
 * handed to the newest replay, and every replay writes to it.
 */
export class Relay {
  /** The replay that receives what the client sends. */
  current: Replay | null = null;
  private ended = false;
  private readonly live = new Set<Replay>();

  constructor(
    readonly server: http.Server,
    readonly socket: net.Socket,
  ) {
    // The parser that failed must not see another byte: drop its data listener; adding ours makes
    // Node stop feeding the parser straight from the socket's handle (it does so on any 'data'
    // listener), so the bytes arrive here.
    socket.removeAllListeners('data');
    socket.on('data', (chunk: Buffer) => {
      if (this.current && !this.current.feed(chunk)) socket.pause();
    });
    socket.on('end', () => {
      this.ended = true;
      this.current?.feedEnd();
    });
    socket.on('close', () => {
      for (const r of this.live) r.destroy();
    });
    socket.on('error', () => {
      // 'close' follows and ends the replays.
    });
  }

  /** Hands the connection, from `pending` on, to a new replay once `previous` has answered all it read. */
  replay(previous: net.Socket | Replay, pending: Buffer[]): void {
    const next = new Replay(this);
    this.live.add(next);
    next.once('close', () => this.live.delete(next));
    this.current = next;
    let more = true;
    for (const chunk of pending) if (chunk.length > 0) more = next.feed(chunk);
    if (this.ended) next.feedEnd();
    // Read on until the request line is complete, however the old parser left the socket; the
    // replay's buffer pauses it again once full.
    if (more) this.socket.resume();
    else this.socket.pause();
    whenIdle(previous, () => {
      const begin = () => {
        if (previous instanceof Replay) {
          previous.retire();
        } else {
          // The old parser's keep-alive timer and timeout handler would end the connection; from
          // here the replays set its timeouts.
          previous.removeAllListeners('timeout');
          previous.on('timeout', () => this.current?.emitTimeout());
        }
        this.socket.setTimeout(0);
        next.start();
      };
      if (previous instanceof Replay) previous.whenWritten(begin);
      else begin();
    });
  }
}

/**
 * The connection as the server's parser sees it from a refused request on: the request line with
 * the method the parser knows and the private header below it, then the bytes as they arrive.
 */
export class Replay extends Duplex {
  /** The method as sent, until the request it came with has restored it. */
  method: string | null = null;
  /** Bytes of the request line read so far; null once it has been read whole. */
  private line: Buffer | null = Buffer.alloc(0);
  /** null until the request line has been read: then 'ok', or the status to refuse it with. */
  private verdict: 'ok' | number | null = null;
  private started = false;
  private isRetired = false;
  private inputEnded = false;
  private readonly writtenWaiters: (() => void)[] = [];
  /** A request line still unfinished after the server's headersTimeout gets Node's 408. */
  private readonly lineTimer: NodeJS.Timeout;

  constructor(readonly relay: Relay) {
    super({ allowHalfOpen: true });
    this.lineTimer = setTimeout(() => this.decide(408), relay.server.headersTimeout || 60_000);
    this.lineTimer.unref();
  }

  get remoteAddress(): string | undefined {
    return this.relay.socket.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.relay.socket.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.relay.socket.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.relay.socket.localAddress;
  }
  get localPort(): number | undefined {
    return this.relay.socket.localPort;
  }
  address(): ReturnType<net.Socket['address']> {
    return this.relay.socket.address();
  }
  setTimeout(ms: number, callback?: () => void): this {
    if (!this.isRetired) this.relay.socket.setTimeout(ms);
    if (callback) this.once('timeout', callback);
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.relay.socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.relay.socket.setKeepAlive(enable, delay);
    return this;
  }
  /** Ends the connection once what was written has gone out, as net.Socket's does. */
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  emitTimeout(): void {
    if (this.started && !this.destroyed) this.emit('timeout');
  }

  /** Takes bytes from the client; false when the socket should stop reading for now. */
  feed(chunk: Buffer): boolean {
    if (this.line === null) return this.inputEnded ? true : this.push(chunk);
    // Refused already: the rest is not read.
    if (this.verdict !== null) return true;
    this.line = Buffer.concat([this.line, chunk]);
    const limit = (this.relay.server as { maxHeaderSize?: number }).maxHeaderSize || http.maxHeaderSize;
    const read = readRequestLine(this.line, limit);
    switch (read.kind) {
      case 'partial':
        return true;
      case 'too-long':
        this.decide(431);
        return true;
      case 'refused':
        this.line = null;
        this.decide(400);
        return true;
      case 'replayed': {
        this.line = null;
        this.method = read.method;
        const more = this.push(read.head);
        this.decide('ok');
        return more;
      }
    }
  }

  feedEnd(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    // A request line cut off by the client's end: what Node answers an incomplete request.
    if (this.line !== null) this.decide(400);
    else this.push(null);
  }

  private decide(verdict: 'ok' | number): void {
    if (this.verdict !== null) return;
    this.verdict = verdict;
    clearTimeout(this.lineTimer);
    if (this.started) this.begin();
  }

  /** Called once the connection is this replay's to answer on. */
  start(): void {
    this.started = true;
    if (this.verdict !== null) this.begin();
  }

  private begin(): void {
    const socket = this.relay.socket;
    if (this.destroyed || socket.destroyed || socket.writableEnded) {
      this.destroy();
      return;
    }
    if (this.verdict === 'ok') {
      this.relay.server.emit('connection', this);
      return;
    }
    // A request line Node would refuse too, or one that never ended: the answer Node sends.
    socket.end(statusOnly(this.verdict as number), () => socket.destroy());
  }

  /** The bytes this replay was handed and its parser never read; its parser is finished. */
  takeUnread(): Buffer[] {
    this.removeAllListeners('data');
    this.pause();
    const unread: Buffer[] = [];
    for (let chunk: Buffer | null; (chunk = this.read() as Buffer | null) !== null; ) unread.push(chunk);
    return unread;
  }

  /** Calls `then` once everything written here has been handed to the socket. */
  whenWritten(then: () => void): void {
    if (this.writableLength === 0 || this.destroyed) then();
    else this.writtenWaiters.push(then);
  }

  /** Lets go of the connection (the next replay has it) without closing it. */
  retire(): void {
    this.isRetired = true;
    this.destroy();
  }

  override _read(): void {
    if (this.relay.current === this) this.relay.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.relay.socket.write(chunk, encoding)) this.written(callback);
    else this.relay.socket.once('drain', () => this.written(callback));
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    const socket = this.relay.socket;
    socket.cork();
    let flowing = true;
    for (const { chunk, encoding } of chunks) flowing = socket.write(chunk, encoding);
    socket.uncork();
    if (flowing) this.written(callback);
    else socket.once('drain', () => this.written(callback));
  }

  private written(callback: (error?: Error | null) => void): void {
    callback();
    if (this.writableLength === 0) for (const then of this.writtenWaiters.splice(0)) then();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.isRetired) callback();
    else this.relay.socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.lineTimer);
    for (const then of this.writtenWaiters.splice(0)) then();
    if (!this.isRetired) this.relay.socket.destroy();
    callback(error);
  }
}
