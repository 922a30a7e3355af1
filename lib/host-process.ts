// The local Compute host as a child process: a temporary project directory with fastly.toml and its
// files, the host started on a free port, its output collected line by line, and a clean stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { hostBin as builtHostBin } from './paths.js';

/** The project's Viceroy stand-in; `WR_HOST_BIN` points the same tests at another host (e.g. Viceroy). */
export const hostBin = process.env.WR_HOST_BIN ?? builtHostBin;

export interface HostOptions {
  /** Path of the compiled app. */
  wasm: string;
  /**
   * fastly.toml: TOML text, or an object that is serialised to TOML. An object without
   * `manifest_version` gets the usual top-level keys, so a test need only give `local_server`.
   */
  manifest?: string | Record<string, unknown>;
  /** Files written next to fastly.toml before start (store files, ACLs), relative paths. */
  files?: Record<string, string | Uint8Array>;
  /** Pass `-v` to the host (a line per request); `usage`: `-vv`, each request's use of the limits too. */
  verbose?: boolean | 'usage';
  /** Extra arguments placed before the wasm path. */
  args?: string[];
  env?: Record<string, string>;
  /**
   * Node flags for the host (e.g. `--cpu-prof`, which NODE_OPTIONS refuses): when given, the host
   * script is run as `node <nodeArgs> <host>` rather than executed directly.
   */
  nodeArgs?: string[];
  /** How long to wait for the port to accept connections. */
  startTimeoutMs?: number;
  /** Loopback address to listen on: `127.0.0.1` (default) or `::1`, so the app sees an IPv6 client. */
  address?: '127.0.0.1' | '::1';
}

export interface RunningHost {
  url: string;
  port: number;
  /** The temporary project directory holding fastly.toml and the files. */
  dir: string;
  pid: number;
  /** stdout lines so far (log endpoints write `name :: message` here). */
  logs(): string[];
  /** stderr lines so far. */
  errors(): string[];
  /** Resolves with the first line (past or future) of stdout, or of stderr if asked, matching `re`. */
  waitForLog(re: RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr'): Promise<string>;
  /** Rewrites one of the files (for live-reload tests). */
  writeFile(name: string, content: string | Uint8Array): Promise<void>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** SIGTERM (SIGKILL after 5 s), then removes the project directory; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export class HostExitedError extends Error {
  constructor(
    readonly code: number | null,
    readonly stdout: string[],
    readonly stderr: string[],
  ) {
    super(`host exited with code ${code} before listening:\n${[...stdout, ...stderr].join('\n')}`);
    this.name = 'HostExitedError';
  }
}

export async function freePort(address = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, address, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts a TCP connection on `address:port` right now. */
export function canConnect(port: number, address = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: address });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** fastly.toml as `startHost` writes it: text as given, an object with the usual top-level keys added. */
export function manifestText(manifest: HostOptions['manifest']): string {
  if (typeof manifest === 'string') return manifest;
  const base = { manifest_version: 3, name: 'host-test', language: 'javascript' };
  return stringify({ ...base, ...(manifest ?? {}) });
}

type Watcher = { re: RegExp; stream: 'stdout' | 'stderr'; resolve: (line: string) => void };

/** Splits a stream into lines as they arrive, keeping a partial last line until it completes. */
function lineCollector(onLine: (line: string) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    rest += chunk.toString('utf8');
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line.replace(/\r$/, ''));
  };
}

/** A host process just spawned: its output so far, who waits for a line of it, and how it ended. */
interface Launched {
  child: ChildProcess;
  signal: (name: NodeJS.Signals) => void;
  stdout: string[];
  stderr: string[];
  watchers: Set<Watcher>;
  state: { exitCode: number | null | undefined };
  exited: Promise<void>;
  port: number;
}

/** Where the host is started: its project directory, environment and listening address. */
interface Project {
  dir: string;
  env: NodeJS.ProcessEnv;
  address: string;
  /** The address as it goes before `:port` in a URL (an IPv6 address in brackets). */
  authority: string;
}

/** Writes a project directory and starts the host in it; returns once the host is listening. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wr-host-'));
  const writeProjectFile = projectFileWriter(dir);
  for (const [name, content] of Object.entries(options.files ?? {})) await writeProjectFile(name, content);
  await writeFile(path.join(dir, 'fastly.toml'), manifestText(options.manifest));

  const env = { ...process.env, ...options.env };
  const address = options.address ?? '127.0.0.1';
  const authority = address.includes(':') ? `[${address}]` : address;
  const project: Project = { dir, env, address, authority };

  // The port is chosen before the host binds it, so a parallel test can take it in between: the
  // host then exits with EADDRINUSE and is started again on another port.
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  let run: Launched | undefined;
  for (let attempt = 0; !run; attempt++) {
    const candidate = await launch(options, project, await freePort(address));
    if (await listensInTime(candidate, project, attempt, deadline)) run = candidate;
  }
  const host = runningHost(run, project, writeProjectFile);
  running.add(host);
  return host;
}

/** Writes a file of the project, creating its folder. */
function projectFileWriter(dir: string): (name: string, content: string | Uint8Array) => Promise<void> {
  return async (name, content) => {
    const target = path.join(dir, name);
    await mkdir(path.dirname(target), { recursive: true });
    // Write-then-rename so the host's file watcher never reads a half-written store file.
    const tmp = `${target}.${process.pid}.tmp`;
    await writeFile(tmp, content);
    await rename(tmp, target);
  };
}

/** Spawns the host on `port`, collecting its output and watching for its end. */
async function launch(options: HostOptions, project: Project, port: number): Promise<Launched> {
  const { dir, env, authority } = project;
  const args = [
    ...(options.verbose === 'usage' ? ['-vv'] : options.verbose ? ['-v'] : []),
    '-C',
    path.join(dir, 'fastly.toml'),
    '--addr',
    `${authority}:${port}`,
    ...(options.args ?? []),
    options.wasm,
  ];
  const [command, commandArgs] = options.nodeArgs
    ? [process.execPath, [...options.nodeArgs, hostBin, ...args]]
    : [hostBin, args];
  // Its own process group, so stop() also ends whatever the host command started (the npm shim
  // or a wrapper script and the process it runs).
  const child: ChildProcess = spawn(command, commandArgs, {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      child.kill(name);
    }
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  const watchers = new Set<Watcher>();
  const collect = (stream: 'stdout' | 'stderr', lines: string[]) =>
    lineCollector((line) => {
      lines.push(line);
      for (const watcher of watchers) {
        if (watcher.stream === stream && watcher.re.test(line)) {
          watchers.delete(watcher);
          watcher.resolve(line);
        }
      }
    });
  child.stdout!.on('data', collect('stdout', stdout));
  child.stderr!.on('data', collect('stderr', stderr));
  const state: Launched['state'] = { exitCode: undefined };
  const exited = exitOf(child, stderr, state);
  return { child, signal, stdout, stderr, watchers, state, exited, port };
}

/** Resolves when the child ends, with its exit code (or -1) in `state`. */
function exitOf(child: ChildProcess, stderr: string[], state: Launched['state']): Promise<void> {
  return new Promise<void>((resolve) => {
    child.once('exit', (code, killedBy) => {
      state.exitCode = code ?? (killedBy ? -1 : null);
      resolve();
    });
    child.once('error', (error) => {
      stderr.push(String(error));
      state.exitCode = -1;
      resolve();
    });
  });
}

/**
 * Waits until the host listens: true when it does, false when it lost its port to another process
 * (worth another try), an error when it exited otherwise or took too long. A connection alone does
 * not prove it is *our* host listening, so readiness also needs the host's "Listening on" line
 * (Viceroy prints the same), or, for a host that prints none, a short quiet spell still alive.
 */
async function listensInTime(
  candidate: Launched,
  project: Project,
  attempt: number,
  deadline: number,
): Promise<boolean> {
  const { dir, address, authority } = project;
  const listening = (): boolean =>
    [...candidate.stdout, ...candidate.stderr].some((line) =>
      line.includes(`Listening on http://${authority}:${candidate.port}`),
    );
  let connectedAt: number | undefined;
  for (;;) {
    if (candidate.state.exitCode !== undefined) {
      const output = [...candidate.stdout, ...candidate.stderr].join('\n');
      if (attempt < 3 && /EADDRINUSE|address already in use/i.test(output)) return false;
      await rm(dir, { recursive: true, force: true });
      throw new HostExitedError(candidate.state.exitCode, candidate.stdout, candidate.stderr);
    }
    if (listening()) return true;
    if (connectedAt === undefined && (await canConnect(candidate.port, address))) connectedAt = Date.now();
    if (connectedAt !== undefined && Date.now() - connectedAt > 1_000) return true;
    if (Date.now() > deadline) {
      candidate.signal('SIGKILL');
      await candidate.exited;
      await rm(dir, { recursive: true, force: true });
      throw new Error(
        `host did not listen on ${candidate.port} in time:\n${[...candidate.stdout, ...candidate.stderr].join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The hosts this process started and has not stopped yet, for a failing test to show what they said. */
const running = new Set<RunningHost>();

/** The hosts started by this process and still running (test/support/host-stderr.ts prints their stderr). */
export function runningHosts(): RunningHost[] {
  return [...running];
}

/** The handle on a listening host that callers get. */
function runningHost(run: Launched, project: Project, writeProjectFile: RunningHost['writeFile']): RunningHost {
  const { child, signal, stdout, stderr, watchers, state, exited, port } = run;
  const { dir, authority } = project;
  const host: RunningHost = {
    url: `http://${authority}:${port}`,
    port,
    dir,
    pid: child.pid!,
    logs: () => [...stdout],
    errors: () => [...stderr],
    waitForLog(re, timeoutMs = 10_000, stream = 'stdout') {
      const lines = stream === 'stdout' ? stdout : stderr;
      const past = lines.find((line) => re.test(line));
      if (past !== undefined) return Promise.resolve(past);
      return new Promise((resolve, reject) => {
        const watcher: Watcher = { re, stream, resolve: (line) => (clearTimeout(timer), resolve(line)) };
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`no host ${stream} line matched ${re} within ${timeoutMs} ms:\n${lines.join('\n')}`));
        }, timeoutMs);
        watchers.add(watcher);
      });
    },
    writeFile: writeProjectFile,
    alive: () => state.exitCode === undefined,
    async stop() {
      running.delete(host);
      if (state.exitCode === undefined) {
        signal('SIGTERM');
        const forced = setTimeout(() => signal('SIGKILL'), 5_000);
        await exited;
        clearTimeout(forced);
      }
      await rm(dir, { recursive: true, force: true });
      return state.exitCode ?? null;
    },
  };
  return host;
}

/** Runs the host command to completion (for `--version` and start-up errors). */
export function runHostCommand(
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(hostBin, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: stderr + String(error) });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
