// `npm start`: the whole demo on one machine, from a fresh clone after `npm ci`.
//
//   1. keys   local/keys.json (a fresh signing key, once)       npm run keys -- generate
//   2. build  bin/main.wasm, and local/pages.json from pages/   npm run build
//      (with --skip-build only the pages step:                  npm run pages)
//   3. the demo origin (the shop) on 127.0.0.1:7070             scripts/demo-origin.ts
//   4. the room on 127.0.0.1:7676: `fastly compute serve` driving the project's local host
//      (host/bin/compute-host, a Viceroy stand-in); with --viceroy, the Viceroy the Fastly CLI manages.
//
//   5. with --control, the controller (`npm run control`) fed with the room's output, its dashboard
//      on 127.0.0.1:7373, and `log_endpoint` set to stdout when unset    scripts/start-control.ts
//
//   npm start -- [--viceroy | --host PATH] [--addr 127.0.0.1:7676] [--skip-build] [--control]
//
// Ctrl-C stops everything; if the room or the shop stops on its own, the rest is stopped too.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/core/config.js';
import { startDemoOrigin, DEMO_ORIGIN_PORT } from './demo-origin.js';
import { main as keysMain } from './keys.js';
import { readStoreIfExists } from '../lib/json-store.js';
import { isMain } from '../lib/cli.js';
import { fastlyBin } from '../lib/fastly-cli.js';
import { configFile, hostBin, repoRoot } from '../lib/paths.js';
import { localConfigFile } from '../lib/local-store.js';
import { DASHBOARD_PORT, ensureLogEndpoint, startController, type RunningController } from './start-control.js';

const say = (line: string) => console.log(`[start] ${line}`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a setup step to completion with its output shown; a failed step stops `npm start`. */
function step(command: string, args: string[]): Promise<void> {
  say(`${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`"${command} ${args.join(' ')}" failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

function splitAddr(addr: string): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(addr);
  if (!m) throw new Error(`--addr "${addr}" must be HOST:PORT`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

/** Processes below `pid` (Linux /proc; elsewhere none are found and only `pid` is signalled). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // Field 4 of /proc/PID/stat is the parent; the command name (field 2) may hold spaces, so split after ")".
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        parents.set(Number(entry), ppid);
      } catch {
        // the process ended while we looked
      }
    }
  } catch {
    return [];
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents) {
      if (parent === p) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** True when something accepts TCP connections at host:port. */
function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntilListening(host: string, port: number, stillRunning: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillRunning()) {
    if (await listening(host, port)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

async function banner(addr: string, control: boolean): Promise<void> {
  const data = (await readStoreIfExists(configFile()).catch(() => null)) ?? {};
  // As the room reads them, so the banner shows its defaults (and not a value it would refuse).
  const { allowPercentage: pct, waitPeriodSeconds: wait } = parseConfig((key) => data[key] ?? null).config;
  console.log(`
  The waiting room is running.

    ${`http://${addr}/`.padEnd(28)}the shop behind the room (allow_percentage ${pct}: each draw, every ${wait} s, lets ${pct}% in)
    ${`http://127.0.0.1:${DEMO_ORIGIN_PORT}/`.padEnd(28)}the shop itself (the origin), for comparison

  Tune it while it runs, from another terminal:

    npm run tune                            show the settings
    npm run tune -- allow_percentage=100    let everyone in
    npm run tune -- allow_percentage=0      close the doors (deny page)
    npm run tune -- enabled=false           switch the room off
${
  control
    ? `
  The controller holds the room to new_users_per_minute; its dashboard:

    ${`http://127.0.0.1:${DASHBOARD_PORT}/`.padEnd(28)}admissions a minute, the chance it publishes, who waits

    npm run tune -- new_users_per_minute=120              the target (unset: it only watches)
    npm run tune -- identity=header:x-load-visitor        then: npm run load -- --minutes 3
`
    : ''
}
  Ctrl-C stops everything.
`);
}

export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      viceroy: { type: 'boolean', default: false },
      addr: { type: 'string', default: '127.0.0.1:7676' },
      'skip-build': { type: 'boolean', default: false },
      // The controller beside the room, fed with its decision lines (scripts/start-control.ts).
      control: { type: 'boolean', default: false },
      // Another Viceroy-compatible binary in place of the project's host.
      host: { type: 'string' },
    },
  });
  const addr = values.addr;
  const { host, port } = splitAddr(addr);
  if (await listening(host, port)) throw new Error(`something already listens on ${addr} (another npm start?); stop it or pass --addr`);
  // fastly.toml sends the room's backend there, so the port is not ours to change; say so before the build.
  if (await listening('127.0.0.1', DEMO_ORIGIN_PORT)) {
    throw new Error(`something already listens on 127.0.0.1:${DEMO_ORIGIN_PORT}, where fastly.toml expects the demo origin; stop it first`);
  }

  localConfigFile(undefined, say); // a fresh clone's local/config.json, from the demo settings (local/config.example.json)
  say('keys: npm run keys -- generate');
  await keysMain(['generate']);
  // The build writes local/pages.json itself; only a skipped build leaves it to its own step.
  if (values['skip-build']) await step(npm, ['run', '--silent', 'pages']);
  else await step(npm, ['run', '--silent', 'build']);
  const localHost = values.host ?? hostBin;
  if (!values.viceroy && values.host === undefined && !existsSync(hostBin)) await step(npm, ['run', '--silent', 'build:host']);

  let origin: Server;
  try {
    ({ server: origin } = await startDemoOrigin());
  } catch (error) {
    throw new Error(`the demo origin cannot listen on 127.0.0.1:${DEMO_ORIGIN_PORT}: ${(error as Error).message}`);
  }
  say(`demo origin (the shop) on http://127.0.0.1:${DEMO_ORIGIN_PORT}`);
  if (values.control) say(await ensureLogEndpoint(configFile()));

  // --non-interactive: no prompt may wait on a terminal nobody watches (CI, no stdin).
  const serveArgs = ['compute', 'serve', '--skip-build', '--non-interactive', '--addr', addr];
  if (!values.viceroy) serveArgs.push('--viceroy-path', localHost);
  say(`fastly ${serveArgs.join(' ')}`);
  // Same process group as this script: a Ctrl-C in the terminal, or a CI runner killing the group,
  // reaches the room and its host even if this script is killed first without a chance to clean up.
  // With --control the room's stdout goes through this process, to the terminal and to the controller.
  const room: ChildProcess = spawn(fastlyBin, serveArgs, { cwd: repoRoot, stdio: ['ignore', values.control ? 'pipe' : 'inherit', 'inherit'] });
  let roomRunning = true;
  const controller: RunningController | null = values.control ? startController(room.stdout!, say) : null;

  const stopRoom = (signal: NodeJS.Signals) => {
    if (!roomRunning || room.pid === undefined) return;
    // The Fastly CLI stops its host on SIGTERM; on SIGKILL it cannot, so the host is killed here too.
    const targets = signal === 'SIGKILL' ? [...descendants(room.pid), room.pid] : [room.pid];
    for (const pid of targets) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', () => {
    stopRoom('SIGKILL');
    controller?.stop('SIGKILL');
  });

  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = (code: number, why: string) => {
      if (stopping) return;
      stopping = true;
      say(why);
      origin.close();
      controller?.stop('SIGTERM');
      if (!roomRunning) return resolve(code);
      stopRoom('SIGTERM');
      const force = setTimeout(() => stopRoom('SIGKILL'), 5000);
      room.once('exit', () => {
        clearTimeout(force);
        resolve(code);
      });
    };
    room.once('error', (error) => {
      roomRunning = false;
      shutdown(1, `cannot run the Fastly CLI (${fastlyBin}): ${error.message}`);
    });
    room.once('exit', (code, signal) => {
      roomRunning = false;
      // A terminal Ctrl-C reaches the CLI too; give our own SIGINT handler the chance to name the cause.
      const hint = values.viceroy ? ' (--viceroy: the Fastly CLI fetches Viceroy on first use; offline, leave --viceroy out to use the project host)' : '';
      setTimeout(() => shutdown(1, `the room stopped (${signal ?? `exit ${code}`}); stopping the shop too${hint}`), 100);
    });
    origin.once('error', (error) => shutdown(1, `the demo origin failed (${error.message}); stopping the room`));
    process.once('SIGINT', () => shutdown(130, 'stopping (Ctrl-C)'));
    process.once('SIGTERM', () => shutdown(143, 'stopping (SIGTERM)'));

    void waitUntilListening(host, port, () => roomRunning, 120_000).then(async (up) => {
      if (up && !stopping) await banner(addr, values.control);
      else if (!stopping) shutdown(1, `the room did not listen on ${addr} within 120 s`);
    });
  });
}

if (isMain(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
