// Backend requests made on behalf of a guest, with Fastly's connect / first-byte /
// between-bytes timeouts; the response body reaches the guest as a RemoteStream.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { unmapIp } from './ip.js';
import type { BackendConfig } from './manifest/backends.js';
import { headerPairs, stripHopByHop } from './message-headers.js';
import type { BackendRequest, SendErrorTag, WaitResult } from './protocol.js';
import { RemoteStream } from './remote-stream.js';

/**
 * How long a pooled backend connection may sit idle before the host closes it; sooner when the backend
 * announces a shorter keep-alive (`Keep-Alive: timeout=N`: Node's agent then closes at N - 1 s). An agent
 * without a timeout of its own ignores that announcement and keeps a connection until the backend closes
 * it, so a request written just as the backend's idle timer fires (5 s in Node's http server) fails with
 * "socket hang up" and the app sees a failed fetch. The timer only closes idle connections: a request
 * waiting for its answer is left to the first-byte and between-bytes timeouts.
 */
export const BACKEND_IDLE_MS = 4_000;

/** Every pool of backend connections (plain, TLS, TLS with a backend's own CA) is made with these. */
const POOL_OPTIONS = { keepAlive: true, maxSockets: 256, timeout: BACKEND_IDLE_MS } as const;

const httpAgent = new http.Agent(POOL_OPTIONS);
const httpsAgent = new https.Agent(POOL_OPTIONS);

const caAgents = new Map<string, https.Agent>();
function caAgent(backend: BackendConfig): https.Agent {
  const key = `${backend.name}\0${backend.caCertificates?.join('')}`;
  let agent = caAgents.get(key);
  if (!agent) {
    agent = new https.Agent({ ...POOL_OPTIONS, ca: backend.caCertificates });
    caAgents.set(key, agent);
  }
  return agent;
}

const TLS_CERT_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME/;

function tagOf(err: NodeJS.ErrnoException): SendErrorTag {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection_refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'dns_error';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection_terminated';
    case 'ETIMEDOUT':
      return 'connection_timeout';
    default:
      if (err.code?.startsWith('HPE_')) return 'http_protocol_error';
      if (err.code && TLS_CERT_ERRORS.test(err.code)) return 'tls_certificate_error';
      if (err.code?.startsWith('ERR_SSL') || err.code?.startsWith('ERR_TLS')) return 'tls_protocol_error';
      return 'internal_error';
  }
}

export interface Upstream {
  result: Promise<WaitResult>;
  /** Settled result, for polls that must not wait. */
  settled: WaitResult | null;
  write(data: Uint8Array): void;
  end(): void;
  destroy(): void;
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** Mirrors Viceroy: Host is override_host, else the request's Host, else the backend's. */
function targetOf(backend: BackendConfig, req: BackendRequest): { path: string; host: string } {
  let original: URL;
  try {
    original = new URL(req.url, 'http://placeholder.invalid');
  } catch {
    original = new URL('http://placeholder.invalid/');
  }
  const hostHeader = req.headers.find(([n]) => n === 'host')?.[1];
  const uriHost = original.host === 'placeholder.invalid' ? undefined : original.host;
  const defaultPort = backend.protocol === 'https:' ? 443 : 80;
  const backendHost = backend.port === defaultPort ? backend.hostname : `${backend.hostname}:${backend.port}`;
  const host = backend.overrideHost ?? hostHeader ?? uriHost ?? backendHost;
  let prefix = backend.pathPrefix;
  if (!prefix.endsWith('/')) prefix += '/';
  const path = prefix + `${original.pathname}${original.search}`.replace(/^\//, '');
  return { path, host };
}

export function sendUpstream(
  backend: BackendConfig,
  req: BackendRequest,
  /** The whole body, or a main-thread stream (the client's body) piped as it arrives. */
  body: Uint8Array | RemoteStream | null,
  streaming: boolean,
  registerStream: (s: RemoteStream) => number,
): Upstream {
  const { path, host } = targetOf(backend, req);
  const headers = requestHeaders(req, host, body, streaming);
  const options = requestOptions(backend, req, path, headers);

  const upstream: Upstream = {
    settled: null,
    result: Promise.resolve({ ok: false, tag: 'internal_error', message: 'not started' }),
    write: () => {},
    end: () => {},
    destroy: () => {},
  };
  const client = (backend.protocol === 'https:' ? https : http).request(options);
  const timers = new RequestTimers(client, backend);

  upstream.result = new Promise<WaitResult>((resolve) => {
    const settle = (r: WaitResult) => {
      if (upstream.settled) return;
      timers.clear();
      upstream.settled = r;
      resolve(r);
    };
    timers.watch();
    client.on('response', (res) => {
      timers.clear();
      settle(responseResult(res, req, backend, registerStream));
    });
    client.on('error', (err: NodeJS.ErrnoException) => {
      settle({ ok: false, tag: timers.failTag ?? tagOf(err), message: err.message });
    });
    client.on('close', () => settle({ ok: false, tag: 'connection_terminated', message: 'connection closed' }));
  });

  sendBody(upstream, client, body, streaming);
  upstream.destroy = () => {
    timers.clear();
    client.destroy();
  };
  return upstream;
}

/** The request's headers without hop-by-hop ones, its Host, and the framing its body needs. */
function requestHeaders(
  req: BackendRequest,
  host: string,
  body: Uint8Array | RemoteStream | null,
  streaming: boolean,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [n, v] of stripHopByHop(req.headers)) {
    if (n === 'host' || n === 'content-length') continue;
    const prev = headers[n];
    headers[n] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  headers.host = host;
  // A whole body is framed by its length, except an empty one on a method that carries none; a
  // piped stream by its declared length when it has one, else chunked.
  if (body instanceof RemoteStream) {
    if (body.contentLength !== undefined) headers['content-length'] = String(body.contentLength);
  } else if (!streaming && ((body && body.length > 0) || !BODYLESS_METHODS.has(req.method))) {
    headers['content-length'] = String(body?.length ?? 0);
  }
  return headers;
}

/** Where and how to connect: the pool, and for TLS the name to present and check and the CAs to trust. */
function requestOptions(
  backend: BackendConfig,
  req: BackendRequest,
  path: string,
  headers: Record<string, string | string[]>,
): https.RequestOptions {
  const options: https.RequestOptions = {
    host: backend.hostname,
    port: backend.port,
    method: req.method,
    path,
    headers,
    agent: backend.protocol === 'https:' ? httpsAgent : httpAgent,
    setHost: false,
  };
  if (backend.protocol === 'https:') {
    const certHost = backend.certHost ?? backend.hostname;
    // SNI carries host names only (RFC 6066).
    if (backend.useSni && isIP(certHost) === 0) options.servername = certHost;
    options.checkServerIdentity = (_host, cert) => tls.checkServerIdentity(certHost, cert);
    if (backend.caCertificates) {
      options.ca = backend.caCertificates;
      // A private CA needs its own pool of connections, or a pooled socket could skip the check.
      options.agent = caAgent(backend);
    }
  }
  return options;
}

/** The connect and first-byte timeouts of one backend request, and the failure they leave behind. */
class RequestTimers {
  private connectTimer: NodeJS.Timeout | null = null;
  private firstByteTimer: NodeJS.Timeout | null = null;
  /** Set when a timeout ended the request: the error that follows is reported as this. */
  failTag: SendErrorTag | null = null;

  constructor(
    private readonly client: http.ClientRequest,
    private readonly backend: BackendConfig,
  ) {}

  /** Starts the connect timer when a socket starts connecting, the first-byte one once the request is sent. */
  watch(): void {
    const { client, backend } = this;
    client.on('socket', (socket) => {
      if (backend.connectTimeoutMs > 0 && (socket as { connecting?: boolean }).connecting) {
        this.connectTimer = setTimeout(() => {
          this.failTag = 'connection_timeout';
          client.destroy(new Error(`connect timeout after ${backend.connectTimeoutMs} ms`));
        }, backend.connectTimeoutMs);
        socket.once('connect', () => this.connectTimer && clearTimeout(this.connectTimer));
      }
    });
    client.on('finish', () => {
      if (backend.firstByteTimeoutMs > 0) {
        this.firstByteTimer = setTimeout(() => {
          this.failTag = 'http_response_timeout';
          client.destroy(new Error(`first-byte timeout after ${backend.firstByteTimeoutMs} ms`));
        }, backend.firstByteTimeoutMs);
      }
    });
  }

  clear(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    if (this.firstByteTimer) clearTimeout(this.firstByteTimer);
  }
}

/** The backend's answer for the guest: its headers, and its body as a stream (gunzipped when asked). */
function responseResult(
  res: http.IncomingMessage,
  req: BackendRequest,
  backend: BackendConfig,
  registerStream: (s: RemoteStream) => number,
): WaitResult {
  let headers = stripHopByHop(headerPairs(res.rawHeaders));
  let source: Readable = res;
  const encoding = headers
    .find(([n]) => n === 'content-encoding')?.[1]
    ?.trim()
    .toLowerCase();
  if (req.autoDecompress && encoding === 'gzip') {
    const gunzip = createGunzip();
    res.on('error', (err) => gunzip.destroy(err));
    source = res.pipe(gunzip);
    headers = headers.filter(([n]) => n !== 'content-encoding' && n !== 'content-length');
  }
  const declared = Number(headers.find(([n]) => n === 'content-length')?.[1]);
  const length = source === res && Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
  const stream = new RemoteStream(source, backend.betweenBytesTimeoutMs, length);
  const remoteAddress = res.socket?.remoteAddress;
  return {
    ok: true,
    status: res.statusCode ?? 502,
    headers,
    stream: registerStream(stream),
    remoteIp: remoteAddress === undefined ? backend.hostname : unmapIp(remoteAddress),
    remotePort: res.socket?.remotePort ?? backend.port,
  };
}

/** The body: piped from a stream, written as the guest streams it, or sent whole. */
function sendBody(
  upstream: Upstream,
  client: http.ClientRequest,
  body: Uint8Array | RemoteStream | null,
  streaming: boolean,
): void {
  if (body instanceof RemoteStream) {
    void pipeInto(body, client);
  } else if (streaming) {
    if (body && body.length > 0) client.write(body);
    upstream.write = (data) => {
      if (!client.destroyed) client.write(data);
    };
    upstream.end = () => {
      if (!client.destroyed && !client.writableEnded) client.end();
    };
  } else {
    client.end(body && body.length > 0 ? body : undefined);
  }
}

/** Sends a main-thread stream as a request body; a stream that breaks off aborts the request. */
async function pipeInto(stream: RemoteStream, client: http.ClientRequest): Promise<void> {
  try {
    for (;;) {
      const chunk = await stream.read(1 << 20);
      if (!chunk) break;
      if (client.destroyed) return;
      if (!client.write(chunk))
        await new Promise<void>((resolve) => client.once('drain', resolve).once('close', resolve));
    }
    if (!client.destroyed) client.end();
  } catch (err) {
    client.destroy(err as Error);
  }
}
