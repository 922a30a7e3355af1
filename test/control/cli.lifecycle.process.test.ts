// `npm run control` as an operator stops it: a kill -9 of npm (which passes nothing on) takes the
// controller down with it, so nothing keeps writing the store; and a dashboard port already taken is
// refused by name: the process that holds it and the option that moves it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { canConnect } from '../../lib/host-process.js';
import { repoRoot } from '../../lib/paths.js';
import { alive, descendants } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-control-life-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const started: ChildProcess[] = [];
// Stopped, and their last state write done, before the next test (and the directory's removal).
afterEach(async () => {
  const running = started.splice(0).filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))),
  );
});

/** A port nobody listens on now, picked by the system. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

function run(command: string, args: string[], name: string): { child: ChildProcess; out: () => string } {
  const config = join(dir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({ settings: JSON.stringify({ allow_percentage: '50', new_users_per_minute: '60' }) }),
  );
  writeFileSync(join(dir, `${name}.log`), '');
  const child = spawn(
    command,
    [
      ...args,
      '--source',
      `file:${join(dir, `${name}.log`)}`,
      '--file',
      config,
      '--state',
      join(dir, `${name}-state.json`),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out };
}

describe('npm run control, stopped hard', () => {
  it('dies with npm: a kill -9 of npm leaves no controller running or serving its dashboard', async () => {
    const port = await freePort();
    const npm = run('npm', ['run', 'control', '--', '--dashboard-port', String(port)], 'killed');
    await expect.poll(npm.out, { timeout: 30_000, interval: 100 }).toContain('dashboard at');
    const below = descendants(npm.child.pid!);
    expect(below.length).toBeGreaterThan(0);
    npm.child.kill('SIGKILL');
    // The controller, tsx and the shell npm ran it in, all gone within the guard's grace.
    await expect.poll(() => below.filter(alive), { timeout: 10_000, interval: 200 }).toEqual([]);
    expect(await canConnect(port)).toBe(false);
  }, 60_000);

  it('names the process that holds its dashboard port, and --dashboard-port', async () => {
    const port = await freePort();
    const first = run(
      process.execPath,
      ['--import', 'tsx', 'control/cli.ts', '--dashboard-port', String(port)],
      'first',
    );
    await expect.poll(first.out, { timeout: 30_000, interval: 100 }).toContain('dashboard at');
    const second = run(
      process.execPath,
      ['--import', 'tsx', 'control/cli.ts', '--dashboard-port', String(port)],
      'second',
    );
    const code = await new Promise((resolve) => second.child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(second.out()).not.toMatch(/^npm run control: listen EADDRINUSE/m);
    expect(second.out()).toContain(`127.0.0.1:${port}`);
    expect(second.out()).toContain(`pid ${first.child.pid}`);
    expect(second.out()).toContain('control/cli.ts');
    expect(second.out()).toContain('--dashboard-port');
  }, 60_000);
});
