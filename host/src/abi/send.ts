// Requests to backends: the guest's request goes to the main thread with the backend resolved here,
// once; the answer comes back as a response handle and a body streamed from the main thread.
import { drainBody, newBody, wholeRemote } from '../guest/bodies.js';
import type { Obj, PendingObj, RespObj } from '../guest/handles.js';
import { HTTP_11, type Sandbox } from '../guest/sandbox.js';
import type { BackendRequest, RemoteItem, SendErrorTag, WaitResult } from '../protocol.js';
import { ERROR, INVALID_HANDLE, OK } from '../guest/status.js';

// The tags of send_error_detail (typenames.witx).
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
const SEND_OK = 1;

export function startSend(
  sb: Sandbox,
  reqH: number,
  bodyH: number,
  bp: number,
  bl: number,
  streaming: boolean,
): PendingObj {
  const req = sb.handles.get(reqH, 'req');
  const backend = sb.backendNamed(sb.mem.utf8(bp, bl));
  // Fastly allows 32 backend requests per execution (guest/limits.ts); past them nothing is sent.
  sb.current?.execution.backendRequest();
  const body = bodyH === INVALID_HANDLE ? null : sb.handles.get(bodyH, 'body');
  const upstreamId = sb.newUpstreamId();
  const breq: BackendRequest = {
    method: req.method,
    url: req.uri,
    // postMessage copies the array as it is now, so later header edits do not reach this request.
    headers: req.headers,
    autoDecompress: req.autoDecompress,
  };
  let data: Uint8Array | null = null;
  let bodyStream: number | undefined;
  if (body) {
    const remote = streaming ? null : wholeRemote(body);
    // A body that is all a main-thread stream (the client's, say) is piped there, not pulled through here.
    if (remote !== null) bodyStream = remote;
    else data = drainBody(sb.io, body);
    if (streaming) body.sink = { type: 'up', upstreamId };
    else sb.handles.delete(bodyH);
  }
  sb.io.post({ op: 'send', upstreamId, backend, req: breq, body: data, bodyStream, streaming });
  return { kind: 'pending', upstreamId, backend };
}

function waitPending(sb: Sandbox, p: PendingObj): WaitResult {
  if (!p.result) p.result = sb.io.call<WaitResult>({ op: 'wait', upstreamId: p.upstreamId });
  return p.result;
}

/** Waits for a send, fills its detail record (tag and mask are u32s; no optional field is set). */
export function finishPending(sb: Sandbox, ph: number, detail: number, respOut: number, bodyOut: number): number {
  const p = sb.handles.get(ph, 'pending');
  const res = waitPending(sb, p);
  sb.handles.delete(ph);
  if (!res.ok) {
    if (detail) {
      sb.mem.w32(detail, SEND_ERROR_TAGS[res.tag]);
      sb.mem.w32(detail + 4, 0);
    }
    sb.mem.w32(respOut, INVALID_HANDLE);
    sb.mem.w32(bodyOut, INVALID_HANDLE);
    return ERROR;
  }
  if (detail) {
    sb.mem.w32(detail, SEND_OK);
    sb.mem.w32(detail + 4, 0);
  }
  const resp: RespObj = {
    kind: 'resp',
    status: res.status,
    headers: res.headers,
    version: HTTP_11,
    remoteIp: res.remoteIp,
    remotePort: res.remotePort,
  };
  sb.mem.w32(respOut, sb.handles.add(resp));
  sb.mem.w32(bodyOut, sb.handles.add(newBody(res.stream)));
  return OK;
}

/** What the main thread must wait on for this object to become ready, or null when it is ready now. */
export function remoteItemOf(obj: Obj): RemoteItem | null {
  if (obj.kind === 'pending' && !obj.result) return { kind: 'pending', id: obj.upstreamId };
  if (obj.kind === 'body') {
    const remote = obj.chunks.length === 0 ? wholeRemote(obj) : null;
    if (remote !== null) return { kind: 'stream', id: remote };
  }
  return null;
}
