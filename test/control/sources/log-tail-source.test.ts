// Where `npm run control` reads decision lines from, as an operator meets it: a followed file gives
// the lines written after the controller started, in order and whole, and keeps following when the
// file is truncated or replaced (log rotation); stdin ends the source when it closes; `fastly
// log-tail` is started again when it exits, with what it said kept as the source's error.
import { appendFile, chmod, mkdtemp, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiBudget, RESERVED_CALLS, type StoreCall } from '../../../control/store/api-budget.js';
import { fileSource, logTailSource, stdinSource, type Source } from '../../../control/sources/log-tail-source.js';

let dir: string;
const sources: Source[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wr-sources-'));
});
afterEach(async () => {
  for (const source of sources.splice(0)) source.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Polls until `check` holds (bounded), so a test waits for the source's next poll, not a fixed time. */
async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A followed file and the lines it has given so far; resolves once the first poll has read the file. */
async function follow(file: string): Promise<{ lines: string[]; source: Source }> {
  const lines: string[] = [];
  const source = fileSource(file, (line) => lines.push(line), 10);
  sources.push(source);
  await sleep(60);
  return { lines, source };
}

describe('a followed file (file:PATH)', () => {
  it('from its start, when resuming: gives the lines written while the controller was down too', async () => {
    const file = path.join(dir, 'resumed.log');
    await writeFile(file, 'while down 1\nwhile down 2\n');
    const lines: string[] = [];
    sources.push(fileSource(file, (line) => lines.push(line), 10, true));
    await appendFile(file, 'new 1\n');
    await until(() => lines.length === 3, 'three lines');
    expect(lines).toEqual(['while down 1', 'while down 2', 'new 1']);
  });

  it('gives the lines appended after it started, in order, and not the ones already there', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, 'old 1\nold 2\n');
    const { lines } = await follow(file);
    await appendFile(file, 'new 1\nnew 2\n');
    await appendFile(file, 'new 3\n');
    await until(() => lines.length === 3, 'three lines');
    expect(lines).toEqual(['new 1', 'new 2', 'new 3']);
  });

  it('holds a partial line until its end is written', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines } = await follow(file);
    await appendFile(file, '{"wr":1,"decis');
    await sleep(80);
    expect(lines).toEqual([]);
    await appendFile(file, 'ion":"wait"}\nnext');
    await until(() => lines.length === 1, 'the completed line');
    expect(lines).toEqual(['{"wr":1,"decision":"wait"}']);
  });

  it('reads a truncated file again from its start', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, 'before the start\n');
    const { lines } = await follow(file);
    await appendFile(file, 'a long line written before the rotation\n');
    await until(() => lines.length === 1, 'the line before the truncation');
    await truncate(file, 0);
    await sleep(60);
    await appendFile(file, 'after\n');
    await until(() => lines.length === 2, 'the line after the truncation');
    expect(lines).toEqual(['a long line written before the rotation', 'after']);
  });

  it("follows a file replaced under its name, from the new file's start", async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines } = await follow(file);
    await appendFile(file, 'in the old file\n');
    await until(() => lines.length === 1, "the old file's line");
    await rename(file, path.join(dir, 'room.log.1'));
    await writeFile(path.join(dir, 'next.log'), 'first in the new file\nsecond in the new file\n');
    await rename(path.join(dir, 'next.log'), file);
    await until(() => lines.length === 3, "the new file's lines");
    expect(lines).toEqual(['in the old file', 'first in the new file', 'second in the new file']);
  });

  it('says it cannot read a file that is gone, and clears that once the file is back', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines, source } = await follow(file);
    await rm(file);
    await until(() => source.error !== null, 'the error');
    expect(source.error).toMatch(/^cannot read .*room\.log/);
    expect(source.dead).toBe(false);
    await writeFile(file, 'back\n');
    await until(() => lines.length === 1, 'the line of the file that came back');
    expect(source.error).toBeNull();
  });

  it('gives nothing more once stopped', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines, source } = await follow(file);
    source.stop();
    await appendFile(file, 'too late\n');
    await sleep(80);
    expect(lines).toEqual([]);
  });
});

describe('stdin', () => {
  it('gives each line as it comes, and is dead once the input closes', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const source = stdinSource((line) => lines.push(line), input);
    input.write('one\r\ntw');
    input.write('o\nthree');
    input.end();
    await until(() => source.dead, 'the end of the input');
    expect(lines).toEqual(['one', 'two', 'three']);
    expect(source.error).toMatch(/stdin closed/);
  });
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
