// fastly_http_req: requests the guest builds or was handed, and sending them to backends.
import { type Sandbox, HTTP_11 } from '../guest/sandbox.js';
import type { RemoteItem } from '../protocol.js';
import { registerDynamicBackend } from './dynamic-backend.js';
import { headerCalls, uniqueNames } from './headers.js';
import { finishPending, startSend } from './send.js';
import { ERROR, HTTPINVALID, INVAL, INVALID_HANDLE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

/** The downstream request's headers as they arrived, whatever the guest has changed since. */
export function originalHeaderNames(
  sb: Sandbox,
  h: number,
  buf: number,
  len: number,
  cursor: number,
  ending: number,
  nw: number,
): number {
  return sb.mem.writeMulti(uniqueNames(sb.downstreamOf(h)?.headers ?? []), buf, len, cursor, ending, nw);
}

export function originalHeaderCount(sb: Sandbox, h: number, out: number): number {
  sb.mem.w32(out, uniqueNames(sb.downstreamOf(h)?.headers ?? []).length);
  return OK;
}

export const httpReq: AbiModule = {
  register_dynamic_backend: (sb, np: number, nl: number, tp: number, tl: number, mask: number, cfg: number) =>
    registerDynamicBackend(sb, sb.mem.utf8(np, nl), sb.mem.utf8(tp, tl), mask, cfg),
  body_downstream_get: (sb, reqOut: number, bodyOut: number) => {
    const d = sb.current;
    if (!d) return ERROR;
    sb.mem.w32(reqOut, sb.handles.add(d.req));
    sb.mem.w32(bodyOut, sb.handles.add(d.body));
    return OK;
  },
  new: (sb, out: number) => {
    sb.mem.w32(
      out,
      sb.handles.add({ kind: 'req', method: 'GET', uri: '/', headers: [], version: HTTP_11, autoDecompress: false }),
    );
    return OK;
  },
  close: (sb, h: number) => {
    sb.handles.take(h, 'req');
    return OK;
  },
  ...headerCalls('req'),
  // Without a handle: the request being served.
  original_header_names_get: (sb, buf: number, len: number, cursor: number, ending: number, nw: number) =>
    originalHeaderNames(sb, -1, buf, len, cursor, ending, nw),
  original_header_count: (sb, out: number) => originalHeaderCount(sb, -1, out),
  method_get: (sb, h: number, buf: number, max: number, nw: number) =>
    sb.mem.writeOut(Buffer.from(sb.handles.get(h, 'req').method, 'latin1'), buf, max, nw),
  method_set: (sb, h: number, p: number, l: number) => {
    const method = sb.mem.latin1(p, l);
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(method)) return HTTPINVALID;
    sb.handles.get(h, 'req').method = method;
    return OK;
  },
  uri_get: (sb, h: number, buf: number, max: number, nw: number) =>
    sb.mem.writeOut(Buffer.from(sb.handles.get(h, 'req').uri, 'latin1'), buf, max, nw),
  uri_set: (sb, h: number, p: number, l: number) => {
    const uri = sb.mem.latin1(p, l);
    if (/[\s\0]/.test(uri) || uri === '') return HTTPINVALID;
    sb.handles.get(h, 'req').uri = uri;
    return OK;
  },
  version_get: (sb, h: number, out: number) => {
    sb.mem.w32(out, sb.handles.get(h, 'req').version);
    return OK;
  },
  version_set: (sb, h: number, v: number) => {
    if (v > 4) return INVAL;
    sb.handles.get(h, 'req').version = v;
    return OK;
  },
  framing_headers_mode_set: (sb, h: number) => {
    sb.handles.get(h, 'req');
    return OK;
  },
  // There is no cache here, so every override is accepted and has nothing to change.
  cache_override_set: (sb, h: number) => {
    sb.handles.get(h, 'req');
    return OK;
  },
  cache_override_v2_set: (sb, h: number) => {
    sb.handles.get(h, 'req');
    return OK;
  },
  auto_decompress_response_set: (sb, h: number, tag: number) => {
    sb.handles.get(h, 'req').autoDecompress = (tag & 1) === 1;
    return OK;
  },
  send: (sb, reqH: number, bodyH: number, bp: number, bl: number, respOut: number, bodyOut: number) =>
    finishPending(sb, sb.handles.add(startSend(sb, reqH, bodyH, bp, bl, false)), 0, respOut, bodyOut),
  send_v2: (
    sb,
    reqH: number,
    bodyH: number,
    bp: number,
    bl: number,
    detail: number,
    respOut: number,
    bodyOut: number,
  ) => finishPending(sb, sb.handles.add(startSend(sb, reqH, bodyH, bp, bl, false)), detail, respOut, bodyOut),
  send_async: (sb, reqH: number, bodyH: number, bp: number, bl: number, out: number) => {
    sb.mem.w32(out, sb.handles.add(startSend(sb, reqH, bodyH, bp, bl, false)));
    return OK;
  },
  send_async_streaming: (sb, reqH: number, bodyH: number, bp: number, bl: number, out: number) => {
    sb.mem.w32(out, sb.handles.add(startSend(sb, reqH, bodyH, bp, bl, true)));
    return OK;
  },
  send_async_v2: (sb, reqH: number, bodyH: number, bp: number, bl: number, streaming: number, out: number) => {
    sb.mem.w32(out, sb.handles.add(startSend(sb, reqH, bodyH, bp, bl, streaming !== 0)));
    return OK;
  },
  pending_req_wait: (sb, h: number, respOut: number, bodyOut: number) => finishPending(sb, h, 0, respOut, bodyOut),
  pending_req_wait_v2: (sb, h: number, detail: number, respOut: number, bodyOut: number) =>
    finishPending(sb, h, detail, respOut, bodyOut),
  pending_req_poll: (sb, h: number, doneOut: number, respOut: number, bodyOut: number) => {
    const p = sb.handles.get(h, 'pending');
    const ready =
      p.result !== undefined || sb.io.call<boolean>({ op: 'ready', item: { kind: 'pending', id: p.upstreamId } });
    if (!ready) {
      sb.mem.w32(doneOut, 0);
      sb.mem.w32(respOut, INVALID_HANDLE);
      sb.mem.w32(bodyOut, INVALID_HANDLE);
      return OK;
    }
    sb.mem.w32(doneOut, 1);
    return finishPending(sb, h, 0, respOut, bodyOut);
  },
  pending_req_select: (sb, hs: number, n: number, idxOut: number, respOut: number, bodyOut: number) => {
    // Nothing to wait on: the main thread's select would never answer (Viceroy: INVAL).
    if (n === 0) return INVAL;
    const items: RemoteItem[] = [];
    for (let i = 0; i < n; i++) {
      const h = sb.mem.r32(hs + i * 4);
      const p = sb.handles.get(h, 'pending');
      if (p.result) {
        sb.mem.w32(idxOut, i);
        return finishPending(sb, h, 0, respOut, bodyOut);
      }
      items.push({ kind: 'pending', id: p.upstreamId });
    }
    const idx = sb.io.call<number>({ op: 'select', items, timeoutMs: 0 });
    sb.mem.w32(idxOut, idx);
    return finishPending(sb, sb.mem.r32(hs + idx * 4), 0, respOut, bodyOut);
  },
};
