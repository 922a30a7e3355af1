// Builds from an older commit for the benches that compare builds in one run: a temporary git worktree
// of that commit sharing this checkout's node_modules, a build run there under tsx, and the files it
// made copied out before the worktree is removed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';

/** A git command in this checkout: its output, or null when it fails (no git, not a checkout, no such commit). */
export function git(args: string[]): string | null {
  const r = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** What a build at a commit left: its files by name (copied out of the worktree), or why there are none. */
export type BuiltAt = { commit: string; files: Record<string, string> } | { missing: string };

/**
 * Runs `script` (an ES module's text, under tsx) in a temporary worktree of `rev`; the script prints,
 * as its last line, a JSON object of name -> path of what it built. Those files are copied to the
 * system's temporary folder and the worktree removed, whatever happened.
 */
export function buildAtCommit(rev: string, script: string): BuiltAt {
  const commit = git(['rev-parse', '--verify', `${rev}^{commit}`]);
  if (!commit) return { missing: `no commit ${rev} in this checkout (a git checkout with its history is needed)` };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wr-build-at-'));
  rmSync(dir, { recursive: true });
  if (git(['worktree', 'add', '--detach', dir, commit]) === null)
    return { missing: `git worktree add ${commit} failed` };
  try {
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const last = r.stdout.trim().split('\n').pop() ?? '';
    let made: Record<string, string>;
    try {
      made = JSON.parse(last) as Record<string, string>;
    } catch {
      made = {};
    }
    if (r.status !== 0 || Object.keys(made).length === 0)
      return { missing: `building ${commit.slice(0, 7)} failed: ${r.stderr.trim().split('\n').pop() ?? ''}` };
    const files: Record<string, string> = {};
    for (const [name, file] of Object.entries(made)) {
      const kept = path.join(os.tmpdir(), `wr-${commit.slice(0, 12)}-${name}${path.extname(file)}`);
      copyFileSync(path.resolve(dir, file), kept);
      files[name] = kept;
    }
    return { commit, files };
  } finally {
    git(['worktree', 'remove', '--force', dir]);
  }
}
