// `fastly log-tail` (`--source log-tail:SERVICE`) as an operator meets it: started again when it
// exits, with what it said kept as the source's error, each start an API call of the budget's.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiBudget, RESERVED_CALLS, type StoreCall } from '../../../control/store/index.js';
import { logTailSource } from '../../../control/sources/log-tail-source.js';
import type { Source } from '../../../control/sources/source.js';
import { until } from './wait.js';

let dir: string;
const sources: Source[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wr-sources-'));
});
afterEach(async () => {
  for (const source of sources.splice(0)) source.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('fastly log-tail', () => {
  it('runs log-tail for the service, gives its lines, and starts it again after it exits, keeping what it said', async () => {
    const bin = path.join(dir, 'fastly');
    const runs = path.join(dir, 'runs');
    await writeFile(bin, `#!/bin/sh\necho "$*" >> '${runs}'\necho "line from run"\necho "token expired" >&2\nexit 3\n`);
    await chmod(bin, 0o755);
    const lines: string[] = [];
    const source = logTailSource('SVC123', (line) => lines.push(line), { bin });
    sources.push(source);
    await until(() => source.error !== null, 'the first exit');
    expect(source.error).toBe('fastly log-tail exited (3): token expired; restarting in 1 s');
    expect(source.dead).toBe(false);
    const firstExit = Date.now();
    await until(() => lines.length === 2, 'the restarted run', 6_000);
    // Restarted after the second it said, not later: the backoff doubles from 1 s.
    expect(Date.now() - firstExit).toBeLessThan(1_900);
    await until(() => source.error?.endsWith('restarting in 2 s') ?? false, 'the second exit');
    expect(lines).toEqual(['line from run', 'line from run']);
    expect((await readFile(runs, 'utf8')).trim().split('\n')).toEqual([
      'log-tail --service-id SVC123',
      'log-tail --service-id SVC123',
    ]);
  }, 15_000);

  it('fails while log-tail is down, and is healthy again once a restarted log-tail gives a line; each start reported as an API call', async () => {
    const bin = path.join(dir, 'fastly');
    const runs = path.join(dir, 'runs');
    // First run: dies at once. Second run: gives a line and keeps running, as a healthy log-tail does.
    await writeFile(
      bin,
      `#!/bin/sh\necho run >> '${runs}'\nif [ $(wc -l < '${runs}') -eq 1 ]; then echo "token expired" >&2; exit 3; fi\necho "line from run"\nexec sleep 30\n`,
    );
    await chmod(bin, 0o755);
    const lines: string[] = [];
    const calls: StoreCall[] = [];
    const source = logTailSource('SVC123', (line) => lines.push(line), { bin, report: (c) => calls.push(c) });
    sources.push(source);
    await until(() => source.error !== null, 'the first exit');
    await until(() => lines.length === 1, 'the restarted run', 6_000);
    await until(() => source.error === null, 'the error to clear');
    expect(source.dead).toBe(false);
    // Each start turned the log stream on: a call of the budget's, the failed one with what it said.
    expect(calls.map((c) => [c.kind, c.calls, c.ok, c.error])).toEqual([
      ['log-tail', 1, false, 'fastly log-tail exited (3): token expired'],
      ['log-tail', 1, true, null],
    ]);
  }, 15_000);

  it("waits to start while the API budget has no call to spare, and never restarts into the token's reserve", async () => {
    const bin = path.join(dir, 'fastly');
    const runs = path.join(dir, 'runs');
    await writeFile(
      bin,
      `#!/bin/sh\necho run >> '${runs}'\necho "ERROR: the Fastly API returned 401 Unauthorized" >&2\nexit 1\n`,
    );
    await chmod(bin, 0o755);
    const budget = new ApiBudget({ perHour: 2, readEveryMs: 0, log: () => {} });
    // A 429 a moment ago, naming a Retry-After of 1.5 s: nothing is called until then.
    budget.record(
      {
        kind: 'read',
        calls: 1,
        ok: false,
        status: 429,
        keys: [],
        remaining: null,
        resetMs: null,
        retryAfterMs: 1500,
        error: 'too many requests',
      },
      Date.now(),
    );
    const calls: StoreCall[] = [];
    const source = logTailSource('SVC123', () => undefined, {
      bin,
      take: (now) => budget.take(now, 'log-tail'),
      report: (c) => calls.push(c),
    });
    sources.push(source);
    expect(source.error).toMatch(
      /^fastly log-tail waits to start until \d\d:\d\d:\d\dZ: the Fastly API rate limit is spent \(429\)/,
    );
    expect(source.error).toContain(
      `each start is an API call, and the controller never spends the token's last ${RESERVED_CALLS} calls`,
    );
    // Started once the back-off is over; it fails; its restart would be the hour's third call of 2.
    await until(() => calls.length === 1, 'the first start', 6_000);
    expect(calls[0]).toMatchObject({ kind: 'log-tail', calls: 1, ok: false });
    await until(
      () => source.error?.includes('budget of 2 API calls an hour is spent') ?? false,
      'the restart to wait',
      6_000,
    );
    expect(source.error).toMatch(
      /^fastly log-tail waits to start until \d\d:\d\d:\d\dZ: the budget of 2 API calls an hour is spent for now \(--api-budget\)/,
    );
    expect((await readFile(runs, 'utf8')).trim().split('\n')).toEqual(['run']);
    expect(budget.used(Date.now())).toEqual({ reads: 1, writes: 0, heartbeats: 0, logTails: 1 });
  }, 15_000);

  it('fails when a running log-tail prints an ERROR, and recovers at its next line', async () => {
    const bin = path.join(dir, 'fastly');
    const go = path.join(dir, 'go');
    await writeFile(
      bin,
      `#!/bin/sh\necho "INFO: Managed logging enabled on service SVC123" >&2\necho "ERROR: unrecoverable error, response code: 404." >&2\nwhile [ ! -e '${go}' ]; do sleep 0.05; done\necho "line after"\nexec sleep 30\n`,
    );
    await chmod(bin, 0o755);
    const lines: string[] = [];
    const source = logTailSource('SVC123', (line) => lines.push(line), { bin });
    sources.push(source);
    await until(() => source.error !== null, 'the ERROR');
    expect(source.error).toBe('fastly log-tail says: ERROR: unrecoverable error, response code: 404.');
    await writeFile(go, '');
    await until(() => lines.length === 1, 'the next line');
    await until(() => source.error === null, 'the error to clear');
  }, 15_000);

  it('says when the CLI cannot be run at all, and tries again with the backoff, counting no API call', async () => {
    vi.useFakeTimers();
    try {
      let starts = 0;
      const calls: StoreCall[] = [];
      const budget = new ApiBudget({ perHour: 300, readEveryMs: 0, log: () => {} });
      const source = logTailSource('SVC123', () => undefined, {
        bin: path.join(dir, 'no-such-fastly'),
        take: (now) => (starts++, budget.take(now, 'log-tail')),
        report: (c) => calls.push(c),
      });
      sources.push(source);
      // The spawn fails (ENOENT): Node says 'error' and 'close', never 'exit'.
      await vi.waitFor(() =>
        expect(source.error).toMatch(/^could not run .*no-such-fastly: .*ENOENT; restarting in 1 s$/),
      );
      expect(starts).toBe(1);
      await vi.advanceTimersByTimeAsync(1000);
      expect(starts).toBe(2);
      await vi.waitFor(() => expect(source.error).toMatch(/ENOENT; restarting in 2 s$/));
      await vi.advanceTimersByTimeAsync(2000);
      expect(starts).toBe(3);
      await vi.waitFor(() => expect(source.error).toMatch(/ENOENT; restarting in 4 s$/));
      // No CLI ran, so no call went to the API: the budget counts none, the journal gets none.
      expect(budget.used(Date.now()).logTails).toBe(0);
      expect(calls).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
