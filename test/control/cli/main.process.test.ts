// `npm run control` as an operator meets it: on a terminal with nothing piped in it says what it
// reads instead of waiting silently, and fed `npm start`'s output it passes the room's banner and
// errors through while it takes the decision lines.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../control/cli/main.js';
import { repoRoot } from '../../../lib/paths.js';
import { admittedLine } from '../lines.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-control-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ allow_percentage: '50' }));

describe('npm run control', () => {
  it('on a terminal with no source, says what it expects instead of waiting', async () => {
    const saved = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY');
    Object.defineProperty(process.stdin, 'isTTY', { value: true, configurable: true });
    try {
      const error = await main(['--file', config, '--dashboard-port', '0']).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toContain('nothing is piped into it');
      expect(error?.message).toContain('npm start -- --control');
      expect(error?.message).toContain('npm start | npm run control -- --source stdin');
    } finally {
      if (saved) Object.defineProperty(process.stdin, 'isTTY', saved);
      else delete (process.stdin as { isTTY?: boolean }).isTTY;
    }
  });

  it('refuses an API budget that is not a number of calls an hour, saying what it takes', async () => {
    for (const bad of ['0', 'lots', 'Infinity']) {
      const error = await main([
        '--source',
        `file:${join(dir, 'room.log')}`,
        '--file',
        config,
        '--dashboard-port',
        '0',
        '--api-budget',
        bad,
      ]).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toBe(`--api-budget must be a number of calls an hour above 0, not "${bad}"`);
    }
  });

  it('names --api-budget when given the --write-budget it replaced', async () => {
    const error = await main([
      '--source',
      `file:${join(dir, 'room.log')}`,
      '--file',
      config,
      '--dashboard-port',
      '0',
      '--write-budget',
      '360',
    ]).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      '--write-budget is gone: the controller now keeps one budget of API calls an hour for its reads and writes together: --api-budget 360 (default 300)',
    );
  });

  it('refuses reads that would spend the whole budget', async () => {
    const error = await main([
      '--source',
      `file:${join(dir, 'room.log')}`,
      '--file',
      config,
      '--dashboard-port',
      '0',
      '--api-budget',
      '60',
      '--read-every',
      '30',
    ]).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      '--read-every 30 reads 120 times an hour, the whole --api-budget of 60: read less often or raise the budget',
    );
  });

  it('refuses a state file it cannot resume from, naming it and what to do', async () => {
    const state = join(dir, 'control-state-config.json');
    writeFileSync(state, '{"format":"waiting-room-controller-state","version":1,"sha256":"00","body":"{}"}');
    const error = await main([
      '--source',
      `file:${join(dir, 'room.log')}`,
      '--file',
      config,
      '--dashboard-port',
      '0',
    ]).then(
      () => null,
      (e: Error) => e,
    );
    // The default state file sits beside the store file.
    expect(error?.message).toContain(
      `cannot resume from the state file ${state}: it is corrupt (its checksum does not match its contents)`,
    );
    expect(error?.message).toContain('npm run control -- --fresh');
    rmSync(state);
  });

  it('refuses a lease too short to outlast the spacing of its writes', async () => {
    const error = await main(['--source', `file:${join(dir, 'room.log')}`, '--file', config, '--lease', '30']).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      '--lease must be at least 60 seconds (a lease shorter than the writes\' spacing would lapse between them), not "30"',
    );
  });

  it("passes the room's banner and errors through, and not its decision lines", async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'control/cli.ts', '--source', 'stdin', '--file', config, '--dashboard-port', '0'],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const decision = admittedLine(Date.now(), 1);
    child.stdin.write('  The waiting room is running.\n');
    child.stdin.write(`${decision}\n`);
    child.stdin.write('[start] the demo origin failed (EADDRINUSE); stopping the room\n');
    await expect.poll(() => out, { timeout: 20_000, interval: 100 }).toContain('the demo origin failed');
    expect(out).toContain('The waiting room is running.');
    expect(out).not.toContain(decision);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }, 30_000);

  it('reads the settings again on SIGHUP, and journals each write it makes', async () => {
    const store = join(dir, 'hup.json');
    writeFileSync(
      store,
      JSON.stringify({
        settings: JSON.stringify({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' }),
      }),
    );
    const journal = join(dir, 'journal.jsonl');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'control/cli.ts',
        '--source',
        'stdin',
        '--no-echo',
        '--file',
        store,
        '--dashboard-port',
        '0',
        '--journal',
        journal,
      ],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await expect.poll(() => err, { timeout: 20_000, interval: 100 }).toContain('dashboard at');
    // An open room admitting past its target: the controller engages it, a write the journal records.
    const now = Date.now();
    for (let i = 0; i < 100; i++) child.stdin.write(`${admittedLine(now - 10_000 + i * 100, i)}\n`);
    child.kill('SIGHUP');
    await expect
      .poll(() => err, { timeout: 20_000, interval: 100 })
      .toContain('SIGHUP: reading the settings at the next tick');
    await expect
      .poll(() => (existsSync(journal) ? readFileSync(journal, 'utf8') : ''), { timeout: 20_000, interval: 100 })
      .toMatch(
        /"kind":"write","ok":true,"status":null,"calls":0,"keys":\[("controller",)?"room.default.allow_percentage"/,
      );
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }, 60_000);

  it('plans in a worker thread, and its dashboard shows what the rooms there counted', async () => {
    const log = join(dir, 'worker.log');
    writeFileSync(log, '');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'control/cli.ts', '--source', `file:${log}`, '--file', config, '--dashboard-port', '0'],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await expect
        .poll(() => err, { timeout: 20_000, interval: 100 })
        .toMatch(/planning in a worker thread; dashboard at (\S+)/);
      const url = /dashboard at (\S+)/.exec(err)![1]!;
      // Its first save (at its first tick) before any line: the next is due 10 s later.
      await expect
        .poll(() => existsSync(join(dir, 'control-state-config.json')), { timeout: 20_000, interval: 100 })
        .toBe(true);
      // The file source reads from the end: the lines come after it started.
      appendFileSync(log, `${admittedLine(Date.now(), 1)}\n${admittedLine(Date.now(), 2)}\n`);
      const lines = async (): Promise<number | undefined> =>
        ((await (await fetch(`${url}api/snapshot`)).json()) as { rooms: { lines: number }[] }).rooms[0]?.lines;
      await expect.poll(lines, { timeout: 20_000, interval: 200 }).toBe(2);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(err).toContain('stopped; the room keeps the chances written, then, a lease on, their fallback');
    // Stopped within the state file's 10 s: it is written once more at shutdown, with the lines counted so far.
    const [, body] = readFileSync(join(dir, 'control-state-config.json'), 'utf8').split('\n');
    const state = JSON.parse(body!) as { pops: Record<string, number>; rooms: Record<string, unknown> };
    expect(Object.keys(state.pops)).toEqual(['LHR']);
    expect(Object.keys(state.rooms)).toEqual(['default']);
  }, 45_000);
});
