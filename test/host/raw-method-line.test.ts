// The request line of a request Node's parser refused (host/src/raw-method-line.ts): where that
// request begins in what the parser was given, read from llhttp's own errors, and the line the host
// hands the parser instead. In process, no sockets.
import http from 'node:http';
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  METHOD_HEADER,
  readRequestLine,
  refusedRequestStart,
  statusOnly,
  type ParseError,
} from '../../host/src/raw-method-line.js';

/** The error Node's parser raises on `bytes`, sent as one read on a fresh connection. */
function parserError(bytes: string): Promise<ParseError> {
  const server = http.createServer();
  return new Promise((resolve) => {
    server.on('clientError', (err: ParseError, socket: Duplex) => {
      resolve(err);
      socket.destroy();
    });
    const socket = new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
    server.emit('connection', socket);
    socket.push(Buffer.from(bytes, 'latin1'));
  });
}

const head = (line: string): string => `${line}\r\nHost: shop.test\r\n\r\n`;
const bodyRequest = (body: string): string =>
  `POST /form HTTP/1.1\r\nHost: shop.test\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

describe('refusedRequestStart, on the errors Node raises', () => {
  it.each([
    ['a lower-case method', head('get / HTTP/1.1'), 0],
    ['a custom method', head('FOO / HTTP/1.1'), 0],
    ['a method that begins like a known one (llhttp stops after GET)', head('GETX / HTTP/1.1'), 0],
    ['a method Node knows only from RTSP (llhttp stops at HTTP)', head('PLAY / HTTP/1.1'), 0],
    ['a method that is not a token (refused later, by its line)', head('G(T / HTTP/1.1'), 0],
    [
      'a custom method pipelined after a request',
      head('GET / HTTP/1.1') + head('purge / HTTP/1.1'),
      head('GET / HTTP/1.1').length,
    ],
    ['a custom method pipelined after a body', bodyRequest('ok') + head('FOO / HTTP/1.1'), bodyRequest('ok').length],
    // The corner case in host/README: a body ending in letters llhttp takes for a method's start.
    [
      'a custom method pipelined after a body ending in A-Z',
      bodyRequest('OK') + head('FOO / HTTP/1.1'),
      bodyRequest('OK').length - 2,
    ],
  ])('finds where the refused request begins: %s', async (_what, bytes, start) => {
    expect(refusedRequestStart(await parserError(bytes))).toBe(start);
  });

  it.each([
    ['a header name that is not a token', 'GET / HTTP/1.1\r\nBad Header: x\r\n\r\n'],
    ['a bad HTTP version', head('GET / HTTP/1.x')],
  ])('answers -1 for an error about anything else: %s', async (_what, bytes) => {
    const err = await parserError(bytes);
    expect(err.code).not.toBe('HPE_INVALID_METHOD');
    expect(refusedRequestStart(err)).toBe(-1);
  });

  it('answers -1 when the error says nothing of where the parser stopped', () => {
    const packet = Buffer.from(head('get / HTTP/1.1'), 'latin1');
    const refused = (fields: Partial<ParseError>): ParseError =>
      Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', ...fields });
    expect(refusedRequestStart(refused({ rawPacket: packet, bytesParsed: 0 }))).toBe(0);
    expect(refusedRequestStart(refused({ bytesParsed: 0 }))).toBe(-1);
    expect(refusedRequestStart(refused({ rawPacket: packet }))).toBe(-1);
    expect(refusedRequestStart(refused({ rawPacket: packet, bytesParsed: packet.length + 1 }))).toBe(-1);
    expect(refusedRequestStart(refused({ rawPacket: 'get', bytesParsed: 0 }))).toBe(-1);
  });
});

describe('readRequestLine', () => {
  const LIMIT = 16 * 1024;
  const read = (text: string, limit = LIMIT) => readRequestLine(Buffer.from(text, 'latin1'), limit);

  it('shows the parser POST with the method as sent in the private header right below, the rest unchanged', () => {
    const line = read('get /a?b=1 HTTP/1.1\r\nHost: shop.test\r\n\r\nbody');
    expect(line.kind).toBe('replayed');
    if (line.kind !== 'replayed') return;
    expect(line.method).toBe('get');
    expect(line.head.toString('latin1')).toBe(
      `POST /a?b=1 HTTP/1.1\r\n${METHOD_HEADER}: get\r\nHost: shop.test\r\n\r\nbody`,
    );
  });

  it('keeps a bare LF line end, and any bytes after the line as they were', () => {
    const rest = Buffer.from([0x48, 0x3a, 0x20, 0xff, 0x00, 0x0a, 0x0a]);
    const line = readRequestLine(
      Buffer.concat([Buffer.from("x-y_z!#$%&'*+.^`|~9 * HTTP/1.0\n", 'latin1'), rest]),
      LIMIT,
    );
    expect(line.kind).toBe('replayed');
    if (line.kind !== 'replayed') return;
    expect(line.method).toBe("x-y_z!#$%&'*+.^`|~9");
    const rewritten = Buffer.from(`POST * HTTP/1.0\n${METHOD_HEADER}: x-y_z!#$%&'*+.^\`|~9\n`, 'latin1');
    expect(line.head.equals(Buffer.concat([rewritten, rest]))).toBe(true);
  });

  it('waits for the line end, up to the header limit', () => {
    expect(read('FOO /still-arriving')).toEqual({ kind: 'partial' });
    expect(read('FOO /0123456789', 15)).toEqual({ kind: 'partial' });
    expect(read('FOO /0123456789', 14)).toEqual({ kind: 'too-long' });
  });

  it.each([
    ['a method that is not a token', 'G(T / HTTP/1.1'],
    ['a tab for the space', 'GET\t/ HTTP/1.1'],
    ['a byte past ASCII in the method', 'G\u00c9T / HTTP/1.1'],
    ['no method', ' / HTTP/1.1'],
    ['no HTTP version', 'FOO /'],
    ['a space in the target', 'FOO /a b HTTP/1.1'],
    ['a version that is not x.y', 'FOO / HTTP/1'],
  ])('refuses a whole line Node would answer 400: %s', (_what, requestLine) => {
    expect(read(`${requestLine}\r\nHost: shop.test\r\n\r\n`)).toEqual({ kind: 'refused' });
  });
});

describe('the private header and the bare answers', () => {
  it('names the header in lower case, as the request listener compares it, with a random part', () => {
    expect(METHOD_HEADER).toMatch(/^x-compute-host-method-[0-9a-f]{24}$/);
  });

  it('answers as Node does, closing the connection', () => {
    expect(statusOnly(431).toString('latin1')).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
    );
    expect(statusOnly(400).toString('latin1')).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
});
