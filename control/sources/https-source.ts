// The controller as Fastly's HTTPS log endpoint: Fastly POSTs (or PUTs) batches of the room's
// decision lines to it, as newline-delimited text or as a JSON array (the endpoint's `json_format`
// 2 or 1). Before it sends anything, Fastly proves the receiver wants its logs: it GETs
// /.well-known/fastly/logging/challenge and expects, each on its own line, the hex SHA-256 of the
// service's id, or `*` to accept any service. Fastly only posts to https:// URLs: give a certificate
// (--tls-cert, --tls-key), or put this behind a TLS-terminating proxy and serve plain HTTP.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { Source } from './source.js';

export const CHALLENGE_PATH = '/.well-known/fastly/logging/challenge';

export interface HttpsSourceOptions {
  /** 0 picks a free port. */
  port: number;
  /** Fastly must reach it: all interfaces by default. */
  host?: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Service ids whose logs are accepted; none: any service (`*`). */
  serviceIds: readonly string[];
  /** A header every batch must carry (the endpoint's header_name and header_value), or none. */
  secret?: { name: string; value: string } | null;
  /** Largest batch accepted, bytes (Fastly's own default cap is far larger; batches here are small). */
  maxBodyBytes?: number;
  log: (message: string) => void;
}

export interface HttpsSource extends Source {
  url: string;
  counts: { batches: number; refused: number; malformed: number; tooLarge: number };
  closed: Promise<void>;
}

/** The body the challenge expects: one hex SHA-256 per accepted service id, or `*`. */
export function challengeBody(serviceIds: readonly string[]): string {
  if (serviceIds.length === 0) return '*\n';
  return `${serviceIds.map((id) => createHash('sha256').update(id).digest('hex')).join('\n')}\n`;
}

/** A batch's lines: a JSON array's entries (objects re-serialised), else the text's lines. */
export function batchLines(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const items: unknown = JSON.parse(trimmed); // a broken array is a malformed batch, not lines
    if (!Array.isArray(items)) throw new Error('not a JSON array');
    return items.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  }
  return text.split(/\r?\n/).filter((l) => l.trim() !== '');
}

function sameSecret(got: string | string[] | undefined, want: string): boolean {
  if (typeof got !== 'string') return false;
  const a = Buffer.from(got);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

function answer(res: ServerResponse, status: number, body = ''): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

type Counts = HttpsSource['counts'];

/** The endpoint's requests: Fastly's challenge, and the log batches (checked for the secret, a size, gzip). */
function batchHandler(
  options: HttpsSourceOptions,
  counts: Counts,
  onLine: (text: string) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const max = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const challenge = challengeBody(options.serviceIds);
  const told = { unreadable: false };
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === CHALLENGE_PATH)
      return req.method === 'GET' || req.method === 'HEAD' ? answer(res, 200, challenge) : answer(res, 405);
    if (req.method !== 'POST' && req.method !== 'PUT') return answer(res, 405, 'POST or PUT log batches here\n');
    if (options.secret && !sameSecret(req.headers[options.secret.name.toLowerCase()], options.secret.value)) {
      counts.refused++;
      req.resume();
      return answer(res, 401, `missing or wrong ${options.secret.name} header\n`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > max) {
        counts.tooLarge++;
        options.log(`a log batch of ${size} bytes was refused (over ${max})`);
        return answer(res, 413);
      }
      received(req, res, chunks, { options, counts, told, onLine });
    });
  };
}

/** A whole batch: its lines given on once it is answered; one that cannot be read refused (said once). */
function received(
  req: IncomingMessage,
  res: ServerResponse,
  chunks: Buffer[],
  c: { options: HttpsSourceOptions; counts: Counts; told: { unreadable: boolean }; onLine: (text: string) => void },
): void {
  let lines: string[];
  try {
    const raw = Buffer.concat(chunks);
    const body = /gzip/i.test(String(req.headers['content-encoding'] ?? '')) ? gunzipSync(raw) : raw;
    lines = batchLines(body.toString('utf8'));
  } catch (error) {
    c.counts.malformed++;
    if (!c.told.unreadable)
      c.options.log(
        `a log batch could not be read (${(error as Error).message}); skipped, and so will be others like it`,
      );
    c.told.unreadable = true;
    return answer(res, 400, 'unreadable batch\n');
  }
  c.counts.batches++;
  answer(res, 200);
  for (const line of lines) c.onLine(line);
}

export function httpsSource(options: HttpsSourceOptions, onLine: (text: string) => void): Promise<HttpsSource> {
  const tls = options.tlsCertFile !== undefined && options.tlsKeyFile !== undefined;
  const counts = { batches: 0, refused: 0, malformed: 0, tooLarge: 0 };
  const handle = batchHandler(options, counts, onLine);
  const server: Server = tls
    ? createHttps({ cert: readFileSync(options.tlsCertFile!), key: readFileSync(options.tlsKeyFile!) }, handle)
    : createHttp(handle);
  return listen(server, options, tls, counts);
}

/** The server listening, as a source: its address, its counts, and dead once it closes. */
function listen(server: Server, options: HttpsSourceOptions, tls: boolean, counts: Counts): Promise<HttpsSource> {
  const host = options.host ?? '0.0.0.0';
  return new Promise((resolve, reject) => {
    let resolveClosed!: () => void;
    const closed = new Promise<void>((r) => (resolveClosed = r));
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? `port ${options.port} is in use` : error.message;
      reject(new Error(`the HTTPS log endpoint cannot listen on ${host}:${options.port}: ${why}`));
    });
    server.listen(options.port, host, () => {
      const port = (server.address() as AddressInfo).port;
      const source: HttpsSource = {
        name: `${tls ? 'https' : 'http'} log endpoint :${port}`,
        url: `${tls ? 'https' : 'http'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/`,
        error: null,
        dead: false,
        counts,
        closed,
        stop() {
          server.close(() => resolveClosed());
          server.closeAllConnections();
        },
      };
      server.on('error', (error) => (source.error = `the log endpoint failed: ${error.message}`));
      server.on('close', () => {
        source.dead = true;
        source.error ??= 'the log endpoint was closed';
      });
      resolve(source);
    });
  });
}
