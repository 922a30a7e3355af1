// Request methods Node's HTTP parser refuses, handed to the guest as they were sent.
//
// Viceroy (hyper) takes any token as a method and passes it on unchanged: `get`, `purge`, `FOO`.
// Node's parser (llhttp) knows a fixed list of upper-case methods and answers anything else with a
// clientError (HPE_INVALID_METHOD) before the host sees a request. `passRawMethods(server)` catches
// that error, finds where the refused request begins in the bytes the parser was given, and replays
// the connection from there into the same server (`server.emit('connection', …)`) through a Duplex
// over the socket. The Duplex hands the parser the request line with its method swapped for one
// llhttp knows (STAND_IN) and the method as sent in a header right below it, whose name is random
// per process. A 'request' listener put in front of the host's own takes that header out of every
// request and, for the request it was written into, sets `req.method` back: the host and the guest
// see the method as sent, and no header a client sends can change a method.
//
// The connection stays open (keep-alive): later requests on it reach the replay's parser as usual,
// and one with another unknown method is replayed again the same way. Responses keep their order:
// a replay starts only once every response already begun on the connection has been written.
//
// A request line whose method is not a token (RFC 9110: tchar+), or that has no `HTTP/x.y`, gets
// the 400 Node would have sent, from the host; the guest never runs. So do the other parse errors.
//
// Where the refused request begins is read back from where llhttp stopped, over the letters it took
// for the start of a method it knows (A-Z, '-', '_'). Two corner cases follow, both in host/README:
// a request pipelined in the same read straight after a Content-Length body ending in such letters
// gets them in its method; and a method whose first letters came in an earlier read than the one
// refused is answered 400 on a connection's first request (those bytes went into the parser) and
// read from the later read on a later one (nothing tells it apart from a request starting there).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Duplex } from 'node:stream';

/** RFC 9110 token: the only methods a request line may carry. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The rest of a request line after its method: a target and an HTTP version. */
const TARGET_AND_VERSION = /^[^ ]+ HTTP\/\d\.\d$/;
/**
 * The method the parser is shown in place of the real one: one llhttp knows whose request is framed
 * like any other (not CONNECT, which opens a tunnel) and whose response has a body (not HEAD).
 */
const STAND_IN = 'POST';
/** Carries the method as sent past the parser. Random per process, so no client can name it. */
export const METHOD_HEADER = `x-compute-host-method-${randomBytes(12).toString('hex')}`;

/** What llhttp attaches to a parse error (`bytesParsed`: where in `rawPacket` it stopped). */
type ParseError = Error & { code?: string; reason?: string; bytesParsed?: number; rawPacket?: unknown };

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
/** Sockets whose parser gave up and whose bytes now flow to a replay: their errors are ignored. */
const retired = new WeakSet<object>();

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

/** Lets requests whose method Node's parser does not know reach the request listeners as sent. */
export function passRawMethods(server: http.Server): void {
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    restoreMethod(req);
    const t = track(req.socket);
    t.open++;
    t.seen++;
    res.once('close', () => {
      if (--t.open === 0) for (const then of t.whenIdle.splice(0)) then();
    });
  });
  server.on('clientError', (err: ParseError, socket: net.Socket | Replay) => onClientError(server, err, socket));
}

/** Takes the private header out of a request and, where the host wrote it, restores the method. */
function restoreMethod(req: http.IncomingMessage): void {
  if (req.headers[METHOD_HEADER] === undefined) return;
  delete req.headers[METHOD_HEADER];
  let carried: string | undefined;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() !== METHOD_HEADER) continue;
    // The host writes it as the first header line; any other copy came from the client.
    if (i === 0) carried = raw[1];
    raw.splice(i, 2);
  }
  const socket = req.socket;
  // Only the first request of a replay carries it, and only with the method the host read there.
  if (socket instanceof Replay && socket.method !== null && carried === socket.method) {
    req.method = socket.method;
    socket.method = null;
  }
}

function onClientError(server: http.Server, err: ParseError, socket: net.Socket | Replay): void {
  // A parser that was replaced by a replay fails again on anything it is still handed (or times
  // out on the request it could not read); the replay answers for the connection now.
  if (retired.has(socket)) return;
  const start = refusedRequestStart(err);
  if (start < 0 || !(socket instanceof Replay || socket instanceof net.Socket)) {
    answerAsNode(err, socket);
    return;
  }
  const packet = err.rawPacket as Buffer;
  let relay: Relay;
  let pending: Buffer[];
  if (socket instanceof Replay) {
    relay = socket.relay;
    pending = [packet.subarray(start), ...socket.takeUnread()];
  } else {
    // The first request of a connection that began in an earlier read than the one refused: those
    // bytes went into the parser and are gone, so the method cannot be read whole.
    if (start === 0 && track(socket).seen === 0 && socket.bytesRead > packet.length) {
      answerAsNode(err, socket);
      return;
    }
    relay = new Relay(server, socket);
    pending = [packet.subarray(start)];
  }
  retired.add(socket);
  relay.replay(socket, pending);
}

/**
 * Where in the refused packet the request whose method llhttp did not know begins, or -1 when the
 * error is about something else. llhttp stops inside the method (HPE_INVALID_METHOD), or, for a
 * method it knows only from RTSP (PLAY, SETUP, …), once it reads `HTTP` at the line's end.
 */
function refusedRequestStart(err: ParseError): number {
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  if (!Buffer.isBuffer(packet) || typeof at !== 'number' || at < 0 || at > packet.length) return -1;
  let end: number;
  if (err.code === 'HPE_INVALID_METHOD') {
    end = at;
  } else if (err.code === 'HPE_INVALID_CONSTANT' && err.reason === 'Invalid method for HTTP/x.x request' && at > 0) {
    const line = packet.lastIndexOf(0x0a, at - 1) + 1;
    end = packet.indexOf(0x20, line);
    if (end < 0 || end > at) return -1;
  } else {
    return -1;
  }
  // Back over what llhttp took for the start of a method it knows (A-Z, '-', '_'); before that is
  // the end of the previous message, CR LF, or the start of the packet.
  let start = end;
  while (start > 0 && isKnownMethodByte(packet[start - 1]!)) start--;
  return start;
}

function isKnownMethodByte(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x5f;
}

const ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** What Node does on a clientError when nobody listens, which a listener turns off. */
function answerAsNode(err: ParseError, socket: Duplex): void {
  // Node's own check: never write into a response that has begun.
  const inFlight = (socket as { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(statusOnly(ERROR_STATUS[err.code ?? ''] ?? 400));
  socket.destroy(err);
}

function statusOnly(status: number): Buffer {
  return Buffer.from(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`, 'latin1');
}

/**
 * A socket whose bytes go to replays: after the first refused method, everything it receives is
 * handed to the newest replay, and every replay writes to it.
 */
class Relay {
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
  /** Bytes of the request line read so far; null once it has been rewritten. */
  private line: Buffer[] | null = [];
  private lineLength = 0;
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
    this.line.push(chunk);
    this.lineLength += chunk.length;
    const head = Buffer.concat(this.line);
    this.line = [head];
    const lf = head.indexOf(0x0a);
    if (lf < 0) {
      // As Node counts the request line into its header limit (431 past it).
      const limit = (this.relay.server as { maxHeaderSize?: number }).maxHeaderSize || http.maxHeaderSize;
      if (this.lineLength > limit) this.decide(431);
      return true;
    }
    this.line = null;
    const text = head.subarray(0, lf).toString('latin1');
    const eol = text.endsWith('\r') ? '\r\n' : '\n';
    const requestLine = eol === '\r\n' ? text.slice(0, -1) : text;
    const space = requestLine.indexOf(' ');
    const method = requestLine.slice(0, Math.max(space, 0));
    const rest = requestLine.slice(space + 1);
    if (!TOKEN.test(method) || !TARGET_AND_VERSION.test(rest)) {
      this.decide(400);
      return true;
    }
    this.method = method;
    const rewritten = Buffer.from(`${STAND_IN} ${rest}${eol}${METHOD_HEADER}: ${method}${eol}`, 'latin1');
    const more = this.push(Buffer.concat([rewritten, head.subarray(lf + 1)]));
    this.decide('ok');
    return more;
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

  override _writev(chunks: { chunk: Buffer; encoding: BufferEncoding }[], callback: (error?: Error | null) => void): void {
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
