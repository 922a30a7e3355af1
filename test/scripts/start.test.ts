// `npm start` end to end with a stand-in host (the real host and Wasm have their own suites): the
// steps run, the banner says where to go, the shop answers through the room's address, and Ctrl-C
// stops every process it started, freeing both ports.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ORIGIN_PORT } from '../../scripts/demo-origin.js';
import { repoRoot } from '../../lib/paths.js';
import { canConnect, freePort } from '../../lib/host-process.js';

// fastly.toml fixes the origin at 7070; a developer's own server there is not a failure of npm start.
const originBusy = await canConnect(DEMO_ORIGIN_PORT);

const dir = mkdtempSync(join(tmpdir(), 'wr-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(originBusy)('npm start', () => {
  it('serves the shop through the room and stops everything on Ctrl-C', async () => {
    // Viceroy's command line, forwarding every request to the origin backend.
    const host = join(dir, 'fake-host.mjs');
    writeFileSync(
      host,
      `#!/usr/bin/env node
import http from 'node:http';
const a = process.argv; const [h, p] = a[a.indexOf('--addr') + 1].split(':');
http.createServer((req, res) => {
  http.get({ host: '127.0.0.1', port: ${DEMO_ORIGIN_PORT}, path: req.url, headers: req.headers }, (o) => {
    res.writeHead(o.statusCode, { ...o.headers, 'x-fake-host': a.slice(2).join(' ') }); o.pipe(res);
  });
}).listen(Number(p), h);
process.on('SIGTERM', () => process.exit(0));
`,
    );
    chmodSync(host, 0o755);
    const port = await freePort();
    const child = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts', '--skip-build', '--host', host, '--addr', `127.0.0.1:${port}`], {
      cwd: repoRoot,
      env: { ...process.env, WR_KEYS_FILE: join(dir, 'keys.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    await expect.poll(() => out, { timeout: 90_000, interval: 200 }).toContain('The waiting room is running');
    expect(out).toContain(`http://127.0.0.1:${port}/`);
    expect(out).toContain('npm run tune -- allow_percentage=100');

    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toContain('You are in');
    // The Fastly CLI ran the host with Viceroy's arguments.
    expect(res.headers.get('x-fake-host')).toMatch(/-C .*fastly\.toml --addr 127\.0\.0\.1:\d+ \.\/bin\/main\.wasm/);

    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await canConnect(port)).toBe(false);
    expect(await canConnect(DEMO_ORIGIN_PORT)).toBe(false);
  }, 120_000);
});
