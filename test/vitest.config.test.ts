// The projects in vitest.config.ts are lists of files, so a new suite lands in `unit` unless someone
// names it elsewhere. This keeps `npm run test:unit` what it promises: no Wasm build, no host, no
// browser. A file that starts one of those must be listed in the project made for it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.js';
import { browser, processes, sim, wasm } from '../vitest.config.js';

/** Calls that build the room, start the local host or a browser. */
const HEAVY = /\b(startHost|startRoom|runHostCommand|ensureRoomWasm|buildWasm|launchBrowser)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The project lists use exact paths and `dir/**\/*.test.ts`; nothing else. */
function listed(file: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    p.endsWith('/**/*.test.ts') ? file.startsWith(p.slice(0, -'**/*.test.ts'.length)) : file === p,
  );
}

describe('the vitest projects', () => {
  const files = testFiles('test');
  const others = [...browser, ...sim, ...wasm, ...processes];

  it('name only files that exist', () => {
    for (const pattern of others.filter((p) => !p.includes('*'))) expect(files, pattern).toContain(pattern);
  });

  it('keep every suite that builds the room, starts the host or a browser out of the unit project', () => {
    const unit = files.filter((f) => !listed(f, others));
    expect(unit.length).toBeGreaterThan(50);
    const heavy = unit.filter((f) => HEAVY.test(readFileSync(join(repoRoot, f), 'utf8')));
    expect(heavy.map((f) => relative('.', f))).toEqual([]);
  });
});
