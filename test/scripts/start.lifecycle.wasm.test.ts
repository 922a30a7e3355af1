// `npm start -- --control` as a supervisor stops it: the real npm, tsx, Fastly CLI, host and Wasm,
// the demo shop and the controller. SIGTERM to npm's pid stops every child and npm exits; SIGKILL to
// npm (which cannot pass anything on) leaves nothing serving either: the children die with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';
import { canConnect } from '../../lib/host-process.js';
import { ensureRoomWasm } from '../../lib/room-wasm.js';
import { freeAddr, startPorts } from '../../scripts/start-ports.js';
import { alive, descendants } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-start-life-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A test that fails half-way must not leave its npm start serving.
const started = new Set<number>();
afterEach(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // stopped already
    }
  }
  started.clear();
});
beforeAll(async () => {
  await ensureRoomWasm();
}, 240_000);

async function startRoom(): Promise<{
  pid: number;
  ports: ReturnType<typeof startPorts>;
  exited: Promise<unknown>;
  out: () => string;
  pids: number[];
}> {
  const addr = await freeAddr(startPorts(`127.0.0.1:${20000 + Math.floor(Math.random() * 20000)}`), true);
  const ports = startPorts(addr!);
  const config = join(dir, `config-${ports.room}.json`);
  writeFileSync(config, JSON.stringify({ active_key: 'key1', allow_percentage: '100', log_endpoint: 'stdout' }));
  const npm = spawn('npm', ['start', '--', '--skip-build', '--control', '--addr', addr!], {
    cwd: repoRoot,
    // A Fastly CLI that has never run here (its config under XDG_CONFIG_HOME): what a first `npm start` prints.
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(dir, `xdg-${ports.room}`),
      WR_CONFIG_FILE: config,
      WR_KEYS_FILE: join(dir, `keys-${ports.room}.json`),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(npm.pid!);
  let out = '';
  npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
  npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => npm.once('exit', resolve));
  await expect.poll(() => out, { timeout: 120_000, interval: 250 }).toContain('The waiting room is running');
  expect((await fetch(`http://${addr}/`)).status).toBe(200);
  for (const port of [ports.room, ports.origin, ports.dashboard])
    expect(await canConnect(port), `port ${port}`).toBe(true);
  const pids = descendants(npm.pid!);
  // npm, sh, tsx, start.ts, the guard, the Fastly CLI, the host, the controller at least.
  expect(pids.length).toBeGreaterThanOrEqual(6);
  return { pid: npm.pid!, ports, exited, out: () => out, pids };
}

async function expectAllStopped(run: Awaited<ReturnType<typeof startRoom>>): Promise<void> {
  const ports = [run.ports.room, run.ports.origin, run.ports.dashboard];
  await expect
    .poll(async () => (await Promise.all(ports.map((p) => canConnect(p)))).some(Boolean), {
      timeout: 20_000,
      interval: 250,
    })
    .toBe(false);
  await expect.poll(() => run.pids.filter(alive), { timeout: 20_000, interval: 250 }).toEqual([]);
}

describe('npm start stopped by a supervisor', () => {
  it('SIGTERM to npm stops the room, the host, the shop and the controller, and npm exits', async () => {
    const run = await startRoom();
    // The CLI's data-collection notice is about Wasm builds, which npm start does not make: not shown.
    expect(run.out()).not.toMatch(/configured to collect data/);
    process.kill(run.pid, 'SIGTERM');
    await run.exited;
    await expectAllStopped(run);
  }, 240_000);

  it('SIGKILL to npm leaves nothing serving: the children die with it', async () => {
    const run = await startRoom();
    process.kill(run.pid, 'SIGKILL');
    await expectAllStopped(run);
  }, 240_000);

  it('SIGKILL to the script itself leaves nothing serving', async () => {
    const run = await startRoom();
    const script = run.pids.find(
      (pid) =>
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/start.ts') &&
        !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('tsx/dist/cli'),
    );
    expect(script).toBeDefined();
    process.kill(script!, 'SIGKILL');
    await expectAllStopped(run);
  }, 240_000);
});
