// `npm start`: the whole demo on one machine, from a fresh clone after `npm ci`.
//
//   1. keys   local/keys.json (a fresh signing key, once)       npm run keys -- generate
//   2. build  bin/main.wasm, and local/pages.json from pages/   npm run build
//      (with --skip-build only the pages step:                  npm run pages)
//      then a check that active_key names a usable key                scripts/start-keys.ts
//   3. the demo origin (the shop) on 127.0.0.1:7070             scripts/demo-origin.ts
//      with its capacity (scripts/demo-capacity.ts): past it, pages come late, then as 503s
//   4. the room on 127.0.0.1:7676: `fastly compute serve` driving the project's local host
//      (host/bin/compute-host, a Viceroy stand-in); with --viceroy, the Viceroy the Fastly CLI manages.
//
//      without --control, the room.ID.live values a stopped controller left are removed, and the
//      banner says so (scripts/start-live.ts): else its last schedule entry would decide every draw
//   5. with --control, the controller (`npm run control`) fed with the room's output, its dashboard
//      on 127.0.0.1:7373, and `log_endpoint` set to stdout when unset    scripts/start-control.ts
//
//   npm start -- [--viceroy | --host PATH] [--addr 127.0.0.1:7676] [--skip-build] [--control] [--shop-capacity N]
//
// --addr moves all three ports together (scripts/start-ports.ts): --addr 127.0.0.1:7677 puts the shop
// on 7071 and the dashboard on 7374.
//
// Ctrl-C, or SIGTERM to npm, tsx or this script, stops everything; if the room or the shop stops on its
// own, the rest is stopped too. The children live in their own process groups, watched by a guard
// process (lib/child-guard.ts) that stops them when this script, or npm or tsx in front of it, dies
// without a chance to clean up (SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { startDemoOrigin } from './demo-origin.js';
import { capacityText, DEMO_CAPACITY, type CapacityOptions } from './demo-capacity.js';
import { main as keysMain } from './keys.js';
import { signingKeyProblem } from './start-keys.js';
import { portsInUse, recordRoomAddress, startPorts, writeRunManifest, type StartPorts } from './start-ports.js';
import { readStoreIfExists } from '../lib/json-store.js';
import { roomOfUrl } from '../lib/room-store.js';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { startGuard, launchers } from '../lib/child-guard.js';
import { fastlyBin } from '../lib/fastly-cli.js';
import { canConnect } from '../lib/host-process.js';
import { configFile, hostBin, keysFile, pagesFile, repoRoot, wasmFile } from '../lib/paths.js';
import { localConfigFile } from '../lib/local-store.js';
import { ensureLogEndpoint, journalFile, startController, type RunningController } from './start-control.js';
import { relative } from 'node:path';
import { bannerText } from './start-banner.js';
import { clearStoppedController } from './start-live.js';
import { writeStatusBases } from '../lib/status-basis.js';
import { roomExitMessage, roomSlowMessage, tailLines } from './start-room.js';

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

async function waitUntilListening(
  host: string,
  port: number,
  stillRunning: () => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillRunning()) {
    if (await canConnect(port, host)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

async function banner(addr: string, ports: StartPorts, control: boolean, notes: string[]): Promise<void> {
  const data = (await readStoreIfExists(configFile()).catch(() => null)) ?? {};
  console.log(
    bannerText(
      addr,
      ports,
      control,
      data,
      Date.now() / 1000,
      notes,
      relative(repoRoot, journalFile(configFile())) || journalFile(configFile()),
    ),
  );
}

/** Sends `signal` to the process group led by `pid` (a detached child), or to the child alone. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

type StartOptions = {
  viceroy: boolean;
  addr: string;
  'skip-build': boolean;
  control: boolean;
  host?: string | undefined;
  'shop-capacity'?: string | undefined;
};

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
      // Requests the demo shop serves at once (0: no limit); scripts/demo-capacity.ts.
      'shop-capacity': { type: 'string' },
    },
  });
  if (values.viceroy && values.host !== undefined)
    throw new UsageError('--viceroy and --host are two ways to run the room: choose one');
  const ports = startPorts(values.addr);
  const capacity = shopCapacity(values['shop-capacity']);
  const localHost = await prepare(values, ports);

  // First of the children: whatever happens to this process from here on, the guard stops the rest.
  const guard = startGuard();
  for (const pid of launchers()) guard.watch(pid);
  const origin = await startOrigin(ports, capacity);
  const notes = await tidyStore(values.control, ports);
  const run = await launchRoom(values, ports, localHost, guard);
  return supervise(values, ports, origin, run, notes);
}

/** Before any child: the ports free, the store and a signing key there, the build and the host made. */
async function prepare(values: StartOptions, ports: StartPorts): Promise<string> {
  // Every port before the build, with the --addr that moves them all.
  const busy = await portsInUse(ports, values.control);
  if (busy !== null) throw new Error(busy);
  localConfigFile(undefined, say); // a fresh clone's local/config.json, from the demo settings (local/config.example.json)
  say('keys: npm run keys -- generate');
  await keysMain(['generate']);
  const keyProblem = await signingKeyProblem({ keys: keysFile(), config: configFile() });
  if (keyProblem !== null) throw new Error(keyProblem);
  // The build writes local/pages.json itself; only a skipped build leaves it to its own step.
  if (values['skip-build']) await step(npm, ['run', '--silent', 'pages']);
  else await step(npm, ['run', '--silent', 'build']);
  if (!values.viceroy && values.host === undefined && !existsSync(hostBin))
    await step(npm, ['run', '--silent', 'build:host']);
  return values.host ?? hostBin;
}

/** --shop-capacity: the demo's unless given, none at 0. */
function shopCapacity(text: string | undefined): CapacityOptions | undefined {
  if (text === undefined) return DEMO_CAPACITY;
  if (!/^\d+$/.test(text)) throw new UsageError(`--shop-capacity must be a whole number (0: no limit), not "${text}"`);
  return Number(text) === 0 ? undefined : { ...DEMO_CAPACITY, workers: Number(text) };
}

async function startOrigin(ports: StartPorts, capacity: CapacityOptions | undefined): Promise<Server> {
  try {
    // The shop says which room a page came through, by the store's routing as it is now.
    const roomOf = async (url: URL) => roomOfUrl((await readStoreIfExists(configFile())) ?? {}, url);
    const { server } = await startDemoOrigin({ port: ports.origin, roomOf, ...(capacity ? { capacity } : {}) });
    say(`demo origin (the shop) on http://127.0.0.1:${ports.origin}: ${capacityText(capacity)}`);
    return server;
  } catch (error) {
    throw new Error(`the demo origin cannot listen on 127.0.0.1:${ports.origin}: ${(error as Error).message}`);
  }
}

/** What the store needs for this run; returns what the banner should tell of it. */
async function tidyStore(control: boolean, ports: StartPorts): Promise<string[]> {
  if (control) say(await ensureLogEndpoint(configFile()));
  // Without --control, a stopped controller's schedules would go on deciding the draws (scripts/start-live.ts).
  const notes: string[] = [];
  const left = control ? null : await clearStoppedController(configFile());
  if (left !== null) say(left), notes.push(left);
  // Each room's public status reads its basis (docs/status.md): written for any room without one, as a free local write.
  await writeStatusBases(configFile());
  await recordRoomAddress(
    configFile(),
    `http://${ports.host.includes(':') ? `[${ports.host}]` : ports.host}:${ports.room}/`,
  );
  return notes;
}

interface RoomRun {
  room: ChildProcess;
  controller: RunningController | null;
  running(): boolean;
  lastLines(): string[];
  stopRoom(signal: NodeJS.Signals): void;
}

/** The Fastly CLI serving the built room on the host, and the controller reading its output with --control. */
async function launchRoom(
  values: StartOptions,
  ports: StartPorts,
  localHost: string,
  guard: ReturnType<typeof startGuard>,
): Promise<RoomRun> {
  const manifest = await writeRunManifest(ports.origin, { config: configFile(), keys: keysFile(), pages: pagesFile() });
  // --non-interactive: no prompt may wait on a terminal nobody watches (CI, no stdin). --metadata-disable:
  // the CLI annotates the Wasm it builds, and this run builds none (--skip-build), so its first-run
  // notice about collecting build data would only puzzle the operator.
  const serveArgs = [
    'compute',
    'serve',
    '-C',
    manifest.dir,
    '--skip-build',
    '--file',
    wasmFile,
    '--non-interactive',
    '--metadata-disable',
    '--addr',
    values.addr,
  ];
  if (!values.viceroy) serveArgs.push('--viceroy-path', localHost);
  say(`fastly ${serveArgs.join(' ')}`);
  // Its own process group (the CLI, the host and the host's workers), so one signal reaches them all,
  // and the guard can stop them if this script dies. The room's output goes through this process: to
  // the terminal, to the controller with --control, and into the tail read when the room fails.
  const room: ChildProcess = spawn(fastlyBin, serveArgs, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (room.pid !== undefined) guard.group(room.pid);
  let roomRunning = true;
  room.once('error', () => (roomRunning = false));
  room.once('exit', () => (roomRunning = false));
  const tail = [tailLines(room.stdout!, process.stdout), tailLines(room.stderr!, process.stderr)];
  const controller: RunningController | null = values.control
    ? startController(room.stdout!, say, ports.dashboard)
    : null;
  if (controller?.child.pid !== undefined) guard.group(controller.child.pid);
  const run: RoomRun = {
    room,
    controller,
    running: () => roomRunning,
    lastLines: () => tail.flatMap((t) => t.lines()),
    stopRoom: (signal) => {
      if (roomRunning) signalGroup(room.pid, signal);
    },
  };
  process.on('exit', () => {
    run.stopRoom('SIGKILL');
    controller?.stop('SIGKILL');
    rmSync(manifest.dir, { recursive: true, force: true });
  });
  return run;
}

/** Until a signal or a failure: the banner once the room listens, then everything stopped in order. */
function supervise(
  values: StartOptions,
  ports: StartPorts,
  origin: Server,
  run: RoomRun,
  notes: string[],
): Promise<number> {
  const { room, controller } = run;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = (code: number, why: string) => {
      if (stopping) return;
      stopping = true;
      say(why);
      origin.close();
      origin.closeAllConnections();
      controller?.stop('SIGTERM');
      // The controller saves its state as it stops: exiting first (whose handler kills it) would cut
      // that write short and leave its temporary file behind.
      const done = (): void => {
        if (controller === null || !controller.running()) return resolve(code);
        const late = setTimeout(() => resolve(code), 5000);
        controller.child.once('exit', () => (clearTimeout(late), resolve(code)));
      };
      if (!run.running()) return done();
      run.stopRoom('SIGTERM');
      const force = setTimeout(() => run.stopRoom('SIGKILL'), 5000);
      room.once('exit', () => {
        clearTimeout(force);
        done();
      });
    };
    room.once('error', (error) => shutdown(1, `cannot run the Fastly CLI (${fastlyBin}): ${error.message}`));
    room.once('exit', (code, signal) => {
      // Stop whatever the CLI left in its group (a host it did not stop).
      signalGroup(room.pid, 'SIGKILL');
      // Give a SIGINT or SIGTERM handler, which may have caused this, the chance to name the cause.
      setTimeout(() => shutdown(1, roomExitMessage(signal ?? `exit ${code}`, run.lastLines(), values.viceroy)), 100);
    });
    origin.once('error', (error) => shutdown(1, `the demo origin failed (${error.message}); stopping the room`));
    process.once('SIGINT', () => shutdown(130, 'stopping (Ctrl-C)'));
    process.once('SIGTERM', () => shutdown(143, 'stopping (SIGTERM)'));
    process.once('SIGHUP', () => shutdown(129, 'stopping (the terminal closed)'));

    void waitUntilListening(ports.host, ports.room, run.running, 120_000).then(async (up) => {
      if (up && !stopping) await banner(values.addr, ports, values.control, notes);
      // A room that stopped has said why (above); only one still running is slow.
      else if (!stopping && run.running()) shutdown(1, roomSlowMessage(values.addr, 120, run.lastLines()));
    });
  });
}

const USAGE = `usage: npm start -- [--control] [--addr HOST:PORT] [--skip-build] [--viceroy | --host PATH] [--shop-capacity N]
  --control          the controller and its dashboard beside the room (docs/control/)
  --addr HOST:PORT   where the room listens (default 127.0.0.1:7676); the shop and the dashboard move with it
  --skip-build       reuse the last build
  --viceroy          run the room under Viceroy (fastly compute serve) instead of the local host
  --host PATH        another Viceroy-compatible binary in place of the local host
  --shop-capacity N  the demo shop serves N requests at once, the rest in line (default ${DEMO_CAPACITY.workers}; 0: no limit)`;

if (isMain(import.meta.url)) runTool('npm start', USAGE, main);
