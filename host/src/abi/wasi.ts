// The WASI preview1 calls a js-compute guest makes: stdio, clocks, randomness, timers, args and
// environment. There is no file system: path calls answer ENOTCAPABLE, as without preopens.
import { randomFillSync } from 'node:crypto';
import { sleep, writeFd } from '../guest/blocking.js';
import type { GuestMemory } from '../guest/memory.js';
import type { Sandbox } from '../guest/sandbox.js';
import type { AbiModule } from './types.js';

const WASI_ESUCCESS = 0;
const WASI_EBADF = 8;
const WASI_ESPIPE = 70;
const WASI_ENOTCAPABLE = 76;

/** Thrown by proc_exit to unwind the guest; the code tells a clean exit from a failure. */
export class ProcExit {
  constructor(readonly code: number) {}
}

const ARGS = ['compute-app'];

function writeStrings(m: GuestMemory, list: string[], ptrs: number, buf: number): number {
  let off = buf;
  list.forEach((s, i) => {
    const bytes = Buffer.from(`${s}\0`, 'utf8');
    m.w32(ptrs + i * 4, off);
    m.set(bytes, off);
    off += bytes.length;
  });
  return WASI_ESUCCESS;
}

function sizes(m: GuestMemory, list: string[], countPtr: number, sizePtr: number): number {
  m.w32(countPtr, list.length);
  m.w32(
    sizePtr,
    list.reduce((n, s) => n + Buffer.byteLength(s) + 1, 0),
  );
  return WASI_ESUCCESS;
}

/** The environment Viceroy gives a guest; the trace id is the current request's. */
function environment(sb: Sandbox): string[] {
  return [
    'FASTLY_CACHE_GENERATION=0',
    'FASTLY_CUSTOMER_ID=0000000000000000000000',
    'FASTLY_POP=XXX',
    'FASTLY_REGION=Somewhere',
    'FASTLY_SERVICE_ID=0000000000000000000000',
    'FASTLY_SERVICE_VERSION=0',
    'FASTLY_HOSTNAME=localhost',
    'FASTLY_IS_STAGING=0',
    `FASTLY_TRACE_ID=${sb.current?.msg.traceId ?? '0'.repeat(32)}`,
  ];
}

function nowNs(clock: number): bigint {
  if (clock === 0) return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n;
  return process.hrtime.bigint();
}

/** The wasi_snapshot_preview1 imports. */
export const wasi: AbiModule = {
  args_sizes_get: (sb, c: number, s: number) => sizes(sb.mem, ARGS, c, s),
  args_get: (sb, p: number, b: number) => writeStrings(sb.mem, ARGS, p, b),
  environ_sizes_get: (sb, c: number, s: number) => sizes(sb.mem, environment(sb), c, s),
  environ_get: (sb, p: number, b: number) => writeStrings(sb.mem, environment(sb), p, b),
  clock_res_get: (sb, _id: number, out: number) => {
    sb.mem.w64(out, 1000n);
    return WASI_ESUCCESS;
  },
  clock_time_get: (sb, id: number, _precision: bigint, out: number) => {
    sb.mem.w64(out, nowNs(id));
    return WASI_ESUCCESS;
  },
  random_get: (sb, ptr: number, len: number) => {
    randomFillSync(sb.mem.bytes(), ptr, len);
    return WASI_ESUCCESS;
  },
  fd_write: (sb, fd: number, iovs: number, count: number, nwritten: number) => {
    if (fd !== 1 && fd !== 2) return WASI_EBADF;
    // Views into guest memory are enough: concat copies them, and writeFd is synchronous.
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const p = sb.mem.r32(iovs + i * 8);
      const l = sb.mem.r32(iovs + i * 8 + 4);
      parts.push(sb.mem.bytes().subarray(p, p + l));
      total += l;
    }
    writeFd(fd, Buffer.concat(parts));
    sb.mem.w32(nwritten, total);
    return WASI_ESUCCESS;
  },
  fd_read: (sb, fd: number, _iovs: number, _count: number, nread: number) => {
    if (fd !== 0) return WASI_EBADF;
    sb.mem.w32(nread, 0);
    return WASI_ESUCCESS;
  },
  fd_close: (_sb, fd: number) => (fd <= 2 ? WASI_ESUCCESS : WASI_EBADF),
  fd_fdstat_get: (sb, fd: number, out: number) => {
    if (fd > 2) return WASI_EBADF;
    sb.mem.w8(out, 2); // character device
    sb.mem.w16(out + 2, 0);
    sb.mem.w64(out + 8, 0xffff_ffffn);
    sb.mem.w64(out + 16, 0xffff_ffffn);
    return WASI_ESUCCESS;
  },
  fd_fdstat_set_flags: () => WASI_ESUCCESS,
  fd_prestat_get: () => WASI_EBADF,
  fd_prestat_dir_name: () => WASI_EBADF,
  fd_seek: (_sb, fd: number) => (fd <= 2 ? WASI_ESPIPE : WASI_EBADF),
  fd_readdir: () => WASI_EBADF,
  path_open: () => WASI_ENOTCAPABLE,
  path_filestat_get: () => WASI_ENOTCAPABLE,
  path_remove_directory: () => WASI_ENOTCAPABLE,
  path_unlink_file: () => WASI_ENOTCAPABLE,
  sched_yield: () => WASI_ESUCCESS,
  poll_oneoff: (sb, inPtr: number, outPtr: number, n: number, neventsPtr: number) => {
    // Only clock subscriptions matter to the guest (timers); fd events are reported ready at once.
    const delays: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = inPtr + i * 48;
      if (sb.mem.view().getUint8(s + 8) !== 0) {
        delays.push(0);
        continue;
      }
      const timeout = sb.mem.r64(s + 24);
      const absolute = (sb.mem.view().getUint16(s + 40, true) & 1) === 1;
      const ns = absolute ? Number(timeout - nowNs(sb.mem.r32(s + 16))) : Number(timeout);
      delays.push(Math.max(0, ns / 1e6));
    }
    const wait = Math.min(...delays);
    if (Number.isFinite(wait) && wait > 0) sleep(wait);
    let events = 0;
    delays.forEach((delay, i) => {
      if (delay > wait) return;
      const s = inPtr + i * 48;
      const e = outPtr + events * 32;
      sb.mem.w64(e, sb.mem.r64(s));
      sb.mem.w16(e + 8, 0);
      sb.mem.w8(e + 10, sb.mem.view().getUint8(s + 8));
      events++;
    });
    sb.mem.w32(neventsPtr, events);
    return WASI_ESUCCESS;
  },
  proc_exit: (_sb, code: number) => {
    throw new ProcExit(code);
  },
};
