// The repository's tools as the suites start them as processes. Under tsx a tool's start costs about
// 1.1 CPU seconds (its loader compiles and links a hundred-odd modules on a thread of its own) against
// 0.2 s for the same tool bundled into one file, and `npm test` starts about two hundred of them on a
// 2-core machine. So the run bundles each tool once (vitest.config.ts's globalSetup, into
// build/test-tools/) and the suites start the bundle; the tools' code is the same, and each module keeps
// its own `import.meta.url`, so the paths it reads, `isMain` and its worker threads (started with tsx,
// lib/ts-worker.ts) are what they are under tsx. The suites that run an operator's commands as typed
// (`npm start`, `npm run control`, the on-sale day) still go through npm and tsx.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from '../../lib/paths.js';

/** Where this run's bundles are: set by the global setup, read by every worker. */
export const BUNDLES_ENV = 'WR_TEST_TOOL_BUNDLES';

/** The tools the suites start, by their source path from the repository's root. */
export const TOOLS = [
  'bench/control-loop.ts',
  'bench/host.ts',
  'bench/room.ts',
  'control/cli.ts',
  'fastly-api/cli.ts',
  'fuzz/cli.ts',
  'load/cli.ts',
  'report/cli.ts',
  'scripts/build.ts',
  'scripts/demo-origin.ts',
  'scripts/event.ts',
  'scripts/invite.ts',
  'scripts/keys.ts',
  'scripts/pages-to-store.ts',
  'scripts/start.ts',
  'scripts/tune.ts',
  'sim/cli.ts',
];

const bundleName = (script: string): string => `${script.replace(/\.ts$/, '').replaceAll('/', '--')}.mjs`;

/**
 * What comes after `node` to run `script` (its path from the repository's root): this run's bundle of
 * it when there is one, else the script under tsx (a tool not listed, or a run without the setup).
 */
export function tool(script: string): string[] {
  const dir = process.env[BUNDLES_ENV];
  const relative = path.isAbsolute(script) ? path.relative(repoRoot, script) : script;
  if (dir && TOOLS.includes(relative)) return [path.join(dir, bundleName(relative))];
  return ['--import', 'tsx', script];
}

/** Each module's `import.meta.url` as its own file's URL, not the bundle's. */
const ownUrls: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/** Bundles every tool into `dir`, each on its own (a tool's `isMain` sees its source as the entry). */
export async function bundleTools(dir: string): Promise<void> {
  await Promise.all(
    TOOLS.map((script) => {
      const source = path.join(repoRoot, script);
      return build({
        entryPoints: [source],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        loader: { '.html': 'text' },
        plugins: [ownUrls],
        // lib/cli.ts's isMain compares a module's URL with argv[1]: the entry's source, as under tsx.
        banner: { js: `process.argv[1] = ${JSON.stringify(source)};` },
        outfile: path.join(dir, bundleName(script)),
        logLevel: 'warning',
      });
    }),
  );
}
