// `npm start` end to end with a stand-in host (the real host and Wasm have their own suites): the
// steps run, the banner says where to go, the shop answers through the room's address, and Ctrl-C
// stops every process it started, freeing the ports. Then what it says when it cannot work: a port
// taken, a signing key missing, Viceroy not downloadable.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';
import { canConnect } from '../../lib/host-process.js';
import { freeAddr, startPorts } from '../../scripts/start-ports.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A test that fails half-way must not leave its npm start serving.
const started = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  started.clear();
});

// Viceroy's command line, forwarding every request to the origin backend its manifest names.
const host = join(dir, 'fake-host.mjs');
writeFileSync(
  host,
  `#!/usr/bin/env node
import http from 'node:http';
import { readFileSync } from 'node:fs';
const a = process.argv; const [h, p] = a[a.indexOf('--addr') + 1].split(':');
const originPort = Number(/url = "http:\\/\\/127\\.0\\.0\\.1:(\\d+)"/.exec(readFileSync(a[a.indexOf('-C') + 1], 'utf8'))[1]);
http.createServer((req, res) => {
  http.get({ host: '127.0.0.1', port: originPort, path: req.url, headers: req.headers }, (o) => {
    res.writeHead(o.statusCode, { ...o.headers, 'x-fake-host': a.slice(2).join(' ') }); o.pipe(res);
  });
}).listen(Number(p), h);
process.on('SIGTERM', () => process.exit(0));
`,
);
chmodSync(host, 0o755);

const defaultConfig = join(dir, 'config.json');
copyFileSync(join(repoRoot, 'local', 'config.example.json'), defaultConfig);

/** A free --addr for a test: the room's, the shop's and the dashboard's ports all free. */
async function testAddr(): Promise<string> {
  const base = 20000 + Math.floor(Math.random() * 20000);
  const addr = await freeAddr(startPorts(`127.0.0.1:${base}`), true);
  if (addr === null) throw new Error('no free ports');
  return addr;
}

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts', '--skip-build', ...args], {
    cwd: repoRoot,
    // Its own settings too: a test never makes or reads the developer's local/config.json.
    env: { ...process.env, WR_CONFIG_FILE: defaultConfig, WR_KEYS_FILE: join(dir, 'keys.json'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

describe('npm start', () => {
  it('serves the shop through the room and stops everything on Ctrl-C', async () => {
    const addr = await testAddr();
    const ports = startPorts(addr);
    const run = start(['--host', host, '--addr', addr]);

    await expect.poll(run.out, { timeout: 90_000, interval: 200 }).toContain('The waiting room is running');
    expect(run.out()).toContain(`http://${addr}/`);
    expect(run.out()).toContain(`http://127.0.0.1:${ports.origin}/`);
    expect(run.out()).toContain('npm run tune -- allow_percentage=100');

    const res = await fetch(`http://${addr}/`);
    expect(await res.text()).toContain('You are in');
    // The Fastly CLI ran the host with Viceroy's arguments.
    expect(res.headers.get('x-fake-host')).toMatch(/-C .*fastly\.toml --addr 127\.0\.0\.1:\d+ .*bin\/main\.wasm/);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(await canConnect(ports.room)).toBe(false);
    expect(await canConnect(ports.origin)).toBe(false);
  }, 120_000);

  it("clears a stopped controller's schedule, which would have decided every draw, and says so", async () => {
    // What `npm start -- --control` leaves after its controller stopped: room.shop.live with a schedule
    // whose last entry (2.56%) is its fallback, and the heartbeat of a process that no longer runs.
    const config = join(dir, 'config-left.json');
    const now = Math.floor(Date.now() / 1000);
    const gonePid = spawnSync(process.execPath, ['-e', '0']).pid;
    const example = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<
      string,
      string
    >;
    writeFileSync(
      config,
      JSON.stringify({
        ...example,
        'room.shop.live': JSON.stringify({ allow_schedule: `${now - 900}=2.388404,${now - 300}=2.561533` }),
        controller: JSON.stringify({
          id: '9af6d611',
          host: hostname(),
          pid: gonePid,
          started: now - 1200,
          beat: now - 290,
          lease: 600,
        }),
      }),
    );
    const run = start(['--host', host, '--addr', await testAddr()], { WR_CONFIG_FILE: config });
    await expect.poll(run.out, { timeout: 90_000, interval: 200 }).toContain('The waiting room is running');
    expect(run.out()).toContain(`cleared what a stopped controller left (pid ${gonePid}`);
    expect(run.out()).toMatch(/room shop \(allow_percentage 50: each draw, every 10 s, lets 50% in/);
    // What is left of the shop's live value is the status basis npm start writes (docs/status.md).
    expect(Object.keys(JSON.parse(JSON.parse(readFileSync(config, 'utf8'))['room.shop.live']))).toEqual([
      'status_basis',
    ]);
    run.child.kill('SIGINT');
    await run.exited;
  }, 120_000);

  it('names every port in use and the --addr that moves them all, which then works', async () => {
    const addr = await testAddr();
    const ports = startPorts(addr);
    // Someone else's server on the port the shop would take.
    const squatter: Server = createServer().listen(ports.origin, '127.0.0.1');
    try {
      const refused = start(['--host', host, '--addr', addr]);
      expect(await refused.exited).not.toBe(0);
      expect(refused.out()).toContain(`127.0.0.1:${ports.origin} (the demo shop)`);
      const suggested = /npm start -- --addr (\S+)/.exec(refused.out())?.[1];
      expect(suggested).toBeDefined();

      const run = start(['--host', host, '--addr', suggested!]);
      await expect.poll(run.out, { timeout: 90_000, interval: 200 }).toContain('The waiting room is running');
      expect(await (await fetch(`http://${suggested}/`)).text()).toContain('You are in');
      run.child.kill('SIGINT');
      await run.exited;
    } finally {
      squatter.close();
    }
  }, 120_000);

  it('does not start a room that cannot sign tokens, and says which key to use', async () => {
    const config = join(dir, 'config-missing-key.json');
    const keys = join(dir, 'keys-other.json');
    writeFileSync(
      config,
      JSON.stringify({ settings: JSON.stringify({ active_key: 'removed1', allow_percentage: '50' }) }),
    );
    writeFileSync(keys, JSON.stringify({ other: Buffer.alloc(64, 7).toString('base64') }));
    const run = start(['--host', host, '--addr', await testAddr()], { WR_CONFIG_FILE: config, WR_KEYS_FILE: keys });
    expect(await run.exited).toBe(1);
    expect(run.out()).not.toContain('The waiting room is running');
    expect(run.out()).toContain('active_key is "removed1" but there is no key "removed1"');
    expect(run.out()).toContain('npm run tune -- active_key=other');
    expect(run.out()).toContain('npm run keys -- list');
  }, 60_000);

  it('says Viceroy could not be fetched when the Fastly CLI cannot download it, and how to run offline', async () => {
    // The Fastly CLI offline, as it answers `fastly compute serve` without --viceroy-path.
    const fastly = join(dir, 'fastly-offline');
    writeFileSync(
      fastly,
      `#!/bin/sh
echo '| Fetching Viceroy release: latest...'
echo '✗ Fetching Viceroy release: latest'
echo 'ERROR: error downloading Viceroy release: failed to request GitHub metadata: Get "https://developer.fastly.com/api/internal/releases/meta/viceroy/linux/amd64": dial tcp: lookup developer.fastly.com: no such host.' >&2
exit 1
`,
    );
    chmodSync(fastly, 0o755);
    const run = start(['--viceroy', '--addr', await testAddr()], { WR_FASTLY_BIN: fastly });
    expect(await run.exited).toBe(1);
    expect(run.out()).toContain('Viceroy could not be fetched');
    expect(run.out()).toContain('npm start');
    expect(run.out()).toContain('--host /path/to/viceroy');
    expect(run.out()).not.toContain('did not listen');
  }, 60_000);
});
