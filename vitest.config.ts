import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SOLVER_MODULE, solverModule } from './lib/solver-bundle.js';
import { WaitingFirst } from './test/support/waiting-first.js';

// Seven projects, by what a test needs, chosen by folder or by the file's last name before `.test.ts`, so
// a new suite lands in its project without an edit here: `npm test` runs them all, `npm run test:unit`
// (and test:sim, test:wasm, test:browser, test:process) one. Suites that need the built Wasm or Chromium
// prepare it in their own beforeAll (lib/room-wasm.ts, lib/wasm-build.ts, lib/chromium.ts).
//   unit     every other file: in-process, the core, the control model, the host's ABI and manifest
//            modules, lib/, the tools and the load tool; at most a small child process (a CLI under
//            tsx, a stand-in script)
//            The unit files share one module graph per worker (isolate: false): loading the core once
//            rather than once a file is most of the project's time. A file that replaces a module
//            (vi.mock) would leak its fake into the next, so it says so in its name, `*.mock.test.ts`, and
//            runs in `unit-mocks`, each file on its own; `npm run test:unit` runs both
//   sim      test/sim/: in-process too, but crowds of virtual visitors take seconds to a minute a file
//   realtime `*.realtime.test.ts`: the suites that run minutes by the wall clock (the controller's restart
//            in a crowd, an operator's on-sale day), the built room and processes, mostly waiting
//   alone    `*.alone.test.ts`: a realtime suite that judges times this machine measures (the autopilot
//            finding the demo shop's pace from its p90), so it runs last, with the machine to itself
//   wasm     test/e2e/ and `*.wasm.test.ts`: a Wasm module on the local host, the built room (the fuzz
//            run, the load tool end to end) and the host running its guest apps
//   process  `*.process.test.ts`: the tools as processes against the Fastly API stand-in (fastly-api/)
//            through the real Fastly CLI (`npm run control -- --service`, tune, keys, pages); seconds to
//            tens of seconds a file
//   browser  test/browser/ and `*.browser.test.ts`: Chromium, the pages, the dashboard, a visitor's
//            journey through the room
// test/vitest.config.test.ts holds that every test file is in exactly one project.
//
// Three groups, one after the other (sequence.groupOrder). First the realtime suites, each on a worker of
// its own, beside the files that run no guest on the local host (process, sim, unit) on one worker more
// than the machine has cores: the realtime suites wait on the clock most of their minutes, and the others
// fill that wait. Then the projects that run guests on the host (wasm, browser), as many at once as there
// are cores, never beside a third: the host measures a guest's CPU time by its thread's clock, which a
// crowded 2-core machine inflates past the 50 ms limit (a third worker there failed three runs in four).
// Last the `alone` suites, one at a time with nothing beside them: the autopilot's shop is two workers of
// 300 ms timers, and a busy machine slowed them past the shop's own 4 s line in CI.
// VITEST_MAX_WORKERS sets the second group's workers (the first gets one more).

export const realtime = ['test/**/*.realtime.test.ts'];
export const sim = ['test/sim/**/*.test.ts'];
export const wasm = ['test/e2e/**/*.test.ts', 'test/**/*.wasm.test.ts'];
export const browser = ['test/browser/**/*.test.ts', 'test/**/*.browser.test.ts'];
export const processes = ['test/**/*.process.test.ts'];
export const mocks = ['test/**/*.mock.test.ts'];
export const alone = ['test/**/*.alone.test.ts'];
/** The suites on the wall clock, taken out of the projects their folder would put them in. */
const timed = [...realtime, ...alone];
export const unit = {
  include: ['test/**/*.test.ts'],
  exclude: [...sim, ...timed, ...wasm, ...browser, ...processes, ...mocks],
};

/** Workers for the projects that run guests on the local host: as many as cores, two at least. */
const workers = Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, availableParallelism());
const first = { sequence: { groupOrder: 0 }, maxWorkers: workers + 1 };
const second = { sequence: { groupOrder: 1 }, maxWorkers: workers };
const last = { sequence: { groupOrder: 2 }, maxWorkers: 1 };

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
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, and the second
    // core idle while a file waits on its host, browser or crowd. The projects set their own (above).
    maxWorkers: workers + 1,
    sequence: { sequencer: WaitingFirst },
    // A failing test shows what the local hosts it started said on stderr (a guest's trap, its CPU time).
    setupFiles: ['test/support/host-stderr.ts'],
    reporters: ['default'],
    // The pages' CSS part is imported as text (`style.css?raw`, src/core/pages/pages.ts): vitest would make it empty.
    css: { include: [/\/pages\/parts\/[^/]*\.css\?raw$/] },
    projects: [
      // Threads: a unit file starts in a fraction of the time a forked process takes, and over 80 files
      // that is most of the project's time. The others keep forks: they start and stop processes.
      { extends: true, test: { name: 'unit', ...unit, pool: 'threads', isolate: false, ...first } },
      { extends: true, test: { name: 'unit-mocks', include: mocks, exclude: timed, pool: 'threads', ...first } },
      { extends: true, test: { name: 'sim', include: sim, exclude: timed, ...first } },
      { extends: true, test: { name: 'realtime', include: realtime, ...first } },
      { extends: true, test: { name: 'wasm', include: wasm, exclude: timed, ...second } },
      { extends: true, test: { name: 'browser', include: browser, exclude: timed, ...second } },
      { extends: true, test: { name: 'process', include: processes, exclude: timed, ...first } },
      { extends: true, test: { name: 'alone', include: alone, ...last } },
    ],
  },
});
