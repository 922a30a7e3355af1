// A command run to its end as a child process, without blocking this one: tests whose stand-in of
// Fastly's API answers from this process must never wait on a child synchronously.
import { spawn } from 'node:child_process';
import { repoRoot } from '../../lib/paths.js';

export interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `cmd args` in the repository with `env`, feeding it `stdin`; resolves once it has exited. */
export function runCommand(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...args], { cwd: repoRoot, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
  });
}
