// The request line of a request Node's parser refused for its method, as bytes: where that request
// begins in what the parser was given, whether its line is one the host replays, and the line the
// parser is shown instead. Pure: no sockets, no server.
//
// Where the refused request begins is read back from where llhttp stopped, over the letters it took
// for the start of a method it knows (A-Z, '-', '_'). Two corner cases follow, both in host/README:
// a request pipelined in the same read straight after a Content-Length body ending in such letters
// gets them in its method; and a method whose first letters came in an earlier read than the one
// refused is answered 400 on a connection's first request (those bytes went into the parser) and
// read from the later read on a later one (nothing tells it apart from a request starting there).
import { randomBytes } from 'node:crypto';
import http from 'node:http';

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
export type ParseError = Error & { code?: string; reason?: string; bytesParsed?: number; rawPacket?: unknown };

/**
 * Where in the refused packet the request whose method llhttp did not know begins, or -1 when the
 * error is about something else. llhttp stops inside the method (HPE_INVALID_METHOD), or, for a
 * method it knows only from RTSP (PLAY, SETUP, …), once it reads `HTTP` at the line's end.
 */
export function refusedRequestStart(err: ParseError): number {
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

/** A refused request's head as read so far, from its first byte. */
export type RequestLine =
  /** No line end yet. */
  | { kind: 'partial' }
  /** No line end within the header limit: Node answers 431. */
  | { kind: 'too-long' }
  /** A whole line that is not `<token> <target> HTTP/x.y`: Node answers 400. */
  | { kind: 'refused' }
  /** The head to hand the parser: the line with the stand-in method and the header carrying `method`. */
  | { kind: 'replayed'; method: string; head: Buffer };

/** Reads the request line at the start of `head`; `limit` is the server's header limit in bytes. */
export function readRequestLine(head: Buffer, limit: number): RequestLine {
  const lf = head.indexOf(0x0a);
  // As Node counts the request line into its header limit.
  if (lf < 0) return head.length > limit ? { kind: 'too-long' } : { kind: 'partial' };
  const text = head.subarray(0, lf).toString('latin1');
  const eol = text.endsWith('\r') ? '\r\n' : '\n';
  const requestLine = eol === '\r\n' ? text.slice(0, -1) : text;
  const space = requestLine.indexOf(' ');
  const method = requestLine.slice(0, Math.max(space, 0));
  const rest = requestLine.slice(space + 1);
  if (!TOKEN.test(method) || !TARGET_AND_VERSION.test(rest)) return { kind: 'refused' };
  const rewritten = Buffer.from(`${STAND_IN} ${rest}${eol}${METHOD_HEADER}: ${method}${eol}`, 'latin1');
  return { kind: 'replayed', method, head: Buffer.concat([rewritten, head.subarray(lf + 1)]) };
}

/** The bare answer Node sends a request it cannot read, closing the connection. */
export function statusOnly(status: number): Buffer {
  return Buffer.from(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`, 'latin1');
}
