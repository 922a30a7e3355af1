// fastly_kv_store: the KV stores live in the main thread (shared by all requests); each call is one
// round trip there, answered at once, so the *_wait calls only hand the result over.
import { drainBody, newBody } from '../guest/bodies.js';
import type { BodyObj } from '../guest/handles.js';
import type { Sandbox } from '../guest/sandbox.js';
import type { KvOp, KvResult } from '../protocol.js';
import { BUFLEN, INVAL, INVALID_HANDLE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

// kv_error values (typenames.witx).
const KV_OK = 1;
const KV_BAD_REQUEST = 2;
const KV_NOT_FOUND = 3;
const KV_PRECONDITION_FAILED = 4;

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

function run(sb: Sandbox, op: KvOp, out: number): number {
  sb.mem.w32(out, sb.handles.add({ kind: 'kvpending', result: sb.io.call<KvResult>({ op: 'kv', kv: op }) }));
  return OK;
}

/** Ends a pending operation: its handle goes, its status reaches the guest's error slot. */
function takeResult(sb: Sandbox, h: number, errOut: number): KvResult {
  const r = sb.handles.take(h, 'kvpending').result;
  sb.mem.w32(errOut, kvErrorCode(r));
  return r;
}

function lookupWait(
  sb: Sandbox,
  h: number,
  bodyOut: number,
  mb: number,
  ml: number,
  nw: number,
  errOut: number,
  gen: (g: bigint) => void,
): number {
  const r = takeResult(sb, h, errOut);
  sb.mem.w32(nw, 0);
  if (r.status !== 'ok' || !r.value) {
    sb.mem.w32(bodyOut, INVALID_HANDLE);
    return OK;
  }
  if (r.metadata) {
    const meta = Buffer.from(r.metadata, 'utf8');
    if (meta.length > ml) {
      sb.mem.w32(nw, meta.length);
      return BUFLEN;
    }
    sb.mem.set(meta, mb);
    sb.mem.w32(nw, meta.length);
  }
  gen(r.generation ?? 0n);
  sb.mem.w32(bodyOut, sb.handles.add(newBody(null, [r.value])));
  return OK;
}

const drain = (sb: Sandbox, body: BodyObj): Uint8Array => drainBody(sb.io, body);

const simpleWait = (sb: Sandbox, h: number, errOut: number): number => {
  takeResult(sb, h, errOut);
  return OK;
};

export const kvStore: AbiModule = {
  open: (sb, p: number, l: number, out: number) => {
    const name = sb.mem.utf8(p, l);
    const r = sb.io.call<KvResult>({ op: 'kv', kv: { kind: 'exists', store: name } });
    if (r.status !== 'ok') {
      // An unknown store is the app's mistake, as in Viceroy (INVAL); NONE means a missing key.
      sb.mem.w32(out, INVALID_HANDLE);
      return INVAL;
    }
    sb.mem.w32(out, sb.handles.add({ kind: 'kvstore', name }));
    return OK;
  },
  lookup: (sb, h: number, kp: number, kl: number, _mask: number, _opts: number, out: number) =>
    run(sb, { kind: 'lookup', store: sb.handles.get(h, 'kvstore').name, key: sb.mem.utf8(kp, kl) }, out),
  lookup_wait: (sb, h: number, bodyOut: number, mb: number, ml: number, nw: number, genOut: number, errOut: number) =>
    lookupWait(sb, h, bodyOut, mb, ml, nw, errOut, (g) => sb.mem.w32(genOut, Number(g & 0xffff_ffffn))),
  lookup_wait_v2: (
    sb,
    h: number,
    bodyOut: number,
    mb: number,
    ml: number,
    nw: number,
    genOut: number,
    errOut: number,
  ) => lookupWait(sb, h, bodyOut, mb, ml, nw, errOut, (g) => sb.mem.w64(genOut, g)),
  insert: (sb, h: number, kp: number, kl: number, bodyH: number, mask: number, opts: number, out: number) => {
    const store = sb.handles.get(h, 'kvstore').name;
    const key = sb.mem.utf8(kp, kl);
    const body = sb.handles.take(bodyH, 'body');
    const op: Extract<KvOp, { kind: 'insert' }> = { kind: 'insert', store, key, value: drain(sb, body), mode: 0 };
    if (opts) {
      op.mode = sb.mem.r32(opts);
      if (mask & (1 << 3)) op.metadata = sb.mem.utf8(sb.mem.r32(opts + 8), sb.mem.r32(opts + 12));
      if (mask & (1 << 4)) op.ttlSec = sb.mem.r32(opts + 16);
      if (mask & (1 << 5)) op.ifGenerationMatch = sb.mem.r64(opts + 24);
    }
    return run(sb, op, out);
  },
  insert_wait: simpleWait,
  delete: (sb, h: number, kp: number, kl: number, _mask: number, _opts: number, out: number) =>
    run(sb, { kind: 'delete', store: sb.handles.get(h, 'kvstore').name, key: sb.mem.utf8(kp, kl) }, out),
  delete_wait: simpleWait,
  list: (sb, h: number, mask: number, opts: number, out: number) => {
    const op: Extract<KvOp, { kind: 'list' }> = { kind: 'list', store: sb.handles.get(h, 'kvstore').name };
    if (opts) {
      if (mask & (1 << 1)) op.cursor = sb.mem.utf8(sb.mem.r32(opts + 4), sb.mem.r32(opts + 8));
      if (mask & (1 << 2)) op.limit = sb.mem.r32(opts + 12);
      if (mask & (1 << 3)) op.prefix = sb.mem.utf8(sb.mem.r32(opts + 16), sb.mem.r32(opts + 20));
    }
    return run(sb, op, out);
  },
  list_wait: (sb, h: number, bodyOut: number, errOut: number) => {
    const r = takeResult(sb, h, errOut);
    if (r.status !== 'ok' || !r.body) {
      sb.mem.w32(bodyOut, INVALID_HANDLE);
      return OK;
    }
    sb.mem.w32(bodyOut, sb.handles.add(newBody(null, [r.body])));
    return OK;
  },
};
