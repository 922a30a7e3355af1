// Where decision lines come from. Each source calls `onLine` with every text line and keeps its own
// status; the process decides from that status whether it can trust its view (a source that is dead,
// fails or lags makes it hold; one that is alive and silent is a quiet room: docs/control/failover.md#when-it-holds).
// `stdin` takes `npm start`'s output piped in; `file:PATH` follows a growing file as `tail -F` does
// (it survives truncation and replacement); `log-tail:SERVICE` runs the Fastly CLI's `fastly
// log-tail` and restarts it with a backoff when it ends (or cannot be spawned), each start a call of
// the API budget's.
import { spawn } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fastlyBin } from '../../lib/fastly-cli.js';
import {
  cliRateLimited,
  RESERVED_CALLS,
  type CallReporter,
  type CallTake,
  type PendingCall,
} from '../store/api-budget.js';

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

export interface LogTailOptions {
  /** The Fastly CLI (tests pass a script). */
  bin?: string;
  /** A run that has lasted this long without exiting or saying ERROR is healthy, ms. */
  healthyAfterMs?: number;
  /** Whether a start may go now (the API budget's take): counted from now, its outcome settled later; or until when it waits and why. */
  take?: (nowMs: number) => CallTake;
  /** Each start as the API call it is, once its outcome is known (the journal writes it down; the budget counted it at `take`). */
  report?: CallReporter;
}

/**
 * `fastly log-tail --service-id SERVICE`, restarted with a backoff (1 s doubling to 30 s) whenever it
 * ends, or cannot be spawned at all (ENOENT, EMFILE, EAGAIN: Node then says 'error' and 'close', no
 * 'exit'). It fails (`error`) from an exit until a restarted run gives a line or has run `healthyAfterMs`,
 * and while a running one's latest word on stderr is an ERROR (the CLI prints `ERROR: ...` when its
 * stream breaks) until its next line. A running log-tail that gives nothing is a quiet service.
 * Each start turns the service's log stream on, one API call (`POST .../log_stream/managed/
 * instance_output`; the polls after it are a stream the API does not count): it waits while `take`
 * says the budget has no call to spare, is counted by the budget as it goes, and settled and reported
 * once its outcome is known (a line, a run healthy, an exit, a stop); a run that exits naming a 429 is
 * settled as one, so the budget backs off. A start whose CLI could not be spawned made no call: it is
 * taken back.
 */
export function logTailSource(serviceId: string, onLine: (text: string) => void, o: LogTailOptions = {}): Source {
  const bin = o.bin ?? fastlyBin;
  const healthyAfterMs = o.healthyAfterMs ?? 10_000;
  const report = o.report ?? (() => {});
  let stopped = false;
  let backoff = 1000;
  let child: ReturnType<typeof spawn> | null = null;
  let healthy: ReturnType<typeof setTimeout> | null = null;
  let next: ReturnType<typeof setTimeout> | null = null;
  /** Reports the running start's call, once (null: none to report). */
  let settle: ((error: string | null) => void) | null = null;
  const source: Source = {
    name: `fastly log-tail ${serviceId}`,
    error: null,
    dead: false,
    stop() {
      stopped = true;
      if (healthy !== null) clearTimeout(healthy);
      if (next !== null) clearTimeout(next);
      settle?.(null);
      child?.kill();
    },
  };
  const start = (): void => {
    next = null;
    if (stopped) return;
    const took = o.take?.(Date.now()) ?? null;
    if (took !== null && 'wait' in took) {
      const { wait } = took;
      source.error =
        `fastly log-tail waits to start until ${new Date(wait.untilMs).toISOString().slice(11, 19)}Z: ${wait.why}; ` +
        `each start is an API call, and the controller never spends the token's last ${RESERVED_CALLS} calls (kept for the operator)`;
      // At the moment the room frees (the budget keeps it for this start meanwhile), checked at least every minute.
      next = setTimeout(start, Math.min(60_000, Math.max(0, wait.untilMs - Date.now())));
      return;
    }
    const pending: PendingCall | null = took?.go ?? null;
    const started = Date.now();
    let spawned = false;
    let ended = false;
    /** Once per run, whichever comes first of its exit, its close, or a spawn that failed: restart with the backoff. */
    const end = (what: string): void => {
      if (ended) return;
      ended = true;
      if (healthy !== null) clearTimeout(healthy);
      if (spawned) settle?.(what);
      else pending?.cancel(); // never ran: no API call was made
      if (stopped) return;
      // A run that lasted a minute was healthy: the backoff starts again from 1 s.
      const wait = Date.now() - started > 60_000 ? 1000 : backoff;
      source.error = `${what}; restarting in ${wait / 1000} s`;
      backoff = Math.min(30_000, wait * 2);
      next = setTimeout(start, wait);
    };
    let run: ReturnType<typeof spawn>;
    try {
      run = child = spawn(bin, ['log-tail', '--service-id', serviceId], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      // Other spawn failures throw at once rather than say 'error': tried again all the same.
      end(`could not run ${bin}: ${(error as Error).message}`);
      return;
    }
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-500);
      const said = chunk
        .toString()
        .split(/\r?\n/)
        .filter((l) => /^\s*ERROR\b/i.test(l))
        .at(-1);
      if (said !== undefined) source.error = `fastly log-tail says: ${said.trim()}`;
    });
    run.on('error', (error) => {
      if (!spawned) end(`could not run ${bin}: ${error.message}`);
      else source.error = `fastly log-tail: ${error.message}`;
    });
    run.on('spawn', () => {
      // The CLI runs: its first API call turns the log stream on.
      spawned = true;
      let open = true;
      settle = (error) => {
        if (!open) return;
        open = false;
        settle = null;
        const status = error !== null && cliRateLimited(error) ? 429 : null;
        const call = {
          kind: 'log-tail' as const,
          calls: 1,
          ok: error === null,
          status,
          keys: [],
          remaining: null,
          resetMs: null,
          retryAfterMs: null,
          error,
        };
        pending?.settle(call, Date.now());
        report(call);
      };
      // Up long enough without exiting or saying ERROR: whatever an earlier run said is over.
      healthy = setTimeout(() => {
        settle?.(null);
        if (!/^fastly log-tail says/.test(source.error ?? '')) source.error = null;
      }, healthyAfterMs);
    });
    void readLines(run.stdout!, (text) => {
      settle?.(null);
      source.error = null;
      onLine(text);
    });
    // 'close' comes once stdio is closed too, so all of stderr has been read by then.
    const exited = (code: number | null, signal: NodeJS.Signals | null): string =>
      `fastly log-tail exited (${code ?? signal}): ${stderr.trim() || 'no message'}`;
    run.on('close', (code, signal) => {
      if (spawned) end(exited(code, signal));
    });
    // Something it started may hold its stdout open after it exits: then the exit ends the run, a second on.
    run.on('exit', (code, signal) => void setTimeout(() => end(exited(code, signal)), 1000).unref());
  };
  start();
  return source;
}
