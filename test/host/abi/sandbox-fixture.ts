// A Sandbox over a fresh one-page memory, a fake main thread and a fake worker, and the guest's side
// of a hostcall: strings and buffers written into its memory, out-pointers and buffers read back.
// Calls go through the same wrapper a guest's imports do, so a bad handle or pointer is a status.
import { expect } from 'vitest';
import { httpBody } from '../../../host/src/abi/http-body.js';
import { BUFLEN, OK } from '../../../host/src/guest/status.js';
import type { AbiModule } from '../../../host/src/abi/types.js';
import type { WorkerManifest } from '../../../host/src/config.js';
import type { BackendConfig } from '../../../host/src/manifest/backends.js';
import type { Obj } from '../../../host/src/guest/handles.js';
import { hostImport, wrap, type ImportOptions } from '../../../host/src/worker/linking.js';
import { GuestMemory } from '../../../host/src/guest/memory.js';
import { Sandbox, type SandboxWorker } from '../../../host/src/guest/sandbox.js';
import type { MainThread } from '../../../host/src/guest/transport.js';
import type { DownstreamRequest, OneWay, Rpc } from '../../../host/src/protocol.js';

/** A pointer past the end of the one-page memory. */
export const OUTSIDE = 0x2_0000;
/** What every out-slot and buffer holds before a hostcall writes it. */
export const UNTOUCHED = 0xeeee_eeee;
const FILL = 0xee;

type Answer<K extends Rpc['op']> = (rpc: Extract<Rpc, { op: K }>) => unknown;
export type Answers = { [K in Rpc['op']]?: Answer<K> };

/** Answers the RPCs it is given a reply for and records every message; any other call fails. */
export class FakeMainThread implements MainThread {
  readonly posts: OneWay[] = [];
  readonly calls: Rpc[] = [];
  readonly unsupportedNames: string[] = [];
  readonly blockedMs = 0;

  constructor(public answers: Answers = {}) {}

  post(msg: OneWay): void {
    this.posts.push(msg);
  }

  call<T>(rpc: Rpc): T {
    this.calls.push(rpc);
    const answer = this.answers[rpc.op] as ((r: Rpc) => unknown) | undefined;
    if (!answer) throw new Error(`unexpected rpc ${JSON.stringify(rpc)}`);
    return answer(rpc) as T;
  }

  unsupported(name: string): void {
    this.unsupportedNames.push(name);
  }
}

/** Each reply in turn, one per call; a call past the last fails. */
export function inTurn(...replies: unknown[]): () => unknown {
  return () => {
    if (replies.length === 0) throw new Error('no reply left');
    return replies.shift();
  };
}

export function downstreamRequest(over: Partial<DownstreamRequest> = {}): DownstreamRequest {
  return {
    type: 'request',
    rid: 1,
    method: 'GET',
    url: 'http://example.test/',
    headers: [],
    bodyStream: null,
    clientIp: '192.0.2.10',
    serverIp: '127.0.0.1',
    traceId: '0123456789abcdef0123456789abcdef',
    ...over,
  };
}

export function manifest(over: Partial<WorkerManifest> = {}): WorkerManifest {
  return {
    backends: {},
    configStores: {},
    secretStores: {},
    geolocation: { useDefaultLoopback: true, addresses: {} },
    acls: {},
    deviceDetection: {},
    ...over,
  };
}

export function backendConfig(name: string, url: string, over: Partial<BackendConfig> = {}): BackendConfig {
  const u = new URL(url);
  const protocol = u.protocol === 'https:' ? 'https:' : 'http:';
  return {
    name,
    url,
    protocol,
    hostname: u.hostname,
    port: u.port ? Number(u.port) : protocol === 'https:' ? 443 : 80,
    pathPrefix: u.pathname,
    useSni: true,
    connectTimeoutMs: 1000,
    firstByteTimeoutMs: 15000,
    betweenBytesTimeoutMs: 10000,
    ...over,
  };
}

export interface GuestOptions {
  manifest?: Partial<WorkerManifest>;
  /** The downstream request being served; none when null. */
  request?: Partial<DownstreamRequest> | null;
  answers?: Answers;
  /** What the worker hands a guest that asks for its next request, in turn (null: none came). */
  next?: Array<DownstreamRequest | null>;
  /** Fastly's per-execution limits enforced (default), or only reported (COMPUTE_HOST_LIMITS=off). */
  enforceLimits?: boolean;
}

/** A guest, and a handle from `module`.open of `name` (a store, an ACL). */
export function opened(module: AbiModule, name: string, opts: GuestOptions = {}): [Guest, number] {
  const g = new Guest(opts);
  return [g, g.handle(module, 'open', ...g.str(name))];
}

/** A guest buffer with its length and nwritten slot, as `(buf, max, nwritten)` calls take them. */
export interface OutBuffer {
  buf: number;
  max: number;
  nw: number;
  args: [buf: number, max: number, nwritten: number];
  /** The nwritten slot. */
  written(): number;
  /** The bytes the call wrote (nwritten of them). */
  bytes(): Uint8Array;
  text(encoding?: BufferEncoding): string;
}

/** A buffer for the multi-value calls `(buf, len, cursor, ending_cursor, nwritten)`. */
export interface MultiBuffer {
  buf: number;
  ending: number;
  nw: number;
  args(cursor?: number): [buf: number, len: number, cursor: number, ending: number, nwritten: number];
  /** The NUL-terminated items written. */
  items(): string[];
  /** The ending cursor: -1 when the list is done, else where to resume. */
  endingCursor(): bigint;
}

export class Guest {
  readonly memory = new WebAssembly.Memory({ initial: 1 });
  readonly io: FakeMainThread;
  readonly sb: Sandbox;
  /** The test's own view of guest memory, apart from the sandbox's. */
  private readonly reader = new GuestMemory(this.memory);
  /** The waits the guest asked the worker for (next_request). */
  readonly nextWaits: number[] = [];
  /** Requests that ended (the worker's requestEnded). */
  readonly ended: DownstreamRequest[] = [];
  /** The lines a limit reached wrote to the host's stderr. */
  readonly limitReports: string[] = [];
  private top = 16;

  constructor(opts: GuestOptions = {}) {
    this.io = new FakeMainThread(opts.answers);
    const theManifest = manifest(opts.manifest);
    const next = [...(opts.next ?? [])];
    const worker: SandboxWorker = {
      io: this.io,
      manifest: () => theManifest,
      nextRequest: (timeoutMs) => {
        this.nextWaits.push(timeoutMs);
        return next.shift() ?? null;
      },
      requestEnded: (_sb, request) => {
        this.ended.push(request.msg);
      },
      limits: {
        enforce: opts.enforceLimits ?? true,
        memoryCap: 128 * 2 ** 20,
        report: (line) => this.limitReports.push(line),
      },
    };
    this.sb = new Sandbox(new GuestMemory(this.memory), worker);
    if (opts.request !== null) this.sb.begin(downstreamRequest(opts.request));
  }

  private options(): ImportOptions {
    return { sandbox: () => this.sb, io: this.io, verbose: false, profile: null };
  }

  /** Calls `module[name]` as the guest's import would, with the raw i32 arguments. */
  call(module: AbiModule, name: string, ...args: number[]): number {
    const fn = Object.hasOwn(module, name) ? module[name] : undefined;
    if (!fn) throw new Error(`the module has no hostcall ${name}`);
    return this.run((sb, ...a) => fn(sb, ...(a as never[])), ...args);
  }

  /** Runs `fn` through the import wrapper (for helpers that take more than raw arguments). */
  run(fn: (sb: Sandbox, ...args: number[]) => number, ...args: number[]): number {
    return (wrap('test', fn, false, this.options()) as (...a: number[]) => number)(...args);
  }

  /** The function a guest importing `module`.`name` would be given (index.ts's table). */
  imported(module: string, name: string): (...args: number[]) => number {
    return hostImport(module, name, this.options()) as (...a: number[]) => number;
  }

  /** Calls a hostcall whose last argument is one u32 out-slot: its status and what it wrote. */
  callOut(module: AbiModule, name: string, ...args: number[]): { status: number; value: number } {
    const out = this.alloc(4);
    const status = this.call(module, name, ...args, out);
    return { status, value: this.u32(out) };
  }

  /** A handle from a call that must succeed, such as open or new. */
  handle(module: AbiModule, name: string, ...args: number[]): number {
    const { status, value } = this.callOut(module, name, ...args);
    expect(status, `${name} answers OK`).toBe(OK);
    return value;
  }

  /** Puts host-side state in the handle table (what the host would have made: a streamed body, say). */
  add(obj: Obj): number {
    return this.sb.handles.add(obj);
  }

  /** `size` bytes of guest memory, each UNTOUCHED's byte, 8-aligned. */
  alloc(size: number): number {
    const ptr = this.top;
    this.top += Math.ceil(Math.max(size, 1) / 8) * 8;
    if (this.top > this.memory.buffer.byteLength) throw new Error('the test ran out of guest memory');
    new Uint8Array(this.memory.buffer, ptr, size).fill(FILL);
    return ptr;
  }

  /** Bytes written into guest memory: [pointer, length]. */
  bytes(data: Uint8Array | number[]): [ptr: number, len: number] {
    const ptr = this.alloc(data.length);
    new Uint8Array(this.memory.buffer).set(data, ptr);
    return [ptr, data.length];
  }

  /** An array of u32s (handles, say) written into guest memory: its pointer. */
  u32s(values: number[]): number {
    return this.bytes(new Uint8Array(new Uint32Array(values).buffer))[0];
  }

  /** A string written into guest memory as UTF-8 (or Latin-1): [pointer, length]. */
  str(text: string, encoding: BufferEncoding = 'utf8'): [ptr: number, len: number] {
    return this.bytes(Buffer.from(text, encoding));
  }

  buffer(max: number): OutBuffer {
    const buf = this.alloc(max);
    const nw = this.alloc(4);
    const bytes = () => this.read(buf, this.u32(nw));
    return {
      buf,
      max,
      nw,
      args: [buf, max, nw],
      written: () => this.u32(nw),
      bytes,
      text: (enc = 'utf8') => Buffer.from(bytes()).toString(enc),
    };
  }

  /**
   * Checks a `(buf, max, nwritten)` call against the size of its answer: a buffer one byte short is
   * BUFLEN with that size in nwritten and nothing written; a buffer of exactly that size is OK.
   */
  fitsExactly(needed: number, call: (out: OutBuffer['args']) => number): OutBuffer {
    const short = this.buffer(needed - 1);
    expect(call(short.args), 'one byte short').toBe(BUFLEN);
    expect(short.written(), 'the size needed').toBe(needed);
    expect(
      this.read(short.buf, needed - 1).every((b) => b === FILL),
      'the short buffer is untouched',
    ).toBe(true);
    const exact = this.buffer(needed);
    expect(call(exact.args), 'exact size').toBe(OK);
    expect(exact.written()).toBe(needed);
    return exact;
  }

  multi(len: number): MultiBuffer {
    const buf = this.alloc(len);
    const ending = this.alloc(8);
    const nw = this.alloc(4);
    return {
      buf,
      ending,
      nw,
      args: (cursor = 0) => [buf, len, cursor, ending, nw],
      items: () =>
        Buffer.from(this.read(buf, this.u32(nw)))
          .toString('latin1')
          .split('\0')
          .slice(0, -1),
      endingCursor: () => BigInt.asIntN(64, this.u64(ending)),
    };
  }

  u8(ptr: number): number {
    return this.reader.r8(ptr);
  }
  u16(ptr: number): number {
    return this.reader.r16(ptr);
  }
  u32(ptr: number): number {
    return this.reader.r32(ptr);
  }
  u64(ptr: number): bigint {
    return this.reader.r64(ptr);
  }

  /** A zeroed record of `size` bytes with u32 (number) and u64 (bigint) fields at their offsets. */
  record(size: number, fields: Record<number, number | bigint>): number {
    const ptr = this.alloc(size);
    new Uint8Array(this.memory.buffer, ptr, size).fill(0);
    for (const [offset, value] of Object.entries(fields)) {
      if (typeof value === 'bigint') this.reader.w64(ptr + Number(offset), value);
      else this.reader.w32(ptr + Number(offset), value);
    }
    return ptr;
  }

  read(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.memory.buffer).slice(ptr, ptr + len);
  }

  /** A body handle read to its end as a guest reads it (fastly_http_body.read until 0 bytes). */
  readBody(h: number, chunk = 1024): string {
    const out = this.buffer(chunk);
    let text = '';
    for (;;) {
      expect(this.call(httpBody, 'read', h, ...out.args)).toBe(OK);
      if (out.written() === 0) return text;
      text += out.text('latin1');
    }
  }
}
