// `--source log-tail:SERVICE`: runs the Fastly CLI's `fastly log-tail` and restarts it with a backoff
// when it ends (or cannot be spawned), each start a call of the API budget's.
import { spawn } from 'node:child_process';
import { fastlyBin } from '../../lib/fastly-cli.js';
import { cliRateLimited, RESERVED_CALLS, type CallReporter, type CallTake, type PendingCall } from '../store/index.js';
import { readLines, type Source } from './source.js';

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
  return new LogTail(serviceId, onLine, o).source;
}

/** The state of one log-tail source across its runs: the backoff, the run under way, its timers. */
class LogTail {
  readonly source: Source;
  private readonly bin: string;
  private stopped = false;
  private backoff = 1000;
  private child: ReturnType<typeof spawn> | null = null;
  private healthy: ReturnType<typeof setTimeout> | null = null;
  private next: ReturnType<typeof setTimeout> | null = null;
  /** Reports the running start's call, once (null: none to report). */
  private settle: ((error: string | null) => void) | null = null;

  constructor(
    private readonly serviceId: string,
    private readonly onLine: (text: string) => void,
    private readonly o: LogTailOptions,
  ) {
    this.bin = o.bin ?? fastlyBin;
    this.source = {
      name: `fastly log-tail ${serviceId}`,
      error: null,
      dead: false,
      stop: () => {
        this.stopped = true;
        if (this.healthy !== null) clearTimeout(this.healthy);
        if (this.next !== null) clearTimeout(this.next);
        this.settle?.(null);
        this.child?.kill();
      },
    };
    this.start();
  }

  /** One run: once the budget has a call for it, `fastly log-tail` spawned and watched. */
  private start(): void {
    this.next = null;
    if (this.stopped) return;
    const took = this.o.take?.(Date.now()) ?? null;
    if (took !== null && 'wait' in took) return this.waitForBudget(took.wait);
    const pending: PendingCall | null = took?.go ?? null;
    const started = Date.now();
    const run = { spawned: false, ended: false };
    /** Once per run, whichever comes first of its exit, its close, or a spawn that failed: restart with the backoff. */
    const end = (what: string): void => {
      if (run.ended) return;
      run.ended = true;
      if (this.healthy !== null) clearTimeout(this.healthy);
      if (run.spawned) this.settle?.(what);
      else pending?.cancel(); // never ran: no API call was made
      if (this.stopped) return;
      // A run that lasted a minute was healthy: the backoff starts again from 1 s.
      const wait = Date.now() - started > 60_000 ? 1000 : this.backoff;
      this.source.error = `${what}; restarting in ${wait / 1000} s`;
      this.backoff = Math.min(30_000, wait * 2);
      this.next = setTimeout(() => this.start(), wait);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = this.child = spawn(this.bin, ['log-tail', '--service-id', this.serviceId], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      // Other spawn failures throw at once rather than say 'error': tried again all the same.
      end(`could not run ${this.bin}: ${(error as Error).message}`);
      return;
    }
    this.watch(child, run, pending, end);
  }

  /** The budget has no call to spare: the source says until when, and the start waits for it. */
  private waitForBudget(wait: { untilMs: number; why: string }): void {
    this.source.error =
      `fastly log-tail waits to start until ${new Date(wait.untilMs).toISOString().slice(11, 19)}Z: ${wait.why}; ` +
      `each start is an API call, and the controller never spends the token's last ${RESERVED_CALLS} calls (kept for the operator)`;
    // At the moment the room frees (the budget keeps it for this start meanwhile), checked at least every minute.
    this.next = setTimeout(() => this.start(), Math.min(60_000, Math.max(0, wait.untilMs - Date.now())));
  }

  /** A spawned run's stderr, its spawn, its lines and its end. */
  private watch(
    child: ReturnType<typeof spawn>,
    run: { spawned: boolean },
    pending: PendingCall | null,
    end: (what: string) => void,
  ): void {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-500);
      const said = chunk
        .toString()
        .split(/\r?\n/)
        .filter((l) => /^\s*ERROR\b/i.test(l))
        .at(-1);
      if (said !== undefined) this.source.error = `fastly log-tail says: ${said.trim()}`;
    });
    child.on('error', (error) => {
      if (!run.spawned) end(`could not run ${this.bin}: ${error.message}`);
      else this.source.error = `fastly log-tail: ${error.message}`;
    });
    child.on('spawn', () => {
      run.spawned = true;
      this.spawned(pending);
    });
    void readLines(child.stdout!, (text) => {
      this.settle?.(null);
      this.source.error = null;
      this.onLine(text);
    });
    // 'close' comes once stdio is closed too, so all of stderr has been read by then.
    const exited = (code: number | null, signal: NodeJS.Signals | null): string =>
      `fastly log-tail exited (${code ?? signal}): ${stderr.trim() || 'no message'}`;
    child.on('close', (code, signal) => {
      if (run.spawned) end(exited(code, signal));
    });
    // Something it started may hold its stdout open after it exits: then the exit ends the run, a second on.
    child.on('exit', (code, signal) => void setTimeout(() => end(exited(code, signal)), 1000).unref());
  }

  /** The CLI runs: its first API call turns the log stream on, settled once its outcome is known. */
  private spawned(pending: PendingCall | null): void {
    const report = this.o.report ?? (() => {});
    let open = true;
    this.settle = (error) => {
      if (!open) return;
      open = false;
      this.settle = null;
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
    this.healthy = setTimeout(() => {
      this.settle?.(null);
      if (!/^fastly log-tail says/.test(this.source.error ?? '')) this.source.error = null;
    }, this.o.healthyAfterMs ?? 10_000);
  }
}
