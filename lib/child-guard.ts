// Children that die with their parent. `npm start` runs the room (the Fastly CLI, the host it starts)
// and the controller as children; a SIGKILL to `npm start` (or to npm, or to tsx, in front of it) gives
// it no chance to stop them, and they would go on serving.
//
// The guard is one small Node process, started first, in its own process group (so a kill of the
// parent's group does not take it along). Its stdin is a pipe from the parent: the kernel closes it
// when the parent dies, however it dies, so the guard learns of the death without polling. It also
// polls the launchers above the parent (tsx, the shell, npm), which hold no pipe to it. When the parent
// or a launcher is gone, the guard sends SIGTERM to every process group it was told of (the room's: the
// CLI, the host and its workers; the controller's) and to the parent itself, then SIGKILL to whatever
// is left after a grace period, and exits.
//
// Why this and not each child watching its parent: the Fastly CLI and Viceroy are not ours to change,
// and the host's parent is the CLI, which would outlive `npm start`; a guard handles any child the same
// way, with nothing in the children.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isMain } from './cli.js';
import { repoRoot } from './paths.js';

export interface Guard {
  /** Stop the process group led by `pid` (a child spawned with `detached: true`) when the parent dies. */
  group(pid: number): void;
  /** Watch `pid` as well: when it is gone, stop everything (a launcher above the parent). */
  watch(pid: number): void;
}

const GRACE_MS = 3000;

/** Starts the guard for this process. Never throws: without a guard, `npm start` still runs. */
export function startGuard(): Guard {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(process.pid)], {
    cwd: repoRoot,
    detached: true,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  child.on('error', () => undefined);
  child.stdin!.on('error', () => undefined);
  // Neither the guard nor its pipe keeps this process alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  const send = (line: string): void => {
    if (child.stdin!.writable) child.stdin!.write(`${line}\n`);
  };
  return { group: (pid) => send(`group ${pid}`), watch: (pid) => send(`watch ${pid}`) };
}

/** The parent of `pid` and its command line (Linux /proc); null elsewhere or when it is gone. */
function procInfo(pid: number): { ppid: number; cmdline: string; zombie: boolean } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return { ppid: Number(fields[1]), cmdline, zombie: fields[0] === 'Z' };
  } catch {
    return null;
  }
}

/**
 * The processes that launched this one and exist only for it: tsx's own process, the `sh -c` npm
 * runs a script in, and npm. Stops at the first that is none of them (the operator's shell, a CI
 * runner), which may well outlive `npm start` on purpose.
 */
export function launchers(pid: number = process.pid): number[] {
  const found: number[] = [];
  let info = procInfo(pid);
  while (info !== null && info.ppid > 1 && found.length < 4) {
    const parent = procInfo(info.ppid);
    if (parent === null) break;
    const launcher =
      /(^|[\s/])(tsx|npm|npm-cli\.js|npx)(\s|$)|\/tsx\/dist\/cli|^(\/bin\/|\/usr\/bin\/)?(sh|dash|bash) -c .*\b(tsx|npm)\b/.test(
        parent.cmdline,
      );
    if (!launcher) break;
    found.push(info.ppid);
    info = parent;
  }
  return found;
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  // Killed but not yet reaped by its own parent: dead all the same.
  return procInfo(pid)?.zombie ?? false;
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** The guard process itself: `node --import tsx lib/child-guard.ts PARENT_PID`. */
function runGuard(parent: number): void {
  const groups = new Set<number>();
  const watched = new Set<number>([parent]);
  let firing = false;
  const fire = (): void => {
    if (firing) return;
    firing = true;
    clearInterval(poll);
    const targets = [...[...groups].map((g) => -g), ...(gone(parent) ? [] : [parent])];
    const alive = targets.filter((t) => signal(t, 'SIGTERM'));
    if (alive.length === 0) process.exit(0);
    setTimeout(() => {
      for (const t of alive) signal(t, 'SIGKILL');
      process.exit(0);
    }, GRACE_MS);
  };
  // Its own group keeps it from a terminal's Ctrl-C; its parent decides when the children stop.
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const [what, n] = line.split(' ');
    const pid = Number(n);
    if (!Number.isInteger(pid) || pid <= 1) return;
    if (what === 'group') groups.add(pid);
    else if (what === 'watch') watched.add(pid);
  });
  rl.on('close', fire);
  const poll = setInterval(() => {
    if ([...watched].some(gone)) fire();
  }, 250);
}

if (isMain(import.meta.url)) runGuard(Number(process.argv[2]));
