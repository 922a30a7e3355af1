// fastly_http_body: bodies read, written, appended and streamed.
import { drainBody, newBody, readBody, sinkEnd, sinkWrite } from '../guest/bodies.js';
import type { Sandbox } from '../guest/sandbox.js';
import { OK, NONE } from '../guest/status.js';
import type { AbiModule } from './types.js';

function closeBody(sb: Sandbox, h: number): number {
  const body = sb.handles.take(h, 'body');
  if (body.sink) sinkEnd(sb.io, body.sink);
  body.sink = null;
  return OK;
}

export const httpBody: AbiModule = {
  new: (sb, out: number) => {
    sb.mem.w32(out, sb.handles.add(newBody()));
    return OK;
  },
  read: (sb, h: number, buf: number, max: number, nread: number) => {
    const chunk = readBody(sb.io, sb.handles.get(h, 'body'), max);
    sb.mem.set(chunk, buf);
    sb.mem.w32(nread, chunk.length);
    return OK;
  },
  write: (sb, h: number, buf: number, len: number, end: number, nw: number) => {
    const body = sb.handles.get(h, 'body');
    const data = sb.mem.copyIn(buf, len);
    if (body.sink) sinkWrite(sb.io, body.sink, data);
    else if (end === 1) body.chunks.unshift(data);
    else body.chunks.push(data);
    sb.mem.w32(nw, len);
    return OK;
  },
  append: (sb, dst: number, src: number) => {
    const d = sb.handles.get(dst, 'body');
    const s = sb.handles.get(src, 'body');
    if (d.sink) {
      if (s.remote !== null && d.sink.type === 'down' && s.chunks.length === 0) {
        sb.io.post({ op: 'pipe', rid: d.sink.rid, stream: s.remote });
      } else {
        sinkWrite(sb.io, d.sink, drainBody(sb.io, s));
      }
    } else if (d.remote === null) {
      d.chunks.push(...s.chunks);
      d.remote = s.remote;
    } else {
      d.chunks.push(drainBody(sb.io, newBody(d.remote)), drainBody(sb.io, s));
      d.remote = null;
    }
    sb.handles.delete(src);
    return OK;
  },
  close: closeBody,
  abandon: closeBody,
  known_length: (sb, h: number, out: number) => {
    const body = sb.handles.get(h, 'body');
    if (body.remote !== null || body.sink) return NONE;
    sb.mem.w64(out, BigInt(body.chunks.reduce((n, c) => n + c.length, 0)));
    return OK;
  },
};
