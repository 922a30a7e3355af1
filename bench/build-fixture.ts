// A TypeScript bench fixture bundled exactly as the room is (scripts/build.ts options), then compiled to Wasm.
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/build.js';
import { repoRoot } from '../lib/paths.js';
import { buildWasm } from '../lib/wasm-build.js';

export async function buildFixture(name: string, define: Record<string, string> = {}): Promise<string> {
  const tag = Object.values(define).join('-');
  const bundle = path.join(repoRoot, 'build', `bench-${name}${tag ? `-${tag}` : ''}.js`);
  await build({
    ...bundleOptions,
    entryPoints: [path.join(repoRoot, 'bench', 'fixtures', `${name}.ts`)],
    define,
    outfile: bundle,
  });
  return buildWasm(bundle);
}
