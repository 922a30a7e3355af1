// HTTP bodies inside a worker: bytes the guest wrote, followed by the rest of a stream the main
// thread holds (a backend's or the client's), or a sink that forwards writes as they happen.
import { ERROR, HostError } from './status.js';
import type { ReadResult } from '../protocol.js';
import type { BodyObj, Sink } from './handles.js';
import type { MainThread } from './transport.js';

export function newBody(remote: number | null = null, chunks: Uint8Array[] = []): BodyObj {
  return { kind: 'body', chunks, remote, sink: null };
}

/** Up to `max` bytes: what the guest wrote first, then the main-thread stream. Empty at the end. */
export function readBody(io: MainThread, body: BodyObj, max: number): Uint8Array {
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
    const res = io.call<ReadResult>({ op: 'read', stream: body.remote, max });
    if ('error' in res) {
      body.remote = null;
      throw new HostError(ERROR, `reading a body failed: ${res.error}`);
    }
    if (res.data === null) {
      body.remote = null;
      return new Uint8Array(0);
    }
    return res.data;
  }
  return new Uint8Array(0);
}

/** The whole body in this thread (for bodies the guest made or must see whole). */
export function drainBody(io: MainThread, body: BodyObj): Uint8Array {
  const parts: Uint8Array[] = [];
  for (;;) {
    const chunk = readBody(io, body, 1 << 20);
    if (chunk.length === 0) break;
    parts.push(chunk);
  }
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts);
}

/** A body that is nothing but a main-thread stream, which the main thread can move without this thread. */
export function wholeRemote(body: BodyObj): number | null {
  return body.chunks.every((c) => c.length === 0) && body.remote !== null && !body.sink ? body.remote : null;
}

export function sinkWrite(io: MainThread, sink: Sink, data: Uint8Array): void {
  if (data.length === 0) return;
  if (sink.type === 'down') io.post({ op: 'chunk', rid: sink.rid, data });
  else io.post({ op: 'upChunk', upstreamId: sink.upstreamId, data });
}

export function sinkEnd(io: MainThread, sink: Sink): void {
  if (sink.type === 'down') io.post({ op: 'end', rid: sink.rid });
  else io.post({ op: 'upEnd', upstreamId: sink.upstreamId });
}
