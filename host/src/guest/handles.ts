// What a guest's handles point at, and the table that hands them out. A table lives as long as the
// sandbox (instance) that owns it, across every request a reused sandbox serves.
import { BADF, HostError } from './status.js';
import type { BackendConfig } from '../manifest/backends.js';
import type { DownstreamRequest, Header, KvResult, WaitResult } from '../protocol.js';

export interface ReqObj {
  kind: 'req';
  method: string;
  uri: string;
  headers: Header[];
  version: number;
  autoDecompress: boolean;
  /** Set on a downstream request: the client's metadata and headers as they arrived. */
  downstream?: DownstreamRequest;
}
export interface RespObj {
  kind: 'resp';
  status: number;
  headers: Header[];
  version: number;
  remoteIp?: string;
  remotePort?: number;
}
export type Sink = { type: 'down'; rid: number } | { type: 'up'; upstreamId: number };
export interface BodyObj {
  kind: 'body';
  chunks: Uint8Array[];
  /** Main-thread stream holding the rest of the body, after `chunks`. */
  remote: number | null;
  sink: Sink | null;
}
export interface PendingObj {
  kind: 'pending';
  /** The backend request on the main thread (see Sandbox.newUpstreamId). */
  upstreamId: number;
  /** The backend the request went to, as resolved when it was sent. */
  backend: BackendConfig;
  result?: WaitResult;
}
export interface KvPendingObj {
  kind: 'kvpending';
  result: KvResult;
}
export interface NextReqObj {
  kind: 'nextreq';
  timeoutMs: number;
}
export type Obj =
  | ReqObj
  | RespObj
  | BodyObj
  | PendingObj
  | KvPendingObj
  | NextReqObj
  | { kind: 'config'; name: string }
  | { kind: 'secretstore'; name: string }
  | { kind: 'secret'; value: Uint8Array }
  | { kind: 'kvstore'; name: string }
  /** Latin-1 text so the name's bytes go out unchanged, whatever their encoding. */
  | { kind: 'log'; name: string }
  | { kind: 'acl'; name: string };

export class HandleTable {
  private readonly objects = new Map<number, Obj>();
  private next = 1;

  add(obj: Obj): number {
    const h = this.next++;
    this.objects.set(h, obj);
    return h;
  }

  get<K extends Obj['kind']>(h: number, kind: K): Extract<Obj, { kind: K }> {
    const obj = this.objects.get(h);
    if (!obj || obj.kind !== kind) throw new HostError(BADF, `handle ${h} is not a live ${kind}`);
    return obj as Extract<Obj, { kind: K }>;
  }

  /** The object behind a handle of any kind, or undefined. */
  peek(h: number): Obj | undefined {
    return this.objects.get(h);
  }

  /** Gets and forgets: the handle is spent. */
  take<K extends Obj['kind']>(h: number, kind: K): Extract<Obj, { kind: K }> {
    const obj = this.get(h, kind);
    this.objects.delete(h);
    return obj;
  }

  delete(h: number): void {
    this.objects.delete(h);
  }

  get size(): number {
    return this.objects.size;
  }
}
