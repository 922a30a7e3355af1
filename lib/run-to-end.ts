// A command run to its end as a child process, without blocking this one: the tests and the rehearsal
// whose stand-in of Fastly's API answers from this process must never wait on a child synchronously.
import { spawn } from 'node:child_process';

export interface Run {
  code: number | null;
  out: string;
  err: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin?: string;
}

/** Runs `cmd args` in `cwd` with `env`, feeding it `stdin`; resolves with its exit code and output once it has exited. */
export function runToEnd(cmd: string, args: readonly string[], o: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...args], { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(o.stdin ?? '');
  });
}
