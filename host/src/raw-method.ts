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
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { METHOD_HEADER, Relay, Replay, statusOnly } from './raw-replay.js';

export { METHOD_HEADER };

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
    relay = new Relay(server, socket, whenIdle);
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
