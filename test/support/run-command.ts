// A command run to its end in the repository (lib/run-to-end.ts), as most process tests run the tools.
import { runToEnd, type Run } from '../../lib/run-to-end.js';
import { repoRoot } from '../../lib/paths.js';

export type { Run } from '../../lib/run-to-end.js';

/** Runs `cmd args` in the repository with `env`, feeding it `stdin`; resolves once it has exited. */
export function runCommand(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  return runToEnd(cmd, args, { cwd: repoRoot, env, stdin });
}
