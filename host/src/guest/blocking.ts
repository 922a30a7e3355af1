// What blocks this worker thread, at the bottom of the worker's layers: a guest's imports are
// synchronous, so a wait (a timer, a retry) or a write to stdout/stderr that meets a full pipe
// holds the thread rather than yield.
import { writeSync } from 'node:fs';

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (timers, retries): the guest cannot yield. */
export function sleep(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** Writes all of `data` to `fd`; stdout may be a non-blocking pipe, so EAGAIN waits rather than lose output. */
export function writeFd(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      sleep(1);
    }
  }
}
