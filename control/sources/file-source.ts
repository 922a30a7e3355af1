// `--source file:PATH`: follows a growing file as `tail -F` does (it survives truncation and
// replacement), polling it; a file it cannot read makes the source fail until it can again.
import { open, stat } from 'node:fs/promises';
import type { Source } from './source.js';

/**
 * Follows `file` from its current end, polling every `pollMs`; with `fromStart`, from its start (a
 * controller resuming from its state file reads what was written while it was down: the lines it
 * had counted are skipped by their time, control/failover/failover.ts).
 */
export function fileSource(file: string, onLine: (text: string) => void, pollMs = 250, fromStart = false): Source {
  const source: Source = { name: `file ${file}`, error: null, dead: false, stop: () => clearInterval(timer) };
  let offset = -1;
  let inode = -1;
  let partial = '';
  let busy = false;
  const poll = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const s = await stat(file);
      if (offset < 0) offset = fromStart ? 0 : s.size; // at the end: the past is not the present crowd
      if (s.ino !== inode || s.size < offset) {
        if (inode !== -1) offset = 0; // replaced or truncated: read the new file from its start
        inode = s.ino;
      }
      const lines = s.size > offset ? await readFrom(s.size) : [];
      // Readable again: the error goes before the lines do, so nothing sees lines beside a stale error.
      source.error = null;
      for (const l of lines) onLine(l);
    } catch (error) {
      source.error = `cannot read ${file}: ${(error as Error).message}`;
    } finally {
      busy = false;
    }
  };
  /** The whole lines from `offset` to `size` (at most 16 MiB of them a poll); a partial last line waits. */
  const readFrom = async (size: number): Promise<string[]> => {
    const handle = await open(file, 'r');
    try {
      const length = Math.min(size - offset, 16 * 1024 * 1024);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, offset);
      offset += length;
      const lines = (partial + buffer.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      return lines;
    } finally {
      await handle.close();
    }
  };
  const timer = setInterval(() => void poll(), pollMs);
  void poll();
  return source;
}
