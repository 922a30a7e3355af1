// Runs guest requests: one fresh WebAssembly.Instance per request, hostcalls answered here.
// Hostcalls that need the network or shared state block this thread with Atomics.wait while
// the main thread does the work, because the guest (SpiderMonkey) expects synchronous imports.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { ipToBytes, bytesToIp, type BackendConfig, type StoreSnapshot } from './config.js';
import { BADF, BUFLEN, ERROR, HostError, HTTPINVALID, INVAL, INVALID_HANDLE, NONE, OK, UNSUPPORTED } from './abi.js';
import { geoDefaultLoopback } from './geo.js';
import {
  attachMemory,
  copyIn,
  latin1,
  mem,
  r32,
  r64,
  utf8,
  w16,
  w32,
  w64,
  w8,
  writeMulti,
  writeOut,
} from './guest-memory.js';
import { MEMORY_IMPORT, WASM_PAGE } from './limits.js';
import { createWasi, ProcExit, sleep, writeFd } from './wasi.js';
import type {
  BackendRequest,
  DownstreamRequest,
  ErlOp,
  Header,
  KvOp,
  KvResult,
  OneWay,
  ReadResult,
  RemoteItem,
  Rpc,
  SendErrorTag,
  ToWorker,
  WaitResult,
  WorkerInit,
} from './protocol.js';

// FastlyStatus values from Viceroy's typenames.witx.

const HTTP_11 = 2;
const MAX_HEADER_NAME = 65535;

// WASI errno for calls that are not provided at all.
const WASI_ENOSYS = 52;

const SEND_ERROR_TAGS: Record<SendErrorTag, number> = {
  dns_error: 3,
  destination_not_found: 4,
  connection_refused: 7,
  connection_terminated: 8,
  connection_timeout: 9,
  http_incomplete_response: 13,
  http_response_timeout: 16,
  http_protocol_error: 19,
  tls_certificate_error: 11,
  internal_error: 22,
  tls_protocol_error: 24,
};

const KV_OK = 1;
const KV_BAD_REQUEST = 2;
const KV_NOT_FOUND = 3;
const KV_PRECONDITION_FAILED = 4;

const init = workerData as WorkerInit;
const port: MessagePort = init.port;
const signal = new Int32Array(init.signal);
let snapshot: StoreSnapshot = init.snapshot;

interface ReqObj {
  kind: 'req';
  method: string;
  uri: string;
  headers: Header[];
  version: number;
  autoDecompress: boolean;
}
interface RespObj {
  kind: 'resp';
  status: number;
  headers: Header[];
  version: number;
  remoteIp?: string;
  remotePort?: number;
}
type Sink = { type: 'down' } | { type: 'up'; pid: number };
interface BodyObj {
  kind: 'body';
  chunks: Uint8Array[];
  /** Main-thread stream holding the rest of the body, after `chunks`. */
  remote: number | null;
  sink: Sink | null;
}
interface PendingObj {
  kind: 'pending';
  pid: number;
  result?: WaitResult;
}
interface KvPendingObj {
  kind: 'kvpending';
  result: KvResult;
}
type Obj =
  | ReqObj
  | RespObj
  | BodyObj
  | PendingObj
  | KvPendingObj
  | { kind: 'config'; name: string }
  | { kind: 'secretstore'; name: string }
  | { kind: 'secret'; value: Uint8Array }
  | { kind: 'kvstore'; name: string }
  /** Latin-1 text so the name's bytes go out unchanged, whatever their encoding. */
  | { kind: 'log'; name: string }
  | { kind: 'acl'; name: string }
  | { kind: 'nextreq' };

// ---- per-request state -------------------------------------------------------------------

let handles = new Map<number, Obj>();
let nextHandle = 1;
let current: DownstreamRequest | null = null;
let downstreamReq: ReqObj | null = null;
let downstreamBody: BodyObj | null = null;
let responded = false;
let requestStart = 0;
let nextPid = 1;
/** Backends the guest registered during this request (Viceroy keeps them per sandbox too). */
let dynamicBackends = new Map<string, BackendConfig>();

function findBackend(name: string): BackendConfig | undefined {
  return snapshot.backends[name] ?? dynamicBackends.get(name);
}

function add(obj: Obj): number {
  const h = nextHandle++;
  handles.set(h, obj);
  return h;
}

function get<K extends Obj['kind']>(h: number, kind: K): Extract<Obj, { kind: K }> {
  const obj = handles.get(h);
  if (!obj || obj.kind !== kind) throw new HostError(BADF);
  return obj as Extract<Obj, { kind: K }>;
}

// ---- talking to the main thread ------------------------------------------------------------

// Nothing is transferred, only copied: transferring an ArrayBuffer takes a process-wide V8 lock
// that every worker's instantiation also takes, and under load the wait cost milliseconds.
function post(msg: OneWay): void {
  port.postMessage({ oneWay: msg });
}

function call<T>(rpc: Rpc): T {
  Atomics.store(signal, 0, 0);
  port.postMessage({ rpc });
  Atomics.wait(signal, 0, 0);
  let reply = receiveMessageOnPort(port);
  // The reply is queued before the flag is set, so this is insurance rather than a path in use.
  for (let tries = 0; !reply && tries < 1000; tries++) {
    sleep(1);
    reply = receiveMessageOnPort(port);
  }
  if (!reply) throw new Error('host: rpc reply missing');
  return reply.message as T;
}

const reportedUnsupported = new Set<string>();
function unsupported(name: string): number {
  if (!reportedUnsupported.has(name)) {
    reportedUnsupported.add(name);
    post({ op: 'unsupported', name });
  }
  return UNSUPPORTED;
}

// ---- bodies --------------------------------------------------------------------------------

function newBody(): BodyObj {
  return { kind: 'body', chunks: [], remote: null, sink: null };
}

function readBody(body: BodyObj, max: number): Uint8Array {
  while (body.chunks.length > 0) {
    const first = body.chunks[0]!;
    if (first.length === 0) {
      body.chunks.shift();
      continue;
    }
    if (first.length <= max) {
      body.chunks.shift();
      return first;
    }
    body.chunks[0] = first.subarray(max);
    return first.subarray(0, max);
  }
  if (body.remote !== null) {
    const res = call<ReadResult>({ op: 'read', stream: body.remote, max });
    if ('error' in res) {
      body.remote = null;
      throw new HostError(ERROR);
    }
    if (res.data === null) {
      body.remote = null;
      return new Uint8Array(0);
    }
    return res.data;
  }
  return new Uint8Array(0);
}

function drainBody(body: BodyObj): Uint8Array {
  const parts: Uint8Array[] = [];
  for (;;) {
    const chunk = readBody(body, 1 << 20);
    if (chunk.length === 0) break;
    parts.push(chunk);
  }
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts);
}

function sinkWrite(sink: Sink, data: Uint8Array): void {
  if (data.length === 0) return;
  if (sink.type === 'down') post({ op: 'chunk', rid: current!.rid, data });
  else post({ op: 'upChunk', pid: sink.pid, data });
}

function sinkEnd(sink: Sink): void {
  if (sink.type === 'down') post({ op: 'end', rid: current!.rid });
  else post({ op: 'upEnd', pid: sink.pid });
}

function closeBody(h: number): number {
  const body = get(h, 'body');
  if (body.sink) sinkEnd(body.sink);
  body.sink = null;
  handles.delete(h);
  return OK;
}

// ---- headers -------------------------------------------------------------------------------

function headersOf(h: number, kind: 'req' | 'resp'): Header[] {
  return get(h, kind).headers;
}

function headerName(ptr: number, len: number): string {
  if (len > MAX_HEADER_NAME) throw new HostError(INVAL);
  const name = latin1(ptr, len).toLowerCase();
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name)) throw new HostError(HTTPINVALID);
  return name;
}

function headerValue(ptr: number, len: number): string {
  const value = latin1(ptr, len);
  if (/[\r\n\0]/.test(value)) throw new HostError(HTTPINVALID);
  return value;
}

function uniqueNames(headers: Header[]): string[] {
  return [...new Set(headers.map(([n]) => n))];
}

function headerFns(kind: 'req' | 'resp') {
  return {
    header_names_get: (h: number, buf: number, len: number, cursor: number, ending: number, nw: number) =>
      writeMulti(uniqueNames(headersOf(h, kind)), buf, len, cursor, ending, nw),
    header_value_get: (h: number, np: number, nl: number, buf: number, max: number, nw: number) => {
      const name = headerName(np, nl);
      const found = headersOf(h, kind).find(([n]) => n === name);
      if (!found) return NONE;
      return writeOut(Buffer.from(found[1], 'latin1'), buf, max, nw);
    },
    header_values_get: (h: number, np: number, nl: number, buf: number, len: number, cursor: number, ending: number, nw: number) => {
      const name = headerName(np, nl);
      const values = headersOf(h, kind)
        .filter(([n]) => n === name)
        .map(([, v]) => v);
      return writeMulti(values, buf, len, cursor, ending, nw);
    },
    header_values_set: (h: number, np: number, nl: number, vp: number, vl: number) => {
      const name = headerName(np, nl);
      const headers = headersOf(h, kind);
      const raw = latin1(vp, vl);
      const values = raw.split('\0');
      if (values.at(-1) === '') values.pop();
      const kept = headers.filter(([n]) => n !== name);
      headers.length = 0;
      headers.push(...kept, ...values.map((v): Header => [name, v]));
      return OK;
    },
    header_insert: (h: number, np: number, nl: number, vp: number, vl: number) => {
      const name = headerName(np, nl);
      const value = headerValue(vp, vl);
      const headers = headersOf(h, kind);
      const idx = headers.findIndex(([n]) => n === name);
      const kept = headers.filter(([n]) => n !== name);
      if (idx < 0) kept.push([name, value]);
      else kept.splice(Math.min(idx, kept.length), 0, [name, value]);
      headers.length = 0;
      headers.push(...kept);
      return OK;
    },
    header_append: (h: number, np: number, nl: number, vp: number, vl: number) => {
      const name = headerName(np, nl);
      headersOf(h, kind).push([name, headerValue(vp, vl)]);
      return OK;
    },
    header_remove: (h: number, np: number, nl: number) => {
      const name = headerName(np, nl);
      const headers = headersOf(h, kind);
      if (!headers.some(([n]) => n === name)) return INVAL;
      const kept = headers.filter(([n]) => n !== name);
      headers.length = 0;
      headers.push(...kept);
      return OK;
    },
  };
}

// ---- backend requests ----------------------------------------------------------------------

function startSend(reqH: number, bodyH: number, bp: number, bl: number, streaming: boolean): PendingObj {
  const req = get(reqH, 'req');
  const backend = utf8(bp, bl);
  const config = findBackend(backend);
  if (!config) throw new HostError(INVAL);
  const body = bodyH === INVALID_HANDLE ? null : get(bodyH, 'body');
  const pid = nextPid++;
  const breq: BackendRequest = {
    method: req.method,
    url: req.uri,
    // postMessage copies the array as it is now, so later header edits do not reach this request.
    headers: req.headers,
    autoDecompress: req.autoDecompress,
  };
  let data: Uint8Array | null = null;
  if (body) {
    data = drainBody(body);
    if (streaming) body.sink = { type: 'up', pid };
    else handles.delete(bodyH);
  }
  // An undefined `dynamic` reads on the main thread like an absent one (a configured backend).
  post({ op: 'send', pid, backend, req: breq, body: data, streaming, dynamic: dynamicBackends.get(backend) });
  return { kind: 'pending', pid };
}

function waitPending(p: PendingObj): WaitResult {
  if (!p.result) p.result = call<WaitResult>({ op: 'wait', pid: p.pid });
  return p.result;
}

function finishPending(ph: number, detail: number, respOut: number, bodyOut: number): number {
  const p = get(ph, 'pending');
  const res = waitPending(p);
  handles.delete(ph);
  if (!res.ok) {
    // The record is {tag: u32, mask: u32, …} (typenames.witx): the mask says which optional fields
    // the host set, and this host sets none. It used to write one byte of each and leave the rest as
    // the guest passed them in, bits included. (js-compute 3.46 still prints a DNS error's rcode and
    // info code, 0 and 0; whether its debug build stops aborting on them is not checked here.)
    if (detail) {
      w32(detail, SEND_ERROR_TAGS[res.tag]);
      w32(detail + 4, 0);
    }
    w32(respOut, INVALID_HANDLE);
    w32(bodyOut, INVALID_HANDLE);
    return ERROR;
  }
  if (detail) {
    w32(detail, 1);
    w32(detail + 4, 0);
  }
  const resp: RespObj = {
    kind: 'resp',
    status: res.status,
    headers: res.headers,
    version: HTTP_11,
    remoteIp: res.remoteIp,
    remotePort: res.remotePort,
  };
  w32(respOut, add(resp));
  w32(bodyOut, add({ ...newBody(), remote: res.stream }));
  return OK;
}

function remoteItemOf(obj: Obj): RemoteItem | null {
  if (obj.kind === 'pending' && !obj.result) return { kind: 'pending', id: obj.pid };
  if (obj.kind === 'body' && obj.chunks.length === 0 && obj.remote !== null && !obj.sink) {
    return { kind: 'stream', id: obj.remote };
  }
  return null;
}

// ---- downstream response ---------------------------------------------------------------------

function sendDownstream(respH: number, bodyH: number, streaming: number): number {
  if (responded) return ERROR;
  const resp = get(respH, 'resp');
  const body = get(bodyH, 'body');
  responded = true;
  const rid = current!.rid;
  if (streaming) {
    post({ op: 'respond', rid, status: resp.status, headers: resp.headers, body: null, streaming: true });
    for (const chunk of body.chunks) sinkWrite({ type: 'down' }, chunk);
    body.chunks = [];
    if (body.remote !== null) {
      post({ op: 'pipe', rid, stream: body.remote });
      body.remote = null;
    }
    body.sink = { type: 'down' };
  } else if (body.remote !== null && body.chunks.length === 0) {
    // A backend body handed straight back is piped, so the client sees bytes as the backend sends them.
    post({ op: 'respond', rid, status: resp.status, headers: resp.headers, body: null, streaming: true, pipe: body.remote });
    body.remote = null;
    handles.delete(bodyH);
    post({ op: 'end', rid });
  } else {
    const data = drainBody(body);
    handles.delete(bodyH);
    post({ op: 'respond', rid, status: resp.status, headers: resp.headers, body: data, streaming: false });
  }
  handles.delete(respH);
  return OK;
}

// ---- stores --------------------------------------------------------------------------------

function kv(op: KvOp): KvResult {
  return call<KvResult>({ op: 'kv', kv: op });
}

function erl(op: ErlOp): number {
  return call<number>({ op: 'erl', erl: op });
}

function kvErrorCode(r: KvResult): number {
  switch (r.status) {
    case 'ok':
      return KV_OK;
    case 'not_found':
      return KV_NOT_FOUND;
    case 'precondition_failed':
      return KV_PRECONDITION_FAILED;
    default:
      return KV_BAD_REQUEST;
  }
}

function aclLookup(name: string, ip: number[]): { action: string; prefix: string } | null {
  let best: { action: string; prefix: string; bits: number } | null = null;
  for (const e of snapshot.acls[name] ?? []) {
    if (e.network.length !== ip.length) continue;
    let match = true;
    for (let bit = 0; bit < e.bits; bit++) {
      const byte = bit >> 3;
      const mask = 0x80 >> (bit & 7);
      if (((e.network[byte] ?? 0) & mask) !== ((ip[byte] ?? 0) & mask)) {
        match = false;
        break;
      }
    }
    if (match && (!best || e.bits >= best.bits)) best = { action: e.action, prefix: e.prefix, bits: e.bits };
  }
  return best && { action: best.action, prefix: best.prefix };
}

/** `bytes` is a 4- or 16-byte address; bytesToIp gives the canonical text the config is keyed by. */
function geoLookup(bytes: Uint8Array): Record<string, unknown> | null {
  const found = snapshot.geolocation.addresses[bytesToIp(bytes)];
  if (found) return found;
  const loopback = bytes.length === 4 ? bytes[0] === 127 : bytes.every((b, i) => b === (i === 15 ? 1 : 0));
  if (loopback && snapshot.geolocation.useDefaultLoopback) return geoDefaultLoopback;
  return null;
}

// ---- WASI ------------------------------------------------------------------------------------

function environment(): string[] {
  const req = current;
  return [
    'FASTLY_CACHE_GENERATION=0',
    'FASTLY_CUSTOMER_ID=0000000000000000000000',
    'FASTLY_POP=XXX',
    'FASTLY_REGION=Somewhere',
    'FASTLY_SERVICE_ID=0000000000000000000000',
    'FASTLY_SERVICE_VERSION=0',
    'FASTLY_HOSTNAME=localhost',
    'FASTLY_IS_STAGING=0',
    `FASTLY_TRACE_ID=${req?.traceId ?? '0'.repeat(32)}`,
  ];
}

const wasi = createWasi(environment);

// ---- fastly_* ---------------------------------------------------------------------------------

const reqHeaders = headerFns('req');
const respHeaders = headerFns('resp');

function backendNamed(name: string): BackendConfig {
  const b = findBackend(name);
  if (!b) throw new HostError(INVAL);
  return b;
}

function backendOf(p: number, l: number): BackendConfig {
  return backendNamed(utf8(p, l));
}

/** A fastly_backend getter that writes one u32 about a named backend (an unknown name is the guest's error). */
function backendU32(get: (backend: BackendConfig, name: string) => number) {
  return (p: number, l: number, out: number): number => {
    const name = utf8(p, l);
    w32(out, get(backendNamed(name), name));
    return OK;
  };
}

/**
 * A backend's timeouts: Viceroy answers "unsupported" once the name is known (it reports no
 * connection timing), so an app's fallback for that answer runs here as it does there.
 */
function backendTimeoutUnsupported(p: number, l: number): number {
  backendOf(p, l);
  return UNSUPPORTED;
}

/** A fastly_backend getter for a setting the host does not model: "none" once the name is known. */
function backendNone(p: number, l: number): number {
  backendOf(p, l);
  return NONE;
}

function ipBytesOut(ip: string | undefined, out: number, nwritten: number): number {
  const bytes = ip ? ipToBytes(ip) : undefined;
  if (!bytes) return NONE;
  mem().set(bytes, out);
  w32(nwritten, bytes.length);
  return OK;
}

// The downstream request's headers as they arrived, whatever the guest has changed since.
function originalHeaderNames(buf: number, len: number, cursor: number, ending: number, nw: number): number {
  return writeMulti(uniqueNames(current?.headers ?? []), buf, len, cursor, ending, nw);
}

function originalHeaderCount(out: number): number {
  w32(out, uniqueNames(current?.headers ?? []).length);
  return OK;
}

const configStoreCalls = {
  open: (p: number, l: number, out: number) => {
    const name = utf8(p, l);
    if (!snapshot.configStores[name]) return BADF;
    w32(out, add({ kind: 'config', name }));
    return OK;
  },
  get: configGet,
};

const fastly: Record<string, Record<string, (...args: never[]) => number>> = {
  fastly_abi: { init: () => OK },
  fastly_http_downstream: {
    next_request: (_mask: number, _opts: number, out: number) => {
      w32(out, add({ kind: 'nextreq' }));
      return OK;
    },
    // One request per instance, as with Viceroy's default: a reusing guest is told there is no next one.
    next_request_wait: (h: number, reqOut: number, bodyOut: number) => {
      get(h, 'nextreq');
      w32(reqOut, INVALID_HANDLE);
      w32(bodyOut, INVALID_HANDLE);
      return NONE;
    },
    next_request_abandon: (h: number) => {
      get(h, 'nextreq');
      handles.delete(h);
      return OK;
    },
    downstream_client_ip_addr: (_h: number, out: number, nw: number) => ipBytesOut(current?.clientIp, out, nw),
    downstream_server_ip_addr: (_h: number, out: number, nw: number) => ipBytesOut(current?.serverIp, out, nw),
    downstream_client_request_id: (_h: number, buf: number, max: number, nw: number) =>
      writeOut(Buffer.from(current?.traceId ?? ''), buf, max, nw),
    downstream_tls_cipher_openssl_name: () => NONE,
    downstream_tls_protocol: () => NONE,
    downstream_tls_client_hello: () => NONE,
    downstream_tls_raw_client_certificate: () => NONE,
    downstream_tls_client_servername: () => NONE,
    downstream_tls_ja3_md5: () => NONE,
    downstream_tls_ja4: () => NONE,
    downstream_client_h2_fingerprint: () => NONE,
    downstream_client_oh_fingerprint: () => NONE,
    // Nothing is analysed locally: "not analysed" is the honest answer, and apps handle it.
    downstream_bot_analyzed: (_h: number, out: number) => {
      w32(out, 0);
      return OK;
    },
    downstream_bot_detected: (_h: number, out: number) => {
      w32(out, 0);
      return OK;
    },
    downstream_bot_verified: (_h: number, out: number) => {
      w32(out, 0);
      return OK;
    },
    downstream_bot_name: () => NONE,
    downstream_bot_category: () => NONE,
    downstream_bot_category_kind: () => NONE,
    downstream_original_header_names: (_h: number, buf: number, len: number, cursor: number, ending: number, nw: number) =>
      originalHeaderNames(buf, len, cursor, ending, nw),
    downstream_original_header_count: (_h: number, out: number) => originalHeaderCount(out),
  },
  fastly_http_req: {
    register_dynamic_backend: (np: number, nl: number, tp: number, tl: number, mask: number, cfg: number) =>
      registerDynamicBackend(utf8(np, nl), utf8(tp, tl), mask, cfg),
    body_downstream_get: (reqOut: number, bodyOut: number) => {
      if (!downstreamReq || !downstreamBody) return ERROR;
      w32(reqOut, add(downstreamReq));
      w32(bodyOut, add(downstreamBody));
      return OK;
    },
    new: (out: number) => {
      w32(out, add({ kind: 'req', method: 'GET', uri: '/', headers: [], version: HTTP_11, autoDecompress: false }));
      return OK;
    },
    close: (h: number) => {
      get(h, 'req');
      handles.delete(h);
      return OK;
    },
    ...reqHeaders,
    original_header_names_get: originalHeaderNames,
    original_header_count: originalHeaderCount,
    method_get: (h: number, buf: number, max: number, nw: number) => writeOut(Buffer.from(get(h, 'req').method, 'latin1'), buf, max, nw),
    method_set: (h: number, p: number, l: number) => {
      const method = latin1(p, l);
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(method)) return HTTPINVALID;
      get(h, 'req').method = method;
      return OK;
    },
    uri_get: (h: number, buf: number, max: number, nw: number) => writeOut(Buffer.from(get(h, 'req').uri, 'latin1'), buf, max, nw),
    uri_set: (h: number, p: number, l: number) => {
      const uri = latin1(p, l);
      if (/[\s\0]/.test(uri) || uri === '') return HTTPINVALID;
      get(h, 'req').uri = uri;
      return OK;
    },
    version_get: (h: number, out: number) => {
      w32(out, get(h, 'req').version);
      return OK;
    },
    version_set: (h: number, v: number) => {
      if (v > 4) return INVAL;
      get(h, 'req').version = v;
      return OK;
    },
    framing_headers_mode_set: (h: number) => {
      get(h, 'req');
      return OK;
    },
    // There is no cache here, so every override is accepted and has nothing to change.
    cache_override_set: (h: number) => {
      get(h, 'req');
      return OK;
    },
    cache_override_v2_set: (h: number) => {
      get(h, 'req');
      return OK;
    },
    auto_decompress_response_set: (h: number, tag: number) => {
      get(h, 'req').autoDecompress = (tag & 1) === 1;
      return OK;
    },
    send: (reqH: number, bodyH: number, bp: number, bl: number, respOut: number, bodyOut: number) => {
      const p = startSend(reqH, bodyH, bp, bl, false);
      return finishPending(add(p), 0, respOut, bodyOut);
    },
    send_v2: (reqH: number, bodyH: number, bp: number, bl: number, detail: number, respOut: number, bodyOut: number) => {
      const p = startSend(reqH, bodyH, bp, bl, false);
      return finishPending(add(p), detail, respOut, bodyOut);
    },
    send_async: (reqH: number, bodyH: number, bp: number, bl: number, out: number) => {
      w32(out, add(startSend(reqH, bodyH, bp, bl, false)));
      return OK;
    },
    send_async_streaming: (reqH: number, bodyH: number, bp: number, bl: number, out: number) => {
      w32(out, add(startSend(reqH, bodyH, bp, bl, true)));
      return OK;
    },
    send_async_v2: (reqH: number, bodyH: number, bp: number, bl: number, streaming: number, out: number) => {
      w32(out, add(startSend(reqH, bodyH, bp, bl, streaming !== 0)));
      return OK;
    },
    pending_req_wait: (h: number, respOut: number, bodyOut: number) => finishPending(h, 0, respOut, bodyOut),
    pending_req_wait_v2: (h: number, detail: number, respOut: number, bodyOut: number) =>
      finishPending(h, detail, respOut, bodyOut),
    pending_req_poll: (h: number, doneOut: number, respOut: number, bodyOut: number) => {
      const p = get(h, 'pending');
      const ready = p.result !== undefined || call<boolean>({ op: 'ready', item: { kind: 'pending', id: p.pid } });
      if (!ready) {
        w32(doneOut, 0);
        w32(respOut, INVALID_HANDLE);
        w32(bodyOut, INVALID_HANDLE);
        return OK;
      }
      w32(doneOut, 1);
      return finishPending(h, 0, respOut, bodyOut);
    },
    pending_req_select: (hs: number, n: number, idxOut: number, respOut: number, bodyOut: number) => {
      const items: RemoteItem[] = [];
      for (let i = 0; i < n; i++) {
        const p = get(r32(hs + i * 4), 'pending');
        if (p.result) {
          w32(idxOut, i);
          return finishPending(r32(hs + i * 4), 0, respOut, bodyOut);
        }
        items.push({ kind: 'pending', id: p.pid });
      }
      const idx = call<number>({ op: 'select', items, timeoutMs: 0 });
      w32(idxOut, idx);
      return finishPending(r32(hs + idx * 4), 0, respOut, bodyOut);
    },
  },
  fastly_http_resp: {
    new: (out: number) => {
      w32(out, add({ kind: 'resp', status: 200, headers: [], version: HTTP_11 }));
      return OK;
    },
    close: (h: number) => {
      get(h, 'resp');
      handles.delete(h);
      return OK;
    },
    ...respHeaders,
    status_get: (h: number, out: number) => {
      w16(out, get(h, 'resp').status);
      return OK;
    },
    status_set: (h: number, status: number) => {
      if (status < 100 || status > 999) return INVAL;
      get(h, 'resp').status = status;
      return OK;
    },
    version_get: (h: number, out: number) => {
      w32(out, get(h, 'resp').version);
      return OK;
    },
    version_set: (h: number, v: number) => {
      get(h, 'resp').version = v;
      return OK;
    },
    send_downstream: (respH: number, bodyH: number, streaming: number) => sendDownstream(respH, bodyH, streaming),
    framing_headers_mode_set: (h: number) => {
      get(h, 'resp');
      return OK;
    },
    http_keepalive_mode_set: (h: number) => {
      get(h, 'resp');
      return OK;
    },
    get_addr_dest_ip: (h: number, out: number, nw: number) => ipBytesOut(get(h, 'resp').remoteIp, out, nw),
    get_addr_dest_port: (h: number, out: number) => {
      const port = get(h, 'resp').remotePort;
      if (port === undefined) return NONE;
      w16(out, port);
      return OK;
    },
  },
  fastly_http_body: {
    new: (out: number) => {
      w32(out, add(newBody()));
      return OK;
    },
    read: (h: number, buf: number, max: number, nread: number) => {
      const body = get(h, 'body');
      const chunk = readBody(body, max);
      mem().set(chunk, buf);
      w32(nread, chunk.length);
      return OK;
    },
    write: (h: number, buf: number, len: number, end: number, nw: number) => {
      const body = get(h, 'body');
      const data = copyIn(buf, len);
      if (body.sink) sinkWrite(body.sink, data);
      else if (end === 1) body.chunks.unshift(data);
      else body.chunks.push(data);
      w32(nw, len);
      return OK;
    },
    append: (dst: number, src: number) => {
      const d = get(dst, 'body');
      const s = get(src, 'body');
      if (d.sink) {
        if (s.remote !== null && d.sink.type === 'down' && s.chunks.length === 0) {
          post({ op: 'pipe', rid: current!.rid, stream: s.remote });
        } else {
          sinkWrite(d.sink, drainBody(s));
        }
      } else if (d.remote === null) {
        d.chunks.push(...s.chunks);
        d.remote = s.remote;
      } else {
        d.chunks.push(drainBody({ ...newBody(), remote: d.remote }), drainBody(s));
        d.remote = null;
      }
      handles.delete(src);
      return OK;
    },
    close: closeBody,
    abandon: closeBody,
    known_length: (h: number, out: number) => {
      const body = get(h, 'body');
      if (body.remote !== null || body.sink) return NONE;
      w64(out, BigInt(body.chunks.reduce((n, c) => n + c.length, 0)));
      return OK;
    },
  },
  fastly_log: {
    endpoint_get: (p: number, l: number, out: number) => {
      w32(out, add({ kind: 'log', name: latin1(p, l) }));
      return OK;
    },
    write: (h: number, p: number, l: number, nw: number) => {
      const ep = get(h, 'log');
      let msg = latin1(p, l);
      w32(nw, l);
      if (msg.endsWith('\n')) msg = msg.slice(0, -1);
      if (msg === '') return OK;
      // Latin-1 both ways keeps every byte; only newlines inside the message are escaped.
      writeFd(1, Buffer.from(`${ep.name} :: ${msg.replace(/\n/g, '\\n')}\n`, 'latin1'));
      return OK;
    },
  },
  // Viceroy treats `dictionaries` as another name for `config_stores`: either module opens any of them.
  fastly_dictionary: configStoreCalls,
  fastly_config_store: configStoreCalls,
  fastly_secret_store: {
    open: (p: number, l: number, out: number) => {
      const name = utf8(p, l);
      if (!snapshot.secretStores[name]) return NONE;
      w32(out, add({ kind: 'secretstore', name }));
      return OK;
    },
    get: (h: number, kp: number, kl: number, out: number) => {
      const store = snapshot.secretStores[get(h, 'secretstore').name] ?? {};
      const key = utf8(kp, kl);
      if (!Object.hasOwn(store, key)) return NONE;
      w32(out, add({ kind: 'secret', value: Buffer.from(store[key]!, 'utf8') }));
      return OK;
    },
    plaintext: (h: number, buf: number, max: number, nw: number) => writeOut(get(h, 'secret').value, buf, max, nw),
    from_bytes: (p: number, l: number, out: number) => {
      w32(out, add({ kind: 'secret', value: copyIn(p, l) }));
      return OK;
    },
  },
  fastly_kv_store: {
    open: (p: number, l: number, out: number) => {
      const name = utf8(p, l);
      const r = kv({ kind: 'exists', store: name });
      if (r.status !== 'ok') {
        // An unknown store is the app's mistake, as in Viceroy (INVAL); NONE means a missing key.
        w32(out, INVALID_HANDLE);
        return INVAL;
      }
      w32(out, add({ kind: 'kvstore', name }));
      return OK;
    },
    lookup: (h: number, kp: number, kl: number, _mask: number, _opts: number, out: number) => {
      const store = get(h, 'kvstore').name;
      w32(out, add({ kind: 'kvpending', result: kv({ kind: 'lookup', store, key: utf8(kp, kl) }) }));
      return OK;
    },
    lookup_wait: (h: number, bodyOut: number, mb: number, ml: number, nw: number, genOut: number, errOut: number) =>
      kvLookupWait(h, bodyOut, mb, ml, nw, errOut, (g) => w32(genOut, Number(g & 0xffff_ffffn))),
    lookup_wait_v2: (h: number, bodyOut: number, mb: number, ml: number, nw: number, genOut: number, errOut: number) =>
      kvLookupWait(h, bodyOut, mb, ml, nw, errOut, (g) => w64(genOut, g)),
    insert: (h: number, kp: number, kl: number, bodyH: number, mask: number, opts: number, out: number) => {
      const store = get(h, 'kvstore').name;
      const key = utf8(kp, kl);
      const body = get(bodyH, 'body');
      const value = drainBody(body);
      handles.delete(bodyH);
      const op: Extract<KvOp, { kind: 'insert' }> = { kind: 'insert', store, key, value, mode: 0 };
      if (opts) {
        op.mode = r32(opts);
        if (mask & (1 << 3)) op.metadata = utf8(r32(opts + 8), r32(opts + 12));
        if (mask & (1 << 4)) op.ttlSec = r32(opts + 16);
        if (mask & (1 << 5)) op.ifGenerationMatch = r64(opts + 24);
      }
      w32(out, add({ kind: 'kvpending', result: kv(op) }));
      return OK;
    },
    insert_wait: (h: number, errOut: number) => kvSimpleWait(h, errOut),
    delete: (h: number, kp: number, kl: number, _mask: number, _opts: number, out: number) => {
      const store = get(h, 'kvstore').name;
      w32(out, add({ kind: 'kvpending', result: kv({ kind: 'delete', store, key: utf8(kp, kl) }) }));
      return OK;
    },
    delete_wait: (h: number, errOut: number) => kvSimpleWait(h, errOut),
    list: (h: number, mask: number, opts: number, out: number) => {
      const store = get(h, 'kvstore').name;
      const op: Extract<KvOp, { kind: 'list' }> = { kind: 'list', store };
      if (opts) {
        if (mask & (1 << 1)) op.cursor = utf8(r32(opts + 4), r32(opts + 8));
        if (mask & (1 << 2)) op.limit = r32(opts + 12);
        if (mask & (1 << 3)) op.prefix = utf8(r32(opts + 16), r32(opts + 20));
      }
      w32(out, add({ kind: 'kvpending', result: kv(op) }));
      return OK;
    },
    list_wait: (h: number, bodyOut: number, errOut: number) => {
      const r = takeKvResult(h, errOut);
      if (r.status !== 'ok' || !r.body) {
        w32(bodyOut, INVALID_HANDLE);
        return OK;
      }
      w32(bodyOut, add({ ...newBody(), chunks: [r.body] }));
      return OK;
    },
  },
  fastly_geo: {
    lookup: (ap: number, al: number, buf: number, max: number, nw: number) => {
      if (al !== 4 && al !== 16) return INVAL;
      const data = geoLookup(copyIn(ap, al));
      if (!data) return NONE;
      return writeOut(Buffer.from(JSON.stringify(data)), buf, max, nw);
    },
  },
  fastly_device_detection: {
    // The device data `[local_server.device_detection]` gives this exact user agent, as Viceroy
    // answers; `none` for any other (and for all without the section).
    lookup: (p: number, l: number, buf: number, max: number, nw: number) => {
      const data = snapshot.deviceDetection[utf8(p, l)];
      if (data === undefined) return NONE;
      return writeOut(Buffer.from(JSON.stringify(data)), buf, max, nw);
    },
  },
  fastly_acl: {
    open: (p: number, l: number, out: number) => {
      const name = utf8(p, l);
      if (!snapshot.acls[name]) return NONE;
      w32(out, add({ kind: 'acl', name }));
      return OK;
    },
    lookup: (h: number, ip: number, il: number, bodyOut: number, errOut: number) => {
      const acl = get(h, 'acl');
      if (il !== 4 && il !== 16) return INVAL;
      const found = aclLookup(acl.name, Array.from(copyIn(ip, il)));
      if (!found) {
        w32(bodyOut, INVALID_HANDLE);
        w32(errOut, 2);
        return OK;
      }
      w32(bodyOut, add({ ...newBody(), chunks: [Buffer.from(JSON.stringify(found))] }));
      w32(errOut, 1);
      return OK;
    },
  },
  fastly_erl: {
    check_rate: (rp: number, rl: number, ep: number, el: number, delta: number, window: number, limit: number, pp: number, pl: number, ttl: number, out: number) => {
      w8(out, erl({ kind: 'check', rc: utf8(rp, rl), entry: utf8(ep, el), delta, window, limit, pb: utf8(pp, pl), ttl }));
      return OK;
    },
    ratecounter_increment: (rp: number, rl: number, ep: number, el: number, delta: number) => {
      erl({ kind: 'increment', rc: utf8(rp, rl), entry: utf8(ep, el), delta });
      return OK;
    },
    ratecounter_lookup_rate: (rp: number, rl: number, ep: number, el: number, window: number, out: number) => {
      w32(out, erl({ kind: 'rate', rc: utf8(rp, rl), entry: utf8(ep, el), window }));
      return OK;
    },
    ratecounter_lookup_count: (rp: number, rl: number, ep: number, el: number, duration: number, out: number) => {
      w32(out, erl({ kind: 'count', rc: utf8(rp, rl), entry: utf8(ep, el), duration }));
      return OK;
    },
    penaltybox_add: (pp: number, pl: number, ep: number, el: number, ttl: number) => {
      erl({ kind: 'pbAdd', pb: utf8(pp, pl), entry: utf8(ep, el), ttl });
      return OK;
    },
    penaltybox_has: (pp: number, pl: number, ep: number, el: number, out: number) => {
      w8(out, erl({ kind: 'pbHas', pb: utf8(pp, pl), entry: utf8(ep, el) }));
      return OK;
    },
  },
  fastly_compute_runtime: {
    // Node 20 has no per-thread CPU clock, so wall time since the request began stands in.
    get_vcpu_ms: (out: number) => {
      w64(out, BigInt(Math.round(performance.now() - requestStart)));
      return OK;
    },
    get_heap_mib: (out: number) => {
      w32(out, Math.ceil(mem().byteLength / (1 << 20)));
      return OK;
    },
  },
  fastly_async_io: {
    select: (hs: number, n: number, timeoutMs: number, out: number) => {
      const items: RemoteItem[] = [];
      const index: number[] = [];
      for (let i = 0; i < n; i++) {
        const obj = handles.get(r32(hs + i * 4));
        if (!obj) return BADF;
        const remote = remoteItemOf(obj);
        if (!remote) {
          w32(out, i);
          return OK;
        }
        items.push(remote);
        index.push(i);
      }
      if (items.length === 0) {
        w32(out, 0xffff_ffff);
        return OK;
      }
      const idx = call<number>({ op: 'select', items, timeoutMs });
      w32(out, idx < 0 ? 0xffff_ffff : index[idx]!);
      return OK;
    },
    is_ready: (h: number, out: number) => {
      const obj = handles.get(h);
      if (!obj) return BADF;
      const remote = remoteItemOf(obj);
      w32(out, remote === null || call<boolean>({ op: 'ready', item: remote }) ? 1 : 0);
      return OK;
    },
  },
  fastly_backend: {
    exists: (p: number, l: number, out: number) => {
      w32(out, findBackend(utf8(p, l)) ? 1 : 0);
      return OK;
    },
    // Viceroy reports no health checks: every backend reads as "unknown" (0).
    is_healthy: backendU32(() => 0),
    is_dynamic: backendU32((_, name) => (dynamicBackends.has(name) ? 1 : 0)),
    get_host: (p: number, l: number, buf: number, max: number, nw: number) =>
      writeOut(Buffer.from(backendOf(p, l).hostname), buf, max, nw),
    get_override_host: (p: number, l: number, buf: number, max: number, nw: number) => {
      const host = backendOf(p, l).overrideHost;
      if (host === undefined) return NONE;
      return writeOut(Buffer.from(host), buf, max, nw);
    },
    get_port: (p: number, l: number, out: number) => {
      w16(out, backendOf(p, l).port);
      return OK;
    },
    get_connect_timeout_ms: backendTimeoutUnsupported,
    get_first_byte_timeout_ms: backendTimeoutUnsupported,
    get_between_bytes_timeout_ms: backendTimeoutUnsupported,
    is_ssl: backendU32((b) => (b.protocol === 'https:' ? 1 : 0)),
    get_ssl_min_version: backendNone,
    get_ssl_max_version: backendNone,
    // Keepalive is not configurable locally: every setting reads as 0 (off / unset).
    get_http_keepalive_time: backendU32(() => 0),
    get_tcp_keepalive_enable: backendU32(() => 0),
    get_tcp_keepalive_interval: backendU32(() => 0),
    get_tcp_keepalive_probes: backendU32(() => 0),
    get_tcp_keepalive_time: backendU32(() => 0),
  },
};

// Bits of the dynamic backend options mask and offsets in DynamicBackendConfig (fastly.h, wasm32).
const DYN_HOST_OVERRIDE = 1 << 1;
const DYN_CONNECT_TIMEOUT = 1 << 2;
const DYN_FIRST_BYTE_TIMEOUT = 1 << 3;
const DYN_BETWEEN_BYTES_TIMEOUT = 1 << 4;
const DYN_USE_SSL = 1 << 5;
const DYN_CERT_HOSTNAME = 1 << 8;
const DYN_CA_CERT = 1 << 9;
const DYN_SNI_HOSTNAME = 1 << 11;

function registerDynamicBackend(name: string, target: string, mask: number, cfg: number): number {
  if (name === '' || findBackend(name)) return INVAL;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(target);
  if (!m) return INVAL;
  const tls = (mask & DYN_USE_SSL) !== 0;
  const hostname = m[1]!.replace(/^\[|\]$/g, '');
  const port = m[2] ? Number(m[2]) : tls ? 443 : 80;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return INVAL;
  const str = (off: number) => utf8(r32(cfg + off), r32(cfg + off + 4));
  const protocol = tls ? 'https:' : 'http:';
  const backend: BackendConfig = {
    name,
    url: `${protocol}//${target}/`,
    protocol,
    hostname,
    port,
    pathPrefix: '/',
    useSni: true,
    connectTimeoutMs: cfg && mask & DYN_CONNECT_TIMEOUT ? r32(cfg + 8) : 1_000,
    firstByteTimeoutMs: cfg && mask & DYN_FIRST_BYTE_TIMEOUT ? r32(cfg + 12) : 15_000,
    betweenBytesTimeoutMs: cfg && mask & DYN_BETWEEN_BYTES_TIMEOUT ? r32(cfg + 16) : 10_000,
  };
  if (cfg && mask & DYN_HOST_OVERRIDE) backend.overrideHost = str(0);
  if (cfg && mask & DYN_CERT_HOSTNAME) backend.certHost = str(28);
  else if (cfg && mask & DYN_SNI_HOSTNAME) backend.certHost = str(52);
  if (cfg && mask & DYN_CA_CERT) backend.caCertificates = [str(36)];
  dynamicBackends.set(name, backend);
  return OK;
}

function configGet(h: number, kp: number, kl: number, buf: number, max: number, nw: number): number {
  const store = snapshot.configStores[get(h, 'config').name] ?? {};
  const key = utf8(kp, kl);
  if (!Object.hasOwn(store, key)) return NONE;
  return writeOut(Buffer.from(store[key]!, 'utf8'), buf, max, nw);
}

/** Ends a pending KV operation: its handle goes, its status reaches the guest's error slot. */
function takeKvResult(h: number, errOut: number): KvResult {
  const r = get(h, 'kvpending').result;
  handles.delete(h);
  w32(errOut, kvErrorCode(r));
  return r;
}

function kvLookupWait(h: number, bodyOut: number, mb: number, ml: number, nw: number, errOut: number, gen: (g: bigint) => void): number {
  const r = takeKvResult(h, errOut);
  w32(nw, 0);
  if (r.status !== 'ok' || !r.value) {
    w32(bodyOut, INVALID_HANDLE);
    return OK;
  }
  if (r.metadata) {
    const meta = Buffer.from(r.metadata, 'utf8');
    if (meta.length > ml) {
      w32(nw, meta.length);
      return BUFLEN;
    }
    mem().set(meta, mb);
    w32(nw, meta.length);
  }
  gen(r.generation ?? 0n);
  w32(bodyOut, add({ ...newBody(), chunks: [r.value] }));
  return OK;
}

function kvSimpleWait(h: number, errOut: number): number {
  takeKvResult(h, errOut);
  return OK;
}

// ---- instantiation -------------------------------------------------------------------------

const hostcallTime = new Map<string, [calls: number, ms: number]>();

function guard(name: string, fn: (...args: never[]) => number, wasiCall: boolean) {
  return (...args: never[]) => {
    const start = PROFILE ? performance.now() : 0;
    try {
      return fn(...args);
    } catch (err) {
      if (err instanceof ProcExit) throw err;
      if (err instanceof HostError) return err.status;
      if (err instanceof RangeError) return wasiCall ? 21 /* EFAULT */ : INVAL;
      writeFd(2, Buffer.from(`compute-host: hostcall ${name} failed: ${(err as Error).stack ?? String(err)}\n`));
      return wasiCall ? WASI_ENOSYS : ERROR;
    } finally {
      if (PROFILE) {
        const t = hostcallTime.get(name) ?? [0, 0];
        t[0]++;
        t[1] += performance.now() - start;
        hostcallTime.set(name, t);
      }
    }
  };
}

function buildImports(module: WebAssembly.Module): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    const isWasi = imp.module.startsWith('wasi_');
    const table: Record<string, (...args: never[]) => number> | undefined = isWasi
      ? (wasi as Record<string, (...args: never[]) => number>)
      : fastly[imp.module];
    const fullName = `${imp.module}.${imp.name}`;
    const impl = table?.[imp.name];
    const fn = impl
      ? guard(fullName, impl, isWasi)
      : () => {
          unsupported(fullName);
          return isWasi ? WASI_ENOSYS : UNSUPPORTED;
        };
    (imports[imp.module] ??= {})[imp.name] = fn;
  }
  return imports;
}

const PROFILE = process.env.COMPUTE_HOST_PROFILE === '1';
const imports = buildImports(init.module);

let pooledMemory: WebAssembly.Memory | null = null;

/** Restore granularity: blocks are compared first, then the pages of a block that changed. */
const BLOCK = 64 * 1024;
const PAGE = 4 * 1024;
type Views = [memory: Buffer, image: Buffer];
/** Each block's views, and its pages' once a guest has changed it: made once per memory, not per request. */
let blocks: Array<{ whole: Views; pages: Views[] | null }> = [];
/** The buffer `blocks` look into: any grow, even by 0 pages, replaces the memory's buffer. */
let viewedBuffer: ArrayBuffer | null = null;

/**
 * The memory for the next instance, as a fresh instantiation would leave it: the one the last
 * request used when it kept its size (a grown memory would hand the next guest a different starting
 * size than it declared, so it is dropped). With the data segments in an image (limits.ts), only the
 * pages the last guest changed are put back, a few hundred KB where the whole memory is megabytes,
 * much as Fastly's copy-on-write snapshots do; otherwise the memory is zeroed whole and instantiation
 * writes the segments.
 */
function memoryForRequest(): void {
  const limits = init.memory;
  if (!limits) return;
  const size = limits.initial * WASM_PAGE;
  const image = limits.image;
  if (pooledMemory && pooledMemory.buffer.byteLength === size) {
    if (image === null) {
      new Uint8Array(pooledMemory.buffer).fill(0);
    } else if (pooledMemory.buffer !== viewedBuffer) {
      viewImage(image);
    } else {
      for (const block of blocks) {
        const [memory, pristine] = block.whole;
        if (memory.equals(pristine)) continue;
        block.pages ??= viewsOf(memory, pristine, PAGE);
        for (const [page, want] of block.pages) if (!page.equals(want)) page.set(want);
      }
    }
  } else {
    pooledMemory = new WebAssembly.Memory({ initial: limits.initial, maximum: limits.maximum });
    if (image !== null) viewImage(image);
  }
  (imports[MEMORY_IMPORT.module] ??= {})[MEMORY_IMPORT.name] = pooledMemory;
}

/** Matching views of `memory` and `image`, `size` bytes each (the last one shorter if need be). */
function viewsOf(memory: Buffer, image: Buffer, size: number): Views[] {
  const views: Views[] = [];
  for (let at = 0; at < memory.length; at += size) views.push([memory.subarray(at, at + size), image.subarray(at, at + size)]);
  return views;
}

/** Copies the whole image into the pooled memory and points the block views at both. */
function viewImage(image: SharedArrayBuffer): void {
  const buffer = pooledMemory!.buffer;
  new Uint8Array(buffer).set(new Uint8Array(image));
  blocks = viewsOf(Buffer.from(buffer), Buffer.from(image), BLOCK).map((whole) => ({ whole, pages: null }));
  viewedBuffer = buffer;
}

function runRequest(req: DownstreamRequest): void {
  current = req;
  handles = new Map();
  nextHandle = 1;
  responded = false;
  requestStart = performance.now();
  dynamicBackends = new Map();
  downstreamReq = {
    kind: 'req',
    method: req.method,
    uri: req.url,
    // A copy: the header hostcalls edit this array in place, and `current.headers` must keep the
    // headers as they arrived for the original_header_* calls.
    headers: [...req.headers],
    version: HTTP_11,
    autoDecompress: false,
  };
  downstreamBody = { ...newBody(), remote: req.bodyStream };
  let error: string | undefined;
  try {
    const t0 = performance.now();
    memoryForRequest();
    const instance = new WebAssembly.Instance(init.module, imports);
    attachMemory(instance.exports.memory as WebAssembly.Memory);
    const t1 = performance.now();
    try {
      (instance.exports._start as () => void)();
    } finally {
      if (PROFILE) {
        const calls = [...hostcallTime].sort((a, b) => b[1][1] - a[1][1]);
        const total = calls.reduce((n, [, [, ms]]) => n + ms, 0);
        const top = calls.slice(0, 4).map(([n, [c, ms]]) => `${n} x${c} ${ms.toFixed(2)}ms`).join(', ');
        const mib = (mem().byteLength / (1 << 20)).toFixed(1);
        writeFd(2, Buffer.from(`profile: instantiate ${(t1 - t0).toFixed(2)} ms, memory ${mib} MiB, run ${(performance.now() - t1).toFixed(2)} ms, hostcalls ${total.toFixed(2)} ms (${top})\n`));
        hostcallTime.clear();
      }
    }
  } catch (err) {
    if (err instanceof ProcExit) {
      if (err.code !== 0) error = `guest exited with code ${err.code}`;
    } else if (err instanceof WebAssembly.RuntimeError) {
      error = `guest trapped: ${err.message}`;
    } else if (err instanceof RangeError) {
      error = `guest ran out of memory: ${err.message}`;
    } else {
      error = `guest failed: ${(err as Error).stack ?? String(err)}`;
    }
  }
  // A streaming body the guest never closed is unfinished (Viceroy: UnfinishedStreamingBody); the
  // main thread cuts it off rather than end it, so no one takes a truncated body for a whole one.
  post({ op: 'done', rid: req.rid, error });
  attachMemory(null);
  handles = new Map();
  current = null;
  downstreamReq = null;
  downstreamBody = null;
}

// Import wrappers are compiled per thread on first instantiation; pay that before the first request.
try {
  memoryForRequest();
  new WebAssembly.Instance(init.module, imports);
} catch {
  // A module that cannot be instantiated fails again, with its message, on the first request.
}

parentPort!.on('message', (msg: ToWorker) => {
  if (msg.type === 'config') snapshot = msg.snapshot;
  else runRequest(msg);
});
