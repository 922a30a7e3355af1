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
// The pieces: raw-method-line.ts finds the refused request and rewrites its line (pure bytes);
// raw-method-replay.ts carries the connection on to the replays; this file wires them into the server.
import type http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { METHOD_HEADER, refusedRequestStart, statusOnly, type ParseError } from './raw-method-line.js';
import { countRequest, Relay, Replay, requestsSeen } from './raw-method-replay.js';

/** Sockets whose parser gave up and whose bytes now flow to a replay: their errors are ignored. */
const retired = new WeakSet<object>();

/** Lets requests whose method Node's parser does not know reach the request listeners as sent. */
export function passRawMethods(server: http.Server): void {
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    restoreMethod(req);
    countRequest(req, res);
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
    if (start === 0 && requestsSeen(socket) === 0 && socket.bytesRead > packet.length) {
      answerAsNode(err, socket);
      return;
    }
    relay = new Relay(server, socket);
    pending = [packet.subarray(start)];
  }
  retired.add(socket);
  relay.replay(socket, pending);
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
