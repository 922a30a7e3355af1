// `npm run build`: type-check the service, bundle it for js-compute, compile the bundle to Wasm.
// Used by fastly.toml's [scripts] build, so `fastly compute build/serve/publish` run exactly this.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { compileWasm } from '../lib/js-compute.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { repoRoot, wasmFile } from '../lib/paths.js';
import { catalogPlugin } from '../lib/catalog-bundle.js';
import { solverPlugin } from '../lib/solver-bundle.js';
import { main as writePagesStore } from './pages-to-store.js';

const bin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);
const bundlePath = join(repoRoot, 'build', 'bundle.js');

/** `import text from './file?raw'`: the file's text, as vite does (the pages' CSS and scripts, src/core/pages/pages.ts). */
export const rawTextPlugin: Plugin = {
  name: 'raw-text',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
      watchFiles: [args.path],
    }));
  },
};

/** The bundle js-compute gets; test/scripts/build.bundle.test.ts holds it to a size budget and no Node imports. */
export const bundleOptions: BuildOptions = {
  entryPoints: [join(repoRoot, 'src', 'index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external: ['fastly:*'],
  loader: { '.html': 'text' },
  // `waiting-room:solver`: the page's solver, bundled on the spot and compiled in as text; every
  // catalog but English as one string, parsed on a sandbox's first answer in its language.
  plugins: [solverPlugin, rawTextPlugin, catalogPlugin],
  // jose ships a Web Crypto build for browsers and workers; js-compute has crypto.subtle, not node:crypto.
  mainFields: ['browser', 'module', 'main'],
  conditions: ['worker', 'browser'],
  legalComments: 'none',
  // Minified whole: the Wasm snapshot holds the source text, every name is an atom and every function a
  // script in the sandbox's heap, and the runtime collects that heap after each request
  // (bench/room-account.ts). A stack trace reads less well; the room's logs name each failure by its
  // reason code instead.
  minifyWhitespace: true,
  minifyIdentifiers: true,
  minifySyntax: true,
  // The catalogs' strings as UTF-8, not \u escapes: Cyrillic, Arabic or Japanese text takes a third of the bytes.
  charset: 'utf8',
  logLevel: 'warning',
};

function step<T>(label: string, run: () => T): T {
  const started = performance.now();
  const value = run();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return value;
}

const USAGE = `usage: npm run build -- [--no-check]   type-check src/, bundle it and compile bin/main.wasm; writes local/pages.json too
  --no-check   skip the type-check`;

async function main(argv: readonly string[]): Promise<number> {
  const args = new Set(argv);
  const unknown = argv.filter((a) => a !== '--no-check');
  if (unknown.length > 0) throw new UsageError(`unknown option "${unknown.join(' ')}"`);
  if (!args.has('--no-check')) {
    // src/ only, with the js-compute types: the `fastly:*` modules exist nowhere else.
    step('type-check', () =>
      execFileSync(bin('tsc'), ['-p', join(repoRoot, 'tsconfig.build.json')], { stdio: 'inherit' }),
    );
  }
  mkdirSync(dirname(bundlePath), { recursive: true });
  mkdirSync(dirname(wasmFile), { recursive: true });
  const started = performance.now();
  await build({ ...bundleOptions, outfile: bundlePath });
  console.log(
    `bundle: ${((performance.now() - started) / 1000).toFixed(1)} s, ${statSync(bundlePath).size} bytes -> ${bundlePath}`,
  );
  const compiling = performance.now();
  await compileWasm(bundlePath, wasmFile, { inheritOutput: true });
  console.log(`wasm: ${((performance.now() - compiling) / 1000).toFixed(1)} s`);
  console.log(`wasm: ${statSync(wasmFile).size} bytes -> ${wasmFile}`);
  // The local pages store follows pages/ too: the store's copy wins over the built-in one, so without
  // this `fastly compute serve --watch` would rebuild on a page edit and still serve the old page.
  // It also stops the build on a page over the store's 8,000-character limit.
  if ((await writePagesStore([])) !== 0) throw new Error('pages: local/pages.json could not be written');
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run build', USAGE, main);
