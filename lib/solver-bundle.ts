// The waiting page's solver (pages/solver/solver.ts) bundled into one small browser script, and the
// virtual module `waiting-room:solver` that hands it to the room as text ({ source, hash }): the
// Wasm build (scripts/build.ts, through esbuild) and vitest (vitest.config.ts) both resolve it here,
// so the edge serves exactly the script that was built with it. Never written to disk.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './paths.js';

export const SOLVER_MODULE = 'waiting-room:solver';
export const solverEntry = path.join(repoRoot, 'pages', 'solver', 'solver.ts');

export interface SolverBundle {
  source: string;
  /** 8 hex characters of the script's SHA-256: part of its URL, so a new build is a new URL. */
  hash: string;
}

/** The solver as one minified classic script (it runs as a page script and as its own Worker). */
export async function bundleSolver(): Promise<SolverBundle> {
  const out = await build({
    entryPoints: [solverEntry],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const source = out.outputFiles[0]!.text;
  return { source, hash: createHash('sha256').update(source).digest('hex').slice(0, 8) };
}

/** The module text of `waiting-room:solver`. */
export async function solverModule(): Promise<string> {
  const { source, hash } = await bundleSolver();
  return `export const source = ${JSON.stringify(source)};\nexport const hash = ${JSON.stringify(hash)};\n`;
}

/** esbuild: resolves `waiting-room:solver` to the freshly bundled solver. */
export const solverPlugin: Plugin = {
  name: 'waiting-room-solver',
  setup(b) {
    b.onResolve({ filter: /^waiting-room:solver$/ }, () => ({ path: SOLVER_MODULE, namespace: 'waiting-room-solver' }));
    b.onLoad({ filter: /.*/, namespace: 'waiting-room-solver' }, async () => ({
      contents: await solverModule(),
      loader: 'js',
      resolveDir: repoRoot,
    }));
  },
};
