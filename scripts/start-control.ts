// `npm start -- --control`: the controller (`npm run control`) beside the room, fed with the room's
// own output, as `npm start | npm run control -- --source stdin` would be, in one command.
//
// The room's decision lines need `log_endpoint`: on the local host a named endpoint prints them as
// `NAME :: {...}` and `stdout` prints them bare; the controller reads either. When the setting is
// missing it is set to `stdout` before the room starts, so the first visitor's line is not lost.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { STDOUT_LOG } from '../src/fastly/names.js';
import { readStoreIfExists, writeStoreAtomic, applyWrites } from '../lib/json-store.js';
import { roomSettings } from '../lib/room-store.js';
import { storeWrites } from '../src/core/settings/index.js';
import { configFile, repoRoot } from '../lib/paths.js';
import { dirname, join } from 'node:path';

export const DASHBOARD_PORT = 7373;

/** The controller's journal with `npm start -- --control`: beside the local store file (local/journal.jsonl), for npm run report. */
export const journalFile = (configFile: string): string => join(dirname(configFile), 'journal.jsonl');

/**
 * Sets `log_endpoint=stdout` in the local store's service-wide settings when they have none; says
 * what it did. A room with a log_endpoint of its own keeps it.
 */
export async function ensureLogEndpoint(file: string): Promise<string> {
  const data = (await readStoreIfExists(file)) ?? {};
  const current = roomSettings(data, null).config.logEndpoint;
  if (current !== null) return `log_endpoint is "${current}": the room prints its decision lines for the controller`;
  await writeStoreAtomic(file, applyWrites(data, storeWrites(data, null, { log_endpoint: STDOUT_LOG })));
  return `log_endpoint was unset; set to "${STDOUT_LOG}" in ${file} (settings) so the room prints its decision lines`;
}

export interface RunningController {
  child: ChildProcess;
  running(): boolean;
  stop(signal: NodeJS.Signals): void;
}

/**
 * Starts `tsx control/cli.ts --source stdin --no-echo` and copies every chunk of `roomOutput` to the
 * controller's stdin; the caller shows the room's output to the operator (--no-echo: the controller
 * does not show it a second time). If the controller stops, the room goes on: it keeps the last
 * chance the controller published (docs/control/settings.md).
 */
export function startController(
  roomOutput: Readable,
  say: (line: string) => void,
  dashboardPort = DASHBOARD_PORT,
): RunningController {
  // Node with tsx's loader, in one process: the tsx command would put a second process between this
  // one and the controller, which a SIGKILL on exit would leave behind. Its own process group, so
  // npm start's guard (lib/child-guard.ts) can stop it if npm start dies without stopping it.
  const args = [
    '--import',
    'tsx',
    'control/cli.ts',
    '--source',
    'stdin',
    '--no-echo',
    '--dashboard-port',
    String(dashboardPort),
    '--journal',
    journalFile(configFile()),
  ];
  const child = spawn(process.execPath, args, { cwd: repoRoot, detached: true, stdio: ['pipe', 'inherit', 'inherit'] });
  let alive = true;
  let stopping = false;
  // A controller gone mid-write must not take the room's output down with it.
  child.stdin!.on('error', () => undefined);
  roomOutput.on('data', (chunk: Buffer) => {
    if (alive && child.stdin!.writable) child.stdin!.write(chunk);
  });
  roomOutput.on('end', () => child.stdin!.end());
  child.once('error', (error) => {
    alive = false;
    say(`cannot run the controller: ${error.message}; the room runs without it`);
  });
  child.once('exit', (code, signal) => {
    const wasAlive = alive;
    alive = false;
    if (wasAlive && !stopping)
      say(`the controller stopped (${signal ?? `exit ${code}`}); the room keeps the last chance it published`);
  });
  return {
    child,
    running: () => alive,
    stop(signal) {
      stopping = true;
      if (!alive || child.pid === undefined) return;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    },
  };
}
