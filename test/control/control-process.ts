// `npm run control` as a child process for the end-to-end tests against the Fastly API stand-in:
// started with the environment that points the real Fastly CLI at the stand-in, its stderr collected,
// its dashboard and journal read as an operator would.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { JournalLine } from '../../control/store/index.js';
import type { DashboardSnapshot } from '../../control/types.js';
import { repoRoot } from '../../lib/paths.js';

/** Two rooms queueing (allow_percentage 50, windows of 30 s), each with its own target. */
export const TWO_ROOMS: Record<string, string> = {
  routing: JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'checkout', routes: ['/checkout'] },
    ],
    default_room: 'shop',
  }),
  settings: JSON.stringify({ wait_period_duration: '30', allow_percentage: '50' }),
  'room.shop': JSON.stringify({ new_users_per_minute: '60' }),
  'room.checkout': JSON.stringify({ new_users_per_minute: '30' }),
};

export interface ControlProcess {
  /** Everything it said on stderr so far. */
  readonly err: string;
  readonly exitCode: number | null;
  readonly dashboard: string;
  snapshot(): Promise<DashboardSnapshot>;
  journal(): Promise<JournalLine[]>;
  /** kill -HUP: read the settings at the next tick. */
  hup(): void;
  stop(): Promise<void>;
}

/**
 * Starts `npm run control -- ARGS --journal DIR/journal.jsonl --state DIR/control-state.json --dashboard-port 0`
 * and waits for its dashboard: its state file in DIR, so no run resumes from another's (the default for
 * --service is local/control-state-SERVICE.json in the checkout, shared by every test of that service).
 */
export async function controlProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<ControlProcess> {
  const file = join(dir, 'journal.jsonl');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'control/cli.ts',
      ...args,
      '--journal',
      file,
      ...(args.includes('--state') ? [] : ['--state', join(dir, 'control-state.json')]),
      '--dashboard-port',
      '0',
    ],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const dashboard = await vi.waitFor(
    () => {
      const m = /dashboard at (http:\/\/\S+?)\/?$/m.exec(err);
      if (m === null) throw new Error(`npm run control has not started its dashboard: ${err || 'nothing said'}`);
      return m[1]!;
    },
    { timeout: 20_000, interval: 100 },
  );
  return {
    get err() {
      return err;
    },
    get exitCode() {
      return child.exitCode;
    },
    dashboard,
    snapshot: async () => (await (await fetch(`${dashboard}/api/snapshot`)).json()) as DashboardSnapshot,
    journal: async () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as JournalLine)
        : [],
    hup: () => child.kill('SIGHUP'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
