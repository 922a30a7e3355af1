// What every log source is to the controller: a name, whether it can give lines now and why not,
// whether it ended, and a way to stop it. Each source calls `onLine` with every text line it reads
// (docs/control/failover.md#when-it-holds says what the controller makes of a source's state).
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export interface Source {
  readonly name: string;
  /** Why the source cannot give lines now (a file it cannot read, log-tail down or saying ERROR); null when it can. */
  error: string | null;
  /** Set once the source can give no more lines (stdin closed). */
  dead: boolean;
  stop(): void;
}

/** Calls `onLine` with each line of `stream`; resolves when the stream ends. */
export function readLines(stream: Readable, onLine: (text: string) => void): Promise<void> {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  rl.on('line', onLine);
  return new Promise((resolve) => rl.on('close', resolve));
}
