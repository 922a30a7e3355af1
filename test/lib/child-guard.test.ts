// A child in its own process group outlives a parent killed with SIGKILL (nothing can pass the kill
// on), unless the parent started the guard: then the child stops, and nothing is left listening.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { canConnect, freePort } from '../../lib/host-process.js';
import { repoRoot } from '../../lib/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A parent that starts a detached server child (and the guard, if asked), then says the child's pid. */
async function parentWithChild(guarded: boolean): Promise<{ parent: number; child: number; port: number }> {
  const port = await freePort();
  const script = join(dir, `parent-${port}.ts`);
  writeFileSync(
    script,
    `import { spawn } from 'node:child_process';
import { startGuard } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'lib', 'child-guard.ts')).href)};
const guard = ${guarded} ? startGuard() : null;
const server = "require('node:http').createServer((q, s) => s.end('up')).listen(${port}, '127.0.0.1')";
const child = spawn(process.execPath, ['-e', server], { detached: true, stdio: 'ignore' });
guard?.group(child.pid);
console.log('child ' + child.pid);
setInterval(() => undefined, 1000);
`,
  );
  const parent = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await expect.poll(() => /child (\d+)/.test(out), { timeout: 20_000, interval: 100 }).toBe(true);
  await expect.poll(() => canConnect(port), { timeout: 20_000, interval: 100 }).toBe(true);
  return { parent: parent.pid!, child: Number(/child (\d+)/.exec(out)![1]), port };
}

describe('child guard', () => {
  it('stops the children of a parent killed with SIGKILL', async () => {
    const run = await parentWithChild(true);
    process.kill(run.parent, 'SIGKILL');
    await expect.poll(() => canConnect(run.port), { timeout: 15_000, interval: 200 }).toBe(false);
    await expect.poll(() => alive(run.child), { timeout: 15_000, interval: 200 }).toBe(false);
  }, 60_000);
});
