// A tiny local origin for the host's tests and its bench: it echoes what it received, streams, waits,
// fails and redirects on request, over HTTP or HTTPS.
import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  bodyLength: number;
  bodySha256: string;
  /** The body as text when it is small enough to be worth comparing directly. */
  body: string | null;
}

export interface OriginOptions {
  /**
   * Streaming mode (`GET /stream?chunks=N`): chunk i is written only after `gate(i)` resolves, so a
   * test can prove the host forwards chunk 0 before the origin has produced chunk 1.
   */
  gate?: (index: number) => Promise<void>;
  /** Serve HTTPS with this PEM key and certificate (see `selfSignedCertificate`). */
  tls?: { key: string; cert: string };
}

export interface Origin {
  url: string;
  port: number;
  /** Requests received so far, in order. */
  received: ReceivedRequest[];
  stop(): Promise<void>;
}

/**
 * A tiny local origin. `/stream?chunks=N` streams N lines (see `gate`); `/slow?ms=N` waits N ms
 * before answering; `/bytes?n=N` answers N bytes of `pattern()`; `/status/NNN` answers that status
 * (3xx with `location: /elsewhere`); `/broken` drops the connection mid-body; `/set-cookies` sets two cookies; `/gzip` answers the echo
 * gzip-encoded; any other path echoes the request as JSON (`ReceivedRequest`).
 */
export async function startOrigin(options: OriginOptions = {}): Promise<Origin> {
  const received: ReceivedRequest[] = [];
  const handler = originHandler(received, options);
  const server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Records every request, then answers it as its path asks (see `startOrigin`). */
function originHandler(received: ReceivedRequest[], options: OriginOptions): RequestListener {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://origin');
    const record = await receive(req, url);
    received.push(record);
    if (url.pathname === '/stream') {
      await streamChunks(url, res, options.gate);
      return;
    }
    if (answerFixed(url, res, record)) return;
    if (url.pathname === '/slow') {
      await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get('ms') ?? '1000')));
    }
    if (url.pathname === '/bytes') {
      const data = pattern(Number(url.searchParams.get('n') ?? '0'));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
      res.end(data);
      return;
    }
    const json = JSON.stringify(record);
    res.writeHead(200, { 'content-type': 'application/json', 'x-origin': 'echo' });
    res.end(json);
  };
}

type Request = Parameters<RequestListener>[0];
type Response = Parameters<RequestListener>[1];

/** Reads the whole body and records the request. */
async function receive(req: Request, url: URL): Promise<ReceivedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return {
    method: req.method ?? '',
    path: `${url.pathname}${url.search}`,
    headers: req.headers,
    bodyLength: body.length,
    bodySha256: createHash('sha256').update(body).digest('hex'),
    body: body.length <= 64 * 1024 ? body.toString('utf8') : null,
  };
}

/** `/stream?chunks=N`: N lines, each after `gate(i)` when one is given. */
async function streamChunks(url: URL, res: Response, gate: OriginOptions['gate']): Promise<void> {
  const count = Number(url.searchParams.get('chunks') ?? '3');
  res.writeHead(200, { 'content-type': 'text/plain' });
  // The status and headers go out at once, as a real origin's do, whatever the body does next.
  res.flushHeaders();
  for (let i = 0; i < count; i++) {
    if (gate) await gate(i);
    res.write(`chunk ${i}\n`);
  }
  res.end();
}

/** The answers that need no waiting: `/status/NNN`, `/broken`, `/set-cookies`, `/gzip`. False for any other path. */
function answerFixed(url: URL, res: Response, record: ReceivedRequest): boolean {
  const status = /^\/status\/(\d{3})$/.exec(url.pathname);
  if (status) {
    const code = Number(status[1]);
    res.writeHead(code, code >= 300 && code < 400 ? { location: '/elsewhere' } : {});
    res.end(code === 204 || code === 304 ? undefined : `status ${code}\n`);
    return true;
  }
  if (url.pathname === '/broken') {
    // Headers and a first chunk, then the connection drops: a body that fails mid-stream.
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial ');
    setTimeout(() => res.destroy(), 50);
    return true;
  }
  if (url.pathname === '/set-cookies') {
    res.setHeader('set-cookie', ['one=1; Path=/', 'two=2; Path=/; Secure']);
    res.end('cookies\n');
    return true;
  }
  if (url.pathname === '/gzip') {
    const data = gzipSync(JSON.stringify(record));
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': data.length,
    });
    res.end(data);
    return true;
  }
  return false;
}

/** Deterministic bytes; the fixture apps use the same formula, so both ends agree without a copy. */
export function pattern(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}
