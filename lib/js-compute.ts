// The one way this project runs js-compute-runtime (npm run build, and the fixture builds of tests and benches).
// It writes its first intermediate file, `__input_bundled.js`, into its working directory under that
// fixed name, so two compilations sharing a directory (two vitest workers building two fixtures, a test
// and `fastly compute serve --watch`) move each other's file away. Each one gets a directory of its own.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

const compiler = join(repoRoot, 'node_modules', '.bin', 'js-compute-runtime');

export interface CompileOptions {
  /** Extra js-compute-runtime flags, before the input. */
  flags?: string[];
  /** Show the compiler's output as it runs (npm run build); otherwise it is kept for the error. */
  inheritOutput?: boolean;
}

/** Compiles one JS file to a Wasm module at `output`; rejects with the compiler's output on failure. */
export async function compileWasm(input: string, output: string, options: CompileOptions = {}): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'wr-js-compute-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(compiler, [...(options.flags ?? []), input, output], {
        cwd: workDir,
        stdio: options.inheritOutput ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      });
      let said = '';
      child.stdout?.on('data', (chunk: Buffer) => (said += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(said.trim() || `js-compute-runtime exited with ${signal ?? `code ${code}`}`));
      });
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
