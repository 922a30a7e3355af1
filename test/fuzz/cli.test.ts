// `npm run fuzz`'s command line: help and wrong options are answered before any room is started.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';

function fuzzCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'fuzz/cli.ts', ...args],
      { cwd: repoRoot, timeout: 60_000 },
      (_e, out, err) => resolve({ code: child.exitCode, out, err }),
    );
  });
}

describe('npm run fuzz (command line)', () => {
  it('prints its usage for --help and exits 0, starting nothing', async () => {
    const r = await fuzzCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: npm run fuzz -- /);
    expect(r.out).toContain('--minutes');
    expect(r.err).toBe('');
  });

  it('says which option is wrong, prints the usage and exits 2, without a stack trace', async () => {
    const r = await fuzzCli(['--minutes', 'soon']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^npm run fuzz: --minutes must be a positive number, not "soon"\n/);
    expect(r.err).toMatch(/^usage: npm run fuzz -- /m);
    expect(r.err).not.toMatch(/^\s+at /m);
  });
});
