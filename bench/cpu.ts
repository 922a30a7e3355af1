// CPU a process has used, from Linux /proc: the steadiest cost figure on a busy machine, because
// other jobs stretch wall-clock time but barely move it.
import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

/** User + system CPU in ms of one /proc stat line. */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, utime 14 and stime 15 (1-based, proc(5)).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export interface CpuSplit {
  /** The main thread: for the host, HTTP in and out, the pool, answers to the workers' calls, upstream sends. */
  mainMs: number;
  /** Every other thread: for the host, the guests' worker threads and V8's helper threads. */
  otherMs: number;
}

/** CPU so far of a process's main thread and of all its other threads, in ms; NaN when it is gone. */
export function processCpu(pid: number): CpuSplit {
  try {
    const mainMs = statCpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
    const allMs = statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return { mainMs, otherMs: allMs - mainMs };
  } catch {
    return { mainMs: Number.NaN, otherMs: Number.NaN };
  }
}
