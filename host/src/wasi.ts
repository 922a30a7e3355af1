// The WASI preview1 calls a js-compute guest makes: stdio, clocks, randomness, timers, args and
// environment. There is no file system: path calls answer ENOTCAPABLE, as without preopens.
import { randomFillSync } from 'node:crypto';
import { writeSync } from 'node:fs';
import { mem, r32, r64, view, w16, w32, w64, w8 } from './guest-memory.js';

const WASI_ESUCCESS = 0;
const WASI_EBADF = 8;
const WASI_ESPIPE = 70;
const WASI_ENOTCAPABLE = 76;

/** Thrown by proc_exit to unwind the guest; the code tells a clean exit from a failure. */
export class ProcExit {
  constructor(readonly code: number) {}
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (timers, retries): the guest cannot yield. */
export function sleep(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

const ARGS = ['compute-app'];

function writeStrings(list: string[], ptrs: number, buf: number): number {
  let off = buf;
  list.forEach((s, i) => {
    const bytes = Buffer.from(`${s}\0`, 'utf8');
    w32(ptrs + i * 4, off);
    mem().set(bytes, off);
    off += bytes.length;
  });
  return WASI_ESUCCESS;
}

function sizes(list: string[], countPtr: number, sizePtr: number): number {
  w32(countPtr, list.length);
  w32(sizePtr, list.reduce((n, s) => n + Buffer.byteLength(s) + 1, 0));
  return WASI_ESUCCESS;
}

export function writeFd(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off);
    } catch (err) {
      // stdout may be a non-blocking pipe; wait a moment rather than lose output.
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      sleep(1);
    }
  }
}


function nowNs(clock: number): bigint {
  if (clock === 0) return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n;
  return process.hrtime.bigint();
}

/** The wasi_snapshot_preview1 imports; `environment` gives the current request's variables. */
export function createWasi(environment: () => string[]) {
  return {
    args_sizes_get: (c: number, s: number) => sizes(ARGS, c, s),
    args_get: (p: number, b: number) => writeStrings(ARGS, p, b),
    environ_sizes_get: (c: number, s: number) => sizes(environment(), c, s),
    environ_get: (p: number, b: number) => writeStrings(environment(), p, b),
    clock_res_get: (_id: number, out: number) => {
      w64(out, 1000n);
      return WASI_ESUCCESS;
    },
    clock_time_get: (id: number, _precision: bigint, out: number) => {
      w64(out, nowNs(id));
      return WASI_ESUCCESS;
    },
    random_get: (ptr: number, len: number) => {
      randomFillSync(mem(), ptr, len);
      return WASI_ESUCCESS;
    },
    fd_write: (fd: number, iovs: number, count: number, nwritten: number) => {
      if (fd !== 1 && fd !== 2) return WASI_EBADF;
      // Views into guest memory are enough: concat copies them, and writeFd is synchronous.
      const parts: Uint8Array[] = [];
      let total = 0;
      for (let i = 0; i < count; i++) {
        const p = r32(iovs + i * 8);
        const l = r32(iovs + i * 8 + 4);
        parts.push(mem().subarray(p, p + l));
        total += l;
      }
      writeFd(fd, Buffer.concat(parts));
      w32(nwritten, total);
      return WASI_ESUCCESS;
    },
    fd_read: (fd: number, _iovs: number, _count: number, nread: number) => {
      if (fd !== 0) return WASI_EBADF;
      w32(nread, 0);
      return WASI_ESUCCESS;
    },
    fd_close: (fd: number) => (fd <= 2 ? WASI_ESUCCESS : WASI_EBADF),
    fd_fdstat_get: (fd: number, out: number) => {
      if (fd > 2) return WASI_EBADF;
      w8(out, 2); // character device
      w16(out + 2, 0);
      w64(out + 8, 0xffff_ffffn);
      w64(out + 16, 0xffff_ffffn);
      return WASI_ESUCCESS;
    },
    fd_fdstat_set_flags: () => WASI_ESUCCESS,
    fd_prestat_get: () => WASI_EBADF,
    fd_prestat_dir_name: () => WASI_EBADF,
    fd_seek: (fd: number) => (fd <= 2 ? WASI_ESPIPE : WASI_EBADF),
    fd_readdir: () => WASI_EBADF,
    path_open: () => WASI_ENOTCAPABLE,
    path_filestat_get: () => WASI_ENOTCAPABLE,
    path_remove_directory: () => WASI_ENOTCAPABLE,
    path_unlink_file: () => WASI_ENOTCAPABLE,
    sched_yield: () => WASI_ESUCCESS,
    poll_oneoff: (inPtr: number, outPtr: number, n: number, neventsPtr: number) => {
      // Only clock subscriptions matter to the guest (timers); fd events are reported ready at once.
      const delays: number[] = [];
      for (let i = 0; i < n; i++) {
        const s = inPtr + i * 48;
        if (view().getUint8(s + 8) !== 0) {
          delays.push(0);
          continue;
        }
        const timeout = r64(s + 24);
        const absolute = (view().getUint16(s + 40, true) & 1) === 1;
        const ns = absolute ? Number(timeout - nowNs(r32(s + 16))) : Number(timeout);
        delays.push(Math.max(0, ns / 1e6));
      }
      const wait = Math.min(...delays);
      if (Number.isFinite(wait) && wait > 0) sleep(wait);
      let events = 0;
      delays.forEach((delay, i) => {
        if (delay > wait) return;
        const s = inPtr + i * 48;
        const e = outPtr + events * 32;
        w64(e, r64(s));
        w16(e + 8, 0);
        w8(e + 10, view().getUint8(s + 8));
        events++;
      });
      w32(neventsPtr, events);
      return WASI_ESUCCESS;
    },
    proc_exit: (code: number) => {
      throw new ProcExit(code);
    },
  };
}
