// fastly_http_resp: responses the guest builds or received, and the one it sends downstream.
import { drainBody, sinkWrite } from '../guest/bodies.js';
import { type Sandbox, HTTP_11 } from '../guest/sandbox.js';
import { headerCalls } from './headers.js';
import { ipBytesOut } from './ip-out.js';
import { ERROR, INVAL, NONE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

function sendDownstream(sb: Sandbox, respH: number, bodyH: number, streaming: number): number {
  const d = sb.current;
  if (!d || d.responded) return ERROR;
  const resp = sb.handles.get(respH, 'resp');
  const body = sb.handles.get(bodyH, 'body');
  d.responded = true;
  const rid = d.msg.rid;
  const io = sb.io;
  if (streaming) {
    io.post({ op: 'respond', rid, status: resp.status, headers: resp.headers, body: null, streaming: true });
    const sink = { type: 'down', rid } as const;
    for (const chunk of body.chunks) sinkWrite(io, sink, chunk);
    body.chunks = [];
    if (body.remote !== null) {
      io.post({ op: 'pipe', rid, stream: body.remote });
      body.remote = null;
    }
    body.sink = sink;
  } else if (body.remote !== null && body.chunks.length === 0) {
    // A backend body handed straight back is piped, so the client sees bytes as the backend sends them.
    io.post({
      op: 'respond',
      rid,
      status: resp.status,
      headers: resp.headers,
      body: null,
      streaming: true,
      pipe: body.remote,
    });
    body.remote = null;
    sb.handles.delete(bodyH);
    io.post({ op: 'end', rid });
  } else {
    const data = drainBody(io, body);
    sb.handles.delete(bodyH);
    io.post({ op: 'respond', rid, status: resp.status, headers: resp.headers, body: data, streaming: false });
  }
  sb.handles.delete(respH);
  return OK;
}

export const httpResp: AbiModule = {
  new: (sb, out: number) => {
    sb.mem.w32(out, sb.handles.add({ kind: 'resp', status: 200, headers: [], version: HTTP_11 }));
    return OK;
  },
  close: (sb, h: number) => {
    sb.handles.take(h, 'resp');
    return OK;
  },
  ...headerCalls('resp'),
  status_get: (sb, h: number, out: number) => {
    sb.mem.w16(out, sb.handles.get(h, 'resp').status);
    return OK;
  },
  status_set: (sb, h: number, status: number) => {
    if (status < 100 || status > 999) return INVAL;
    sb.handles.get(h, 'resp').status = status;
    return OK;
  },
  version_get: (sb, h: number, out: number) => {
    sb.mem.w32(out, sb.handles.get(h, 'resp').version);
    return OK;
  },
  version_set: (sb, h: number, v: number) => {
    sb.handles.get(h, 'resp').version = v;
    return OK;
  },
  send_downstream: (sb, respH: number, bodyH: number, streaming: number) => sendDownstream(sb, respH, bodyH, streaming),
  framing_headers_mode_set: (sb, h: number) => {
    sb.handles.get(h, 'resp');
    return OK;
  },
  http_keepalive_mode_set: (sb, h: number) => {
    sb.handles.get(h, 'resp');
    return OK;
  },
  get_addr_dest_ip: (sb, h: number, out: number, nw: number) =>
    ipBytesOut(sb, sb.handles.get(h, 'resp').remoteIp, out, nw),
  get_addr_dest_port: (sb, h: number, out: number) => {
    const port = sb.handles.get(h, 'resp').remotePort;
    if (port === undefined) return NONE;
    sb.mem.w16(out, port);
    return OK;
  },
};
