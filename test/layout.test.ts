// Where a module's tests are: test/ plus the module's path, without a leading `src/` and with
// `host/src/` as `host/`, `.ts` becoming `.test.ts`; a module with several test files gives each its
// name as a prefix (test/core/handler.visitor.test.ts). The suites below test the built room, the
// pages in a browser or the repository's files as a whole rather than one module, and say so here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.js';

const WHOLE: Record<string, string> = {
  'test/e2e/': 'the built room on the local host, end to end',
  'test/browser/': "a visitor's journey in Chromium",
  'test/seams/on-sale-day.realtime.test.ts': "an operator's on-sale day: the real commands against the built room",
  'test/pages/': 'the page templates in Chromium',
  'test/seams/': 'where features meet: one concern through the edge, the tools and docs/ at once',
  'test/host/http.wasm.test.ts': "the host as a process: a guest's own answers over HTTP",
  'test/host/http.backends.wasm.test.ts': "the host as a process: a guest's backend requests",
  'test/host/tls.wasm.test.ts': 'the host as a process: TLS to backends',
  'test/host/wat-guest.wasm.test.ts': 'the hand-written guests the host tests use (test/host/wat-guest.ts)',
  'test/load/room.e2e.wasm.test.ts': 'the load tool against the built room',
  'test/scripts/readme.test.ts': 'the README and docs/ against the code',
  'test/deploy/': "deploy/terraform/ against the provider's documented schema and the code",
  'test/scripts/manifest.test.ts': 'fastly.toml and local/ against the code',
  'test/scripts/fastly-service.process.test.ts': 'tune and keys against a stand-in Fastly CLI',
  'test/fastly-api/cli-e2e.process.test.ts':
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

// The source folders' doors: a family of files is a folder whose index.ts is the only module code
// outside the folder imports (tests aside, which test a family's modules one by one); only the Fastly
// adapter imports `fastly:*`; and every module under src/ is reached from the edge's entry point
// (src/index.ts), so code only the tools use lives outside src/ and out of the Wasm.
const SOURCE_DIRS = [
  'src',
  'client',
  'control',
  'host',
  'lib',
  'scripts',
  'sim',
  'report',
  'fastly-api',
  'rehearse',
  'load',
  'fuzz',
  'bench',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm;

/** Each import of a file: its specifier, and the repository path it names when relative. */
function importsOf(file: string): { spec: string; target: string | null }[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = (m[1] ?? m[2] ?? m[3])!;
    if (!spec.startsWith('.')) return { spec, target: null };
    const bare = spec.split('?')[0]!;
    return { spec, target: posix.normalize(posix.join(dirname(file), bare)).replace(/\.js$/, '.ts') };
  });
}

const sources = SOURCE_DIRS.flatMap(sourceFiles);
/** Every folder (at any depth under a source folder) with an index.ts: a family with a door. */
const families = sources
  .filter((f) => f.endsWith('/index.ts') && f !== 'src/index.ts')
  .map((f) => f.slice(0, -'/index.ts'.length));

describe('the source folders', () => {
  it('are entered through their index.ts only', () => {
    const sideDoors = sources.flatMap((file) =>
      importsOf(file).flatMap(({ target }) => {
        if (target === null) return [];
        const family = families
          .filter((fam) => target.startsWith(`${fam}/`) && !file.startsWith(`${fam}/`))
          .sort((a, b) => a.length - b.length)[0];
        if (family === undefined || target === `${family}/index.ts`) return [];
        // A family inside another family is entered through its own door from its parent.
        return [`${file} -> ${target} (use ${family}/index.js)`];
      }),
    );
    expect(sideDoors).toEqual([]);
  });

  it('have src/core in families: no module at its top but the handler, the warm-up and the shared types', () => {
    const top = sources.filter((f) => posix.dirname(f) === 'src/core').map((f) => posix.basename(f));
    // The shared types are two files: types.ts, and the settings' shapes it passes on.
    expect(top.sort()).toEqual(['handler.ts', 'settings-shapes.ts', 'types.ts', 'warm.ts']);
  });

  it('keep fastly:* to the Fastly adapter', () => {
    const outside = sources.filter(
      (file) =>
        !file.startsWith('src/fastly/') &&
        file !== 'src/index.ts' &&
        importsOf(file).some(({ spec }) => spec.startsWith('fastly:')),
    );
    expect(outside).toEqual([]);
  });

  it('hold in src/ only what the edge runs: every module is reached from src/index.ts', () => {
    const reached = new Set<string>();
    const queue = ['src/index.ts'];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const { target } of importsOf(file))
        if (target?.startsWith('src/') && target.endsWith('.ts')) queue.push(target);
    }
    expect(sources.filter((f) => f.startsWith('src/') && !reached.has(f))).toEqual([]);
  });
});

/** The modules a file imports names from in more than one top-level statement (parsed, not matched). */
function importedTwice(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const parsed = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const statement of parsed.statements) {
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (!clause?.namedBindings || !ts.isNamedImports(clause.namedBindings) || clause.name) continue;
    const spec = (statement as ts.ImportDeclaration).moduleSpecifier.getText(parsed).slice(1, -1);
    if (seen.has(spec)) twice.push(`${file}: ${spec}`);
    seen.add(spec);
  }
  return twice;
}

describe('imports', () => {
  it("name a module's imports in one statement, types with values (import { type A, b })", () => {
    const files = [...sources.filter((f) => f.endsWith('.ts')), ...testFiles('test')];
    expect(files.flatMap(importedTwice)).toEqual([]);
  });
});
