// Bundles the local Compute host (host/src) into host/dist. Runs on `npm ci` via `prepare`,
// so it must stay fast and work offline.
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'host/src/cli.ts', worker: 'host/src/worker/main.ts' },
  outdir: 'host/dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies may call require(); give ESM output one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
console.log(`build-host: host/dist ready in ${Date.now() - started} ms`);
