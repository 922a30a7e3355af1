// A local stand-in of Fastly's API that the real `fastly` binary talks to (lib/fastly-env.ts points
// it here): the routes in routes.ts, every call counted (method, path, status, time), the API's rate
// limit enforced (rate-limit.ts), and faults on demand (faults.ts: an error status with Fastly's body,
// a 429 with its headers, JSON of the wrong shape, a delay long enough to time a client out).
//
// It also answers HTTP CONNECT with 403: pointed at as HTTPS_PROXY, it keeps the CLI's own calls to
// the outside (its version check) on this machine, and `refused` lists where they were going.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ComputeAcls } from './compute-acls.js';
import { ConfigStores, type Answer } from './config-store.js';
import { faultAnswer, faultFor, type Fault } from './faults.js';
import { LogStreams } from './log-tail.js';
import { createRateLimit, rateLimitHeaders, type RateLimit, type RateVerdict } from './rate-limit.js';
import { match, noRoute, type Request, type State } from './routes.js';
import { parseMultipart } from './multipart.js';
import { SecretStores } from './secret-store.js';
import { Services } from './services.js';
import type { StoreKind } from './version-parts.js';

export type { Fault } from './faults.js';

export interface ApiCall {
  method: string;
  /** The path, without the query. */
  path: string;
  query: string;
  status: number;
  /** When it came, ms since the epoch by the stand-in's clock. */
  at: number;
  /** How long the answer took, ms (wall time). */
  ms: number;
  /** Whether it spent the rate limit. */
  limited: boolean;
}

export interface FastlyApiOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Calls a token may make an hour (default 1,000). */
  callsPerHour?: number;
  /** The rate limit's window, ms (default an hour): a test shortens it to see a 429 reset within seconds. */
  rateLimitWindowMs?: number;
  /** Whether GET and HEAD spend the rate limit (default 'counted', stricter than Fastly: rate-limit.ts). */
  reads?: 'counted' | 'free';
  /** The clock, ms since the epoch (default Date.now): the rate-limit windows and timestamps follow it. */
  clock?: () => number;
  faults?: Fault[];
  /** The only token accepted (default: any non-empty Fastly-Key). */
  token?: string;
  /** How long a log-tail poll is held when there is nothing to send, ms (default 1,000). */
  logHoldMs?: number;
  /** Told of each call once it is answered (status 0: the client went away first). */
  onCall?: (call: ApiCall) => void;
}

export interface FastlyApi extends State {
  url: string;
  calls: ApiCall[];
  /** The faults in force; push or splice to change them while running. */
  faults: Fault[];
  /** Where the CLI tried to go outside (CONNECT host:port), refused. */
  refused: string[];
  rateLimit: RateLimit;
  /** A Config Store's items, key -> value. */
  store(id: string): Record<string, string>;
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

interface Body {
  body: unknown;
  /** The fields of a form or multipart body. */
  form: Map<string, string> | null;
  files: Map<string, Buffer>;
}

function parseBody(raw: Buffer, type: string | undefined): Body {
  const files = new Map<string, Buffer>();
  if (raw.length === 0) return { body: null, form: null, files };
  if ((type ?? '').includes('multipart/form-data')) {
    const form = new Map<string, string>();
    for (const part of parseMultipart(raw, type ?? '') ?? []) {
      if (part.filename === undefined) form.set(part.name, part.data.toString('utf8'));
      else files.set(part.name, part.data);
    }
    return { body: Object.fromEntries(form), form, files };
  }
  const text = raw.toString('utf8');
  if ((type ?? '').includes('application/x-www-form-urlencoded')) {
    const form = new Map(new URLSearchParams(text));
    return { body: Object.fromEntries(form), form, files };
  }
  try {
    return { body: JSON.parse(text) as unknown, form: null, files };
  } catch {
    return { body: text, form: null, files };
  }
}

/** What every call shares: the stand-in's stores, its rate limit, its record of calls and its address. */
interface Stand {
  options: FastlyApiOptions;
  clock: () => number;
  rateLimit: RateLimit;
  state: State;
  calls: ApiCall[];
  faults: Fault[];
  /** The stand-in's own address, known once it listens. */
  base: string;
}

export async function startFastlyApi(options: FastlyApiOptions = {}): Promise<FastlyApi> {
  const clock = options.clock ?? Date.now;
  const rateLimit = createRateLimit({
    callsPerHour: options.callsPerHour,
    reads: options.reads,
    windowMs: options.rateLimitWindowMs,
  });
  const state: State = {
    config: new ConfigStores(clock),
    secrets: new SecretStores(clock),
    services: new Services(clock, (id) => storeKind(state, id)),
    logs: new LogStreams(clock, options.logHoldMs),
    acls: new ComputeAcls(),
  };
  const stand: Stand = { options, clock, rateLimit, state, calls: [], faults: options.faults ?? [], base: '' };
  const refused: string[] = [];

  const server = createServer((req, res) => {
    handle(stand, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ msg: 'Internal Server Error', detail: String(error) }));
    });
  });
  // A client that hangs up mid-answer (a CLI killed, a proxy tunnel refused) is no error of the stand-in's.
  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('connect', (req, socket) => {
    socket.on('error', () => undefined);
    refused.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  stand.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    ...state,
    url: stand.base,
    calls: stand.calls,
    faults: stand.faults,
    refused,
    rateLimit,
    store: (id) => state.config.values(id),
    stop: async () => {
      state.logs.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One call: counted, checked against the token and the rate limit, faulted if asked, then routed. */
async function handle(stand: Stand, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { options, rateLimit } = stand;
  const started = performance.now();
  const at = stand.clock();
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', stand.base);
  const found = match(method, url.pathname);
  const limited = found?.route.free !== true;
  const call: ApiCall = { method, path: url.pathname, query: url.search, status: 0, at, ms: 0, limited };
  countCall(stand, call, res, started);
  const send = (answer: Answer, headers: Record<string, string>): void => {
    const text = answer.body === null ? '' : JSON.stringify(answer.body);
    res
      .writeHead(answer.status, { ...(text === '' ? {} : { 'Content-Type': 'application/json' }), ...headers })
      .end(text);
  };

  const text = await readBody(req);
  const key = req.headers['fastly-key'];
  const token = typeof key === 'string' ? key : '';
  const verdict = limited ? rateLimit.take(token, method, at) : rateLimit.peek(token, at);
  const headers = rateLimitHeaders(verdict);
  if (limited && (token === '' || (options.token !== undefined && token !== options.token))) {
    send({ status: 401, body: { msg: 'Provided credentials are missing or invalid' } }, headers);
    return;
  }
  if (!verdict.ok) {
    send(tooMany(rateLimit, verdict, at), headers);
    return;
  }
  const fault = faultFor(stand.faults, method, url.pathname);
  if (fault?.delayMs !== undefined) await new Promise((r) => setTimeout(r, fault.delayMs));
  if (res.destroyed) return;
  if (fault !== null && (fault.status !== undefined || fault.body !== undefined)) {
    const answer = faultAnswer(fault, at, verdict.reset);
    res.writeHead(answer.status, { ...headers, ...answer.headers }).end(answer.body);
    return;
  }
  if (found === null) {
    send(noRoute(method, url.pathname), headers);
    return;
  }
  const request = routeRequest(method, found.params, url, parseBody(text, req.headers['content-type']), stand.base);
  const answer = found.route.handler(stand.state, { ...request, headers }, res);
  if (answer !== 'streamed') send(answer, headers);
}

/** What a resource id is, for a link to it: a Config Store, a Secret Store or a Compute ACL, and its name. */
function storeKind(state: State, id: string): StoreKind | null {
  const config = state.config.byId.get(id);
  if (config !== undefined) return { type: 'config', name: config.name };
  const secret = state.secrets.byId.get(id);
  if (secret !== undefined) return { type: 'secret-store', name: secret.name };
  const acl = state.acls.byId.get(id);
  return acl === undefined ? null : { type: 'acl', name: acl.name };
}

/** Records the call, and tells `onCall` once it is answered (status 0: the client went away first). */
function countCall(stand: Stand, call: ApiCall, res: ServerResponse, started: number): void {
  stand.calls.push(call);
  let told = false;
  const done = (status: number): void => {
    if (told) return;
    told = true;
    call.status = status;
    call.ms = performance.now() - started;
    stand.options.onCall?.(call);
  };
  res.on('finish', () => done(res.statusCode));
  res.on('close', () => done(0));
}

/** Fastly's 429, saying when the limit resets. */
function tooMany(rateLimit: RateLimit, verdict: RateVerdict, at: number): Answer {
  const wait = verdict.reset - Math.floor(at / 1000);
  return {
    status: 429,
    body: {
      msg: 'Too many requests',
      detail: `over ${rateLimit.callsPerHour} calls an hour; the limit resets in ${wait} s (Fastly-RateLimit-Reset ${verdict.reset})`,
    },
  };
}

/** The request as a route's handler sees it (its rate-limit headers added by the caller). */
function routeRequest(
  method: string,
  params: string[],
  url: URL,
  { body, form, files }: Body,
  base: string,
): Omit<Request, 'headers'> {
  const fields = (): Record<string, string> => {
    if (form !== null) return Object.fromEntries(form);
    const entries = Object.entries((body ?? {}) as Record<string, unknown>);
    return Object.fromEntries(entries.filter((e): e is [string, string] => typeof e[1] === 'string'));
  };
  return {
    method,
    params,
    query: url.searchParams,
    body,
    field: (name) => fields()[name],
    fields,
    file: (name) => files.get(name),
    base,
  };
}
