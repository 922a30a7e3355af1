// A Sandbox as a hostcall sees it, without a worker thread or a guest: its memory is a plain
// WebAssembly.Memory the test writes arguments into and reads answers out of, exactly the bytes a
// guest would see, and its line to the main thread is a fake that records what the sandbox posts
// and answers its calls from the test's own function.
import type { BackendConfig, StoreSnapshot } from '../../../host/src/config.js';
import { GuestMemory } from '../../../host/src/guest/memory.js';
import { Sandbox, type SandboxWorker } from '../../../host/src/guest/sandbox.js';
import type { Transport } from '../../../host/src/guest/transport.js';
import type { DownstreamRequest, Header, OneWay, Rpc } from '../../../host/src/protocol.js';
import type { HostFn } from '../../../host/src/abi/types.js';
import { wrap } from '../../../host/src/guest/imports.js';

export interface FakeLine {
  posted: OneWay[];
  calls: Rpc[];
  unsupported: string[];
}

export interface Harness {
  sb: Sandbox;
  line: FakeLine;
  /** Places bytes (or UTF-8 text) in guest memory; returns [pointer, length]. */
  put(data: string | Uint8Array): [number, number];
  /** A fresh zeroed area of guest memory of `size` bytes (an out-pointer or a buffer). */
  area(size: number): number;
  u32(ptr: number): number;
  u16(ptr: number): number;
  u64(ptr: number): bigint;
  text(ptr: number, len: number): string;
  /** Calls a hostcall through the host's own import wrapper, as a guest does. */
  call(fn: HostFn | undefined, ...args: number[]): number;
  /** Requests handed to the sandbox when the guest asks for its next one, in order. */
  nextRequests: Array<DownstreamRequest | null>;
}

export const backend = (name: string, overrides: Partial<BackendConfig> = {}): BackendConfig => ({
  name,
  url: `http://${name}.test/`,
  protocol: 'http:',
  hostname: `${name}.test`,
  port: 80,
  pathPrefix: '/',
  useSni: true,
  connectTimeoutMs: 1000,
  firstByteTimeoutMs: 15000,
  betweenBytesTimeoutMs: 10000,
  ...overrides,
});

export function snapshot(parts: Partial<StoreSnapshot> = {}): StoreSnapshot {
  return {
    backends: {},
    configStores: {},
    secretStores: {},
    geolocation: { useDefaultLoopback: true, addresses: {} },
    acls: {},
    deviceDetection: {},
    ...parts,
  };
}

let nextRid = 1;

export function downstream(parts: Partial<DownstreamRequest> & { headers?: Header[] } = {}): DownstreamRequest {
  return {
    type: 'request',
    rid: nextRid++,
    method: 'GET',
    url: 'http://room.test/page',
    headers: [],
    bodyStream: null,
    clientIp: '192.0.2.7',
    serverIp: '127.0.0.1',
    traceId: 'trace-1',
    ...parts,
  };
}

export interface HarnessOptions {
  /** The manifest's stores; a function when a test reloads them between calls. */
  snapshot?: StoreSnapshot | (() => StoreSnapshot);
  /** The request the sandbox serves; none when omitted with `serving: false`. */
  request?: DownstreamRequest;
  serving?: boolean;
  /** Answers the sandbox's blocking calls to the main thread. */
  answer?: (rpc: Rpc) => unknown;
}

export function harness(options: HarnessOptions = {}): Harness {
  const memory = new WebAssembly.Memory({ initial: 2 });
  const line: FakeLine = { posted: [], calls: [], unsupported: [] };
  const answer = options.answer ?? ((rpc: Rpc) => {
    throw new Error(`unexpected call to the main thread: ${JSON.stringify(rpc)}`);
  });
  const io = {
    post: (msg: OneWay) => line.posted.push(msg),
    call: (rpc: Rpc) => {
      line.calls.push(rpc);
      return answer(rpc);
    },
    unsupported: (name: string) => line.unsupported.push(name),
  } as unknown as Transport;
  const nextRequests: Array<DownstreamRequest | null> = [];
  const worker: SandboxWorker = {
    io,
    snapshot: () => (typeof options.snapshot === 'function' ? options.snapshot() : (options.snapshot ?? snapshot())),
    nextRequest: () => nextRequests.shift() ?? null,
    requestEnded: () => undefined,
  };
  const sb = new Sandbox(new GuestMemory(memory), worker);
  if (options.serving !== false) sb.begin(options.request ?? downstream());

  // A bump allocator from 1 KiB up; each area starts 8-aligned.
  let top = 1024;
  const bytes = () => new Uint8Array(memory.buffer);
  const view = () => new DataView(memory.buffer);
  const area = (size: number): number => {
    const at = top;
    top += Math.max(8, Math.ceil(size / 8) * 8);
    bytes().fill(0, at, at + size);
    return at;
  };
  return {
    sb,
    line,
    nextRequests,
    put(data) {
      const raw = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      const at = area(raw.length);
      bytes().set(raw, at);
      return [at, raw.length];
    },
    area,
    u32: (ptr) => view().getUint32(ptr, true),
    u16: (ptr) => view().getUint16(ptr, true),
    u64: (ptr) => view().getBigUint64(ptr, true),
    text: (ptr, len) => Buffer.from(memory.buffer, ptr, len).toString('latin1'),
    call(fn, ...args) {
      if (fn === undefined) throw new Error('no such hostcall');
      return wrap('test', fn, false, { sandbox: () => sb, io, verbose: false, profile: null })(...(args as never[]));
    },
  };
}

/** A pointer past the end of the fixture's guest memory (two 64 KiB pages). */
export const OUTSIDE = 2 * 65536 - 2;
