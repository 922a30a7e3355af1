import { defineConfig } from 'vitest/config';
import { SOLVER_MODULE, solverModule } from './lib/solver-bundle.js';

// Five projects, by what a test needs; `npm test` runs them all, `npm run test:unit` (and test:sim,
// test:wasm, test:browser, test:process) one. Suites that need the built Wasm or Chromium prepare it
// in their own beforeAll (lib/room-wasm.ts, lib/wasm-build.ts, lib/chromium.ts).
//   unit     in-process: the core, the control model, the host's ABI and manifest modules, lib/, the
//            tools and the load tool; at most a small child process (a CLI under tsx, a stand-in script)
//   sim      the simulator: in-process too, but crowds of virtual visitors take seconds to a minute a file
//   wasm     a Wasm module on the local host: the built room (test/e2e, the fuzz run, the load tool
//            end to end) and the host running its guest apps
//   process  the tools as processes against the Fastly API stand-in (fastly-api/) through the real
//            Fastly CLI: `npm run control -- --service`, tune, keys, pages; seconds to tens of seconds a file
//   browser  Chromium: the pages, the dashboard, a visitor's journey through the room
export const browser = [
  'test/browser/**/*.test.ts',
  'test/pages/accessibility.test.ts',
  'test/pages/behaviour.test.ts',
  'test/lib/chromium.test.ts',
  'test/pages/event-pages.test.ts',
  'test/pages/solver.test.ts',
  'test/control/dashboard/page.test.ts',
  'test/report/page.browser.test.ts',
  'test/seams/on-sale-day.test.ts',
];
export const sim = ['test/sim/**/*.test.ts'];
export const processes = [
  'test/fastly-api/cli-e2e.test.ts',
  'test/scripts/tune-keys.service.test.ts',
  'test/seams/faults.test.ts',
  'test/control/cli.fastly-api.test.ts',
  'test/control/cli.fastly-cli.test.ts',
];
export const wasm = [
  'test/e2e/**/*.test.ts',
  'test/fuzz/run.test.ts',
  'test/load/room.e2e.test.ts',
  'test/scripts/start.lifecycle.test.ts',
  'test/lib/wasm-build.test.ts',
  'test/host/abi/bot-verdict.guest.test.ts',
  'test/host/cli.test.ts',
  'test/host/config.stores.test.ts',
  'test/host/downstream-url.test.ts',
  'test/host/guest/limits.guest.test.ts',
  'test/host/guest/limits.room.test.ts',
  'test/host/worker/runner.reuse.test.ts',
  'test/host/http.test.ts',
  'test/host/http.backends.test.ts',
  'test/host/memory-rewrite.test.ts',
  'test/host/raw-method.test.ts',
  'test/host/tls.test.ts',
  'test/host/wat-guest.test.ts',
];

export default defineConfig({
  plugins: [
    {
      // The built-in pages are imported as text, as esbuild's `text` loader does in the Wasm build.
      name: 'html-as-text',
      enforce: 'pre',
      transform(code, id) {
        if (id.endsWith('.html')) return { code: `export default ${JSON.stringify(code)};`, map: null };
        return undefined;
      },
    },
    {
      // `waiting-room:solver`: the page's solver bundled as the Wasm build does (lib/solver-bundle.ts).
      name: 'waiting-room-solver',
      enforce: 'pre',
      resolveId: (id) => (id === SOLVER_MODULE ? `\0${SOLVER_MODULE}` : undefined),
      load: (id) => (id === `\0${SOLVER_MODULE}` ? solverModule() : undefined),
    },
  ],
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    reporters: ['default'],
    // The pages' CSS part is imported as text (`style.css?raw`, src/core/pages.ts): vitest would make it empty.
    css: { include: [/\/pages\/parts\/[^/]*\.css\?raw$/] },
    projects: [
      // Threads: a unit file starts in a fraction of the time a forked process takes, and over 80 files
      // that is most of the project's time. The others keep forks: they start and stop processes.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...sim, ...wasm, ...browser, ...processes],
          pool: 'threads',
        },
      },
      { extends: true, test: { name: 'sim', include: sim } },
      { extends: true, test: { name: 'wasm', include: wasm } },
      { extends: true, test: { name: 'browser', include: browser } },
      { extends: true, test: { name: 'process', include: processes } },
    ],
  },
});
