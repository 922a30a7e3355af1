// bin/main.wasm built from the current sources once per run, for everything that starts the room on
// the local host (the end-to-end tests, the fuzz run, the benches).
import { spawn } from 'node:child_process';
import { mkdir, open, readFile, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, wasmFile as roomWasm } from './paths.js';

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const info = await stat(path.join(entry.parentPath, entry.name));
    newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

async function wasmIsFresh(): Promise<boolean> {
  let built: number;
  try {
    built = (await stat(roomWasm)).mtimeMs;
  } catch {
    return false;
  }
  const sources = Math.max(
    await newestMtime(path.join(repoRoot, 'src')),
    await newestMtime(path.join(repoRoot, 'pages')),
    await newestMtime(path.join(repoRoot, 'scripts', 'build.ts')),
  );
  return built >= sources;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const lockFile = path.join(repoRoot, 'bin', '.main.wasm.lock');

/** Takes the build lock; a lock left by a process that has died is broken, not waited on. */
async function acquireBuildLock(deadline: number): Promise<void> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''));
    if (Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) {
      await unlink(lockFile).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for the build lock ${lockFile} (held by pid ${holder})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let built: Promise<string> | undefined;

/**
 * Makes sure bin/main.wasm is built from the current sources and returns its path. `npm run build`
 * runs only when the module is missing or older than src/, pages/ or the build script; vitest runs
 * files in several workers, so a lock file keeps two of them from compiling over each other.
 */
export function ensureRoomWasm(): Promise<string> {
  built ??= (async () => {
    if (await wasmIsFresh()) return roomWasm;
    await acquireBuildLock(Date.now() + 5 * 60_000);
    try {
      // Another worker may have finished the build while this one waited for the lock.
      if (await wasmIsFresh()) return roomWasm;
      await new Promise<void>((resolve, reject) => {
        const child = spawn('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`npm run build failed (exit ${code}):\n${output.slice(-4000)}`)),
        );
      });
      return roomWasm;
    } finally {
      await unlink(lockFile).catch(() => undefined);
    }
  })();
  return built;
}
