// Messages between the main thread (network, shared state) and the guest workers.
// A worker blocks on `rpc` calls with Atomics.wait; everything else is fire-and-forget.
import type { MessagePort } from 'node:worker_threads';
import type { WorkerManifest } from './config.js';
import type { BackendConfig } from './manifest/backends.js';
import type { MemoryLimits } from './memory-rewrite.js';
import type { Usage } from './guest/limits.js';

export type Header = [name: string, value: string];

export interface WorkerInit {
  module: WebAssembly.Module;
  /** Set when the module was rewritten to import its memory (see memory-rewrite.ts). */
  memory: MemoryLimits | null;
  signal: SharedArrayBuffer;
  port: MessagePort;
  manifest: WorkerManifest;
  /** Print each failed hostcall's status and reason (`-v`). */
  verbose: boolean;
  /** Print per-instance timings and the costliest hostcalls (COMPUTE_HOST_PROFILE=1). */
  profile: boolean;
}

export interface DownstreamRequest {
  type: 'request';
  rid: number;
  method: string;
  url: string;
  headers: Header[];
  /** Main-thread stream of the request body; null when there is none. */
  bodyStream: number | null;
  clientIp: string;
  serverIp: string;
  traceId: string;
  /** The worker's manifest, sent when it changed since this worker last had it. */
  manifest?: WorkerManifest;
}

/** The answer to a sandbox waiting for its next request: one, or null when none came in time. */
export type NextReply = { request: DownstreamRequest; manifest?: WorkerManifest } | null;

export interface BackendRequest {
  method: string;
  url: string;
  headers: Header[];
  autoDecompress: boolean;
}

export type OneWay =
  | {
      op: 'respond';
      rid: number;
      status: number;
      headers: Header[];
      body: Uint8Array | null;
      streaming: boolean;
      /** A backend body stream to send as the whole response body. */
      pipe?: number;
    }
  | { op: 'chunk'; rid: number; data: Uint8Array }
  | { op: 'pipe'; rid: number; stream: number }
  | { op: 'end'; rid: number }
  /** The guest is done with this request (its response may still be streaming from the main thread). */
  | { op: 'done'; rid: number; error?: string; usage?: Usage }
  /** The instance has ended: the worker can start a fresh one. */
  | { op: 'free' }
  | {
      op: 'send';
      /** Names this backend request (an `Upstream` on the main thread) in the messages that follow. */
      upstreamId: number;
      /** As the worker resolved it (a configured or a dynamic backend), so both threads use the same one. */
      backend: BackendConfig;
      req: BackendRequest;
      body: Uint8Array | null;
      /** A main-thread stream (the client's body, say) to send as the whole body, piped there. */
      bodyStream?: number;
      streaming: boolean;
    }
  | { op: 'upChunk'; upstreamId: number; data: Uint8Array }
  | { op: 'upEnd'; upstreamId: number }
  | { op: 'unsupported'; name: string };

/** Items a worker may wait on that live in the main thread. */
export type RemoteItem = { kind: 'pending'; id: number } | { kind: 'stream'; id: number };

export type KvOp =
  | { kind: 'lookup'; store: string; key: string }
  | {
      kind: 'insert';
      store: string;
      key: string;
      value: Uint8Array;
      mode: number;
      metadata?: string;
      ttlSec?: number;
      ifGenerationMatch?: bigint;
    }
  | { kind: 'delete'; store: string; key: string }
  | { kind: 'list'; store: string; prefix?: string; limit?: number; cursor?: string }
  | { kind: 'exists'; store: string };

export type ErlOp =
  | { kind: 'increment'; rc: string; entry: string; delta: number }
  | { kind: 'rate'; rc: string; entry: string; window: number }
  | { kind: 'count'; rc: string; entry: string; duration: number }
  | { kind: 'pbAdd'; pb: string; entry: string; ttl: number }
  | { kind: 'pbHas'; pb: string; entry: string }
  | { kind: 'check'; rc: string; entry: string; delta: number; window: number; limit: number; pb: string; ttl: number };

export type Rpc =
  | { op: 'wait'; upstreamId: number }
  | { op: 'read'; stream: number; max: number }
  | { op: 'select'; items: RemoteItem[]; timeoutMs: number }
  | { op: 'ready'; item: RemoteItem }
  | { op: 'kv'; kv: KvOp }
  | { op: 'erl'; erl: ErlOp }
  /** A reused sandbox asks for another request, waiting at most this long. */
  | { op: 'next'; timeoutMs: number };

export type SendErrorTag =
  | 'dns_error'
  | 'destination_not_found'
  | 'connection_refused'
  | 'connection_terminated'
  | 'connection_timeout'
  | 'http_response_timeout'
  | 'http_incomplete_response'
  | 'http_protocol_error'
  | 'tls_certificate_error'
  | 'tls_protocol_error'
  | 'internal_error';

export type WaitResult =
  | { ok: true; status: number; headers: Header[]; stream: number; remoteIp: string; remotePort: number }
  | { ok: false; tag: SendErrorTag; message: string };

export type ReadResult = { data: Uint8Array | null } | { error: string };

export type KvResult =
  | { status: 'ok'; value?: Uint8Array; metadata?: string; generation?: bigint; body?: Uint8Array }
  | { status: 'not_found' | 'bad_request' | 'precondition_failed' | 'no_store' };

export interface RpcMessage {
  rpc: Rpc;
}
export interface OneWayMessage {
  oneWay: OneWay;
}
