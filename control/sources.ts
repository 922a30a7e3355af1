// Where decision lines come from. Each source calls `onLine` with every text line and keeps its own
// status; the process decides from that status whether it can trust its view (a source that is dead,
// fails or lags makes it hold; one that is alive and silent is a quiet room: docs/control.md).
// `stdin` takes `npm start`'s output piped in; `file:PATH` follows a growing file as `tail -F` does
// (it survives truncation and replacement); `log-tail:SERVICE` runs the Fastly CLI's `fastly
// log-tail` and restarts it with a backoff when it exits.
import { spawn } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fastlyBin } from '../lib/fastly-cli.js';

export interface Source {
  readonly name: string;
  /** Why the source cannot give lines now (a file it cannot read, log-tail down or saying ERROR); null when it can. */
  error: string | null;
  /** Set once the source can give no more lines (stdin closed). */
  dead: boolean;
  stop(): void;
}

function readLines(stream: Readable, onLine: (text: string) => void): Promise<void> {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  rl.on('line', onLine);
  return new Promise((resolve) => rl.on('close', resolve));
}

export function stdinSource(onLine: (text: string) => void, input: Readable = process.stdin): Source {
  const source: Source = { name: 'stdin', error: null, dead: false, stop: () => input.destroy() };
  void readLines(input, onLine).then(() => {
    source.dead = true;
    source.error = 'stdin closed: no more decision lines';
  });
  return source;
}

/**
 * Follows `file` from its current end, polling every `pollMs`; with `fromStart`, from its start (a
 * controller resuming from its state file reads what was written while it was down: the lines it
 * had counted are skipped by their time, control/failover.ts).
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
      if (s.size > offset) {
        const handle = await open(file, 'r');
        try {
          const length = Math.min(s.size - offset, 16 * 1024 * 1024);
          const buffer = Buffer.alloc(length);
          await handle.read(buffer, 0, length, offset);
          offset += length;
          const text = partial + buffer.toString('utf8');
          const lines = text.split('\n');
          partial = lines.pop() ?? '';
          for (const l of lines) onLine(l);
        } finally {
          await handle.close();
        }
      }
      source.error = null;
    } catch (error) {
      source.error = `cannot read ${file}: ${(error as Error).message}`;
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), pollMs);
  void poll();
  return source;
}

/**
 * `fastly log-tail --service-id SERVICE`, restarted with a backoff (1 s doubling to 30 s) whenever it
 * exits. It fails (`error`) from an exit until a restarted run gives a line or has run `healthyAfterMs`,
 * and while a running one's latest word on stderr is an ERROR (the CLI prints `ERROR: ...` when its
 * stream breaks) until its next line. A running log-tail that gives nothing is a quiet service.
 */
export function logTailSource(serviceId: string, onLine: (text: string) => void, bin: string = fastlyBin, healthyAfterMs = 10_000): Source {
  let stopped = false;
  let backoff = 1000;
  let child: ReturnType<typeof spawn> | null = null;
  let healthy: ReturnType<typeof setTimeout> | null = null;
  const source: Source = {
    name: `fastly log-tail ${serviceId}`,
    error: null,
    dead: false,
    stop() {
      stopped = true;
      if (healthy !== null) clearTimeout(healthy);
      child?.kill();
    },
  };
  const start = (): void => {
    if (stopped) return;
    const started = Date.now();
    const run = (child = spawn(bin, ['log-tail', '--service-id', serviceId], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-500);
      const said = chunk.toString().split(/\r?\n/).filter((l) => /^\s*ERROR\b/i.test(l)).at(-1);
      if (said !== undefined) source.error = `fastly log-tail says: ${said.trim()}`;
    });
    run.on('error', (error) => (source.error = `could not run ${bin}: ${error.message}`));
    run.on('spawn', () => {
      // Up long enough without exiting or saying ERROR: whatever an earlier run said is over.
      healthy = setTimeout(() => {
        if (!/^fastly log-tail says/.test(source.error ?? '')) source.error = null;
      }, healthyAfterMs);
    });
    void readLines(run.stdout!, (text) => {
      source.error = null;
      onLine(text);
    });
    run.on('exit', (code) => {
      if (healthy !== null) clearTimeout(healthy);
      if (stopped) return;
      // A run that lasted a minute was healthy: the backoff starts again from 1 s.
      const wait = Date.now() - started > 60_000 ? 1000 : backoff;
      source.error = `fastly log-tail exited (${code}): ${stderr.trim() || 'no message'}; restarting in ${wait / 1000} s`;
      backoff = Math.min(30_000, wait * 2);
      setTimeout(start, wait);
    });
  };
  start();
  return source;
}
