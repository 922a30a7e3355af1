// The projects in vitest.config.ts are chosen by folder and by the name's suffix (`*.wasm.test.ts`,
// `*.browser.test.ts`, `*.process.test.ts`, `*.realtime.test.ts`, `*.alone.test.ts`), so a new suite lands in `unit` unless its name says
// otherwise. This keeps `npm run test:unit` what it promises, no Wasm build, no host, no browser, and
// every suite run exactly once by `npm test`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.js';
import config, { alone, browser, mocks, processes, realtime, sim, unit, wasm } from '../vitest.config.js';
import { FIRST } from './support/waiting-first.js';

/** Calls that build the room, start the local host or a browser. */
const HEAVY = /\b(startHost|startRoom|runHostCommand|ensureRoomWasm|buildWasm|launchBrowser)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A glob as vitest reads the ones the config uses: `**\/` any folders (or none), `*` any name part. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) {
      source += '(?:[^/]+/)*';
      i += 2;
    } else if (glob[i] === '*') source += '[^/]*';
    else source += glob[i]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const matches = (file: string, globs: readonly string[]): boolean => globs.some((g) => globToRegExp(g).test(file));

const timed = [...realtime, ...alone];
const projects: Record<string, (file: string) => boolean> = {
  unit: (f) => matches(f, unit.include) && !matches(f, unit.exclude),
  sim: (f) => matches(f, sim) && !matches(f, timed),
  realtime: (f) => matches(f, realtime),
  wasm: (f) => matches(f, wasm) && !matches(f, timed),
  browser: (f) => matches(f, browser) && !matches(f, timed),
  process: (f) => matches(f, processes) && !matches(f, timed),
  'unit-mocks': (f) => matches(f, mocks) && !matches(f, timed),
  alone: (f) => matches(f, alone),
};

describe('the vitest projects', () => {
  const files = testFiles('test');

  it('read their globs as vitest does', () => {
    expect(matches('test/host/http.wasm.test.ts', wasm)).toBe(true);
    expect(matches('test/e2e/origin.test.ts', wasm)).toBe(true);
    expect(matches('test/sim/room.test.ts', wasm)).toBe(false);
    expect(matches('test/layout.test.ts', unit.include)).toBe(true);
  });

  it('name only files that exist', () => {
    const named = [...sim, ...wasm, ...browser, ...processes].filter((p) => !p.includes('*'));
    for (const file of named) expect(files, file).toContain(file);
  });

  it('put every test file in exactly one project', () => {
    const wrong = files
      .map((f) => ({ file: f, in: Object.keys(projects).filter((name) => projects[name]!(f)) }))
      .filter((f) => f.in.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('keep every suite that builds the room, starts the host or a browser out of the unit project', () => {
    const inUnit = files.filter(projects.unit!);
    expect(inUnit.length).toBeGreaterThan(50);
    const heavy = inUnit.filter((f) => HEAVY.test(readFileSync(join(repoRoot, f), 'utf8')));
    expect(heavy.map((f) => relative('.', f))).toEqual([]);
  });

  it('keep the guests on the host out of the group the realtime suites share (process, sim)', () => {
    const beside = files.filter((f) => projects.process!(f) || projects.sim!(f));
    expect(beside.length).toBeGreaterThan(20);
    expect(beside.filter((f) => HEAVY.test(readFileSync(join(repoRoot, f), 'utf8')))).toEqual([]);
  });

  it('keep every suite that replaces a module (vi.mock) out of the shared module graph of unit', () => {
    const mocking = files.filter(
      (f) => projects.unit!(f) && /\bvi\.mock\(/.test(readFileSync(join(repoRoot, f), 'utf8')),
    );
    expect(mocking).toEqual([]);
  });

  it('order every project (test/support/waiting-first.ts), the realtime suites first', () => {
    expect([...FIRST].sort()).toEqual(Object.keys(projects).sort());
    expect(FIRST[0]).toBe('realtime');
    expect(files.filter(projects.realtime!).length).toBeGreaterThanOrEqual(2);
  });

  it('run the suites with guests on the host no more at once than there are cores, after the realtime group', () => {
    const declared = (config.test?.projects ?? []) as {
      test: { name: string; maxWorkers: number; sequence: { groupOrder: number } };
    }[];
    const of = (name: string) => declared.find((p) => p.test.name === name)!.test;
    const cores = Math.max(2, availableParallelism());
    for (const name of ['wasm', 'browser']) {
      expect(of(name).maxWorkers, name).toBe(Number(process.env.VITEST_MAX_WORKERS) || cores);
      expect(of(name).sequence.groupOrder, name).toBeGreaterThan(of('realtime').sequence.groupOrder);
    }
    for (const name of ['unit', 'unit-mocks', 'sim', 'process'])
      expect(of(name).sequence.groupOrder, name).toBe(of('realtime').sequence.groupOrder);
  });

  it("run the suites that judge the machine's own times last, one at a time, with nothing beside them", () => {
    const declared = (config.test?.projects ?? []) as {
      test: { name: string; maxWorkers: number; sequence: { groupOrder: number } };
    }[];
    const others = declared.filter((p) => p.test.name !== 'alone').map((p) => p.test.sequence.groupOrder);
    const last = declared.find((p) => p.test.name === 'alone')!.test;
    expect(last.maxWorkers).toBe(1);
    expect(last.sequence.groupOrder).toBeGreaterThan(Math.max(...others));
    expect(files.filter(projects.alone!)).toContain('test/e2e/autopilot.alone.test.ts');
  });
});
