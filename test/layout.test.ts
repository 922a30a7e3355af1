// Where a module's tests are: test/ plus the module's path, without a leading `src/` and with
// `host/src/` as `host/`, `.ts` becoming `.test.ts`; a module with several test files gives each its
// name as a prefix (test/core/handler.visitor.test.ts). The suites below test the built room, the
// pages in a browser or the repository's files as a whole rather than one module, and say so here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.js';

const WHOLE: Record<string, string> = {
  'test/e2e/': 'the built room on the local host, end to end',
  'test/browser/': "a visitor's journey in Chromium",
  'test/seams/on-sale-day.test.ts': "an operator's on-sale day: the real commands against the built room",
  'test/pages/': 'the page templates in Chromium',
  'test/seams/': 'where features meet: one concern through the edge, the tools and docs/ at once',
  'test/host/http.test.ts': "the host as a process: a guest's own answers over HTTP",
  'test/host/http.backends.test.ts': "the host as a process: a guest's backend requests",
  'test/host/tls.test.ts': 'the host as a process: TLS to backends',
  'test/host/wat-guest.test.ts': 'the hand-written guests the host tests use (test/host/wat-guest.ts)',
  'test/load/room.e2e.test.ts': 'the load tool against the built room',
  'test/scripts/readme.test.ts': 'the README and docs/ against the code',
  'test/scripts/manifest.test.ts': 'fastly.toml and local/ against the code',
  'test/scripts/fastly-service.test.ts': 'tune and keys against a stand-in Fastly CLI',
  'test/fastly-api/cli-e2e.test.ts':
    'tune, keys, pages and log-tail through the real Fastly CLI against the API stand-in',
  'test/sim/fairness.test.ts': 'the room is fair: simulated crowds',
  'test/sim/hoarding.test.ts': 'kept tokens gain nothing: simulated crowds',
  'test/sim/settings.test.ts': 'setting changes in force: simulated crowds',
  'test/sim/smoothness.test.ts': 'the flow to the origin: simulated crowds',
  'test/sim/tools.test.ts': "the simulator's command line and report",
  'test/vitest.config.test.ts': 'vitest.config.ts',
  'test/layout.test.ts': 'this file',
};

function testFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files a test file's name points at: its module in src/, host/src/ or a top-level folder. */
function candidates(testFile: string): string[] {
  const rel = testFile.slice('test/'.length);
  const slash = rel.lastIndexOf('/');
  const dir = slash < 0 ? '' : rel.slice(0, slash);
  const module = rel.slice(slash + 1).split('.')[0]!;
  const dirs = [`src/${dir}`, dir, dir === 'host' || dir.startsWith('host/') ? `host/src${dir.slice(4)}` : null];
  return dirs.filter((d) => d !== null).flatMap((d) => ['.ts', '.mjs', '.html'].map((ext) => `${d}/${module}${ext}`));
}

describe('the test folder', () => {
  it('names each test file after the module it tests, or says why it tests a whole', () => {
    const files = testFiles('test');
    expect(files.length).toBeGreaterThan(100);
    const lost = files.filter(
      (f) =>
        !Object.keys(WHOLE).some((w) => f === w || (w.endsWith('/') && f.startsWith(w))) &&
        !candidates(f).some((c) => existsSync(join(repoRoot, c))),
    );
    expect(lost).toEqual([]);
  });

  it('lists no suite that is gone', () => {
    for (const path of Object.keys(WHOLE)) expect(existsSync(join(repoRoot, path)), path).toBe(true);
  });
});

describe("control/'s folders", () => {
  /** Every TypeScript file of the repository that may import the controller, with its text. */
  function tsFiles(dir: string): string[] {
    return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : tsFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  it('are entered only by their index.ts from outside (their own tests aside)', () => {
    const folders = readdirSync(join(repoRoot, 'control'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (const folder of folders) expect(existsSync(join(repoRoot, 'control', folder, 'index.ts')), folder).toBe(true);
    const through: string[] = [];
    for (const file of tsFiles('')) {
      const own = /^(?:test\/)?control\/([\w-]+)\//.exec(file)?.[1];
      for (const m of readFileSync(join(repoRoot, file), 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = join(dirname(file), m[1]!);
        const hit = /^control\/([\w-]+)\/([\w.-]+)\.js$/.exec(target);
        if (hit !== null && folders.includes(hit[1]!) && hit[1] !== own && hit[2] !== 'index')
          through.push(`${file} imports ${target}`);
      }
    }
    expect(through).toEqual([]);
  });
});
