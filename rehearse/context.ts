// What the rehearsal's steps share: the stand-in of Fastly's API, the environment that points the real
// Fastly CLI at it, the staged project, the service once published, the room on the local host, and
// the record of every step. Made once per rehearsal, never a module global.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFastlyApi, type FastlyApi } from '../fastly-api/server.js';
import { startEchoOrigin, type EchoOrigin } from '../lib/echo-origin.js';
import { fastlyBin } from '../lib/fastly-cli.js';
import { fastlyEnv } from '../lib/fastly-env.js';
import { repoRoot } from '../lib/paths.js';
import type { Edge } from './edge.js';
import { recordStep, succeeded, type StepRecord } from './run.js';
import { runToEnd } from '../lib/run-to-end.js';
import { stageProject, type Stage } from './stage.js';

export interface Rehearsal {
  api: FastlyApi;
  /** The child processes' environment: the Fastly CLI on the stand-in, local files in the scratch dir. */
  env: NodeJS.ProcessEnv;
  stage: Stage;
  /** Scratch directory: the CLI's HOME, the local key and config files the tools keep. */
  dir: string;
  origin: EchoOrigin;
  serviceId: string;
  edge: Edge | null;
  /** Ids shown by what they are in the step records (store id -> `CONFIG_ID`, ...). */
  names: Map<string, string>;
  records: StepRecord[];
  /** Long-running children (the controllers): whatever still runs when the rehearsal ends is killed. */
  children: Set<ChildProcess>;
  print: (line: string) => void;
}

/** How `npm` is run: the npm that runs this rehearsal, else the one on the PATH. */
const npm = (): [string, string[]] =>
  process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];

export async function openRehearsal(print: (line: string) => void): Promise<Rehearsal> {
  const dir = await mkdtemp(join(tmpdir(), 'wr-rehearsal-'));
  const api = await startFastlyApi();
  const env = {
    ...fastlyEnv({ url: api.url, home: join(dir, 'home') }),
    WR_KEYS_FILE: join(dir, 'keys.json'),
    WR_CONFIG_FILE: join(dir, 'config.json'),
  };
  let stage: Stage | null = null;
  let origin: EchoOrigin;
  try {
    stage = await stageProject();
    origin = await startEchoOrigin();
  } catch (error) {
    await Promise.allSettled([api.stop(), stage?.remove(), rm(dir, { recursive: true, force: true })]);
    throw error;
  }
  return {
    api,
    env,
    stage,
    dir,
    origin,
    serviceId: '',
    edge: null,
    names: new Map(),
    records: [],
    children: new Set(),
    print,
  };
}

/** Stops a child as an operator would (SIGTERM, so it saves its state and stops its own children), then for good. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(late);
}

/** Ends the rehearsal: every part stopped and every scratch file removed, whichever of them fails. */
export async function closeRehearsal(r: Rehearsal): Promise<void> {
  await Promise.allSettled([...r.children].map(stopChild));
  await Promise.allSettled([r.edge?.stop(), r.origin.close()]);
  await Promise.allSettled([r.api.stop(), r.stage.remove(), rm(r.dir, { recursive: true, force: true })]);
}

/** Runs a step and records it; `run` throws (with what went wrong) when the step's outcome is not the expected one. */
export async function step<T>(r: Rehearsal, name: string, command: string, run: () => Promise<T>): Promise<T> {
  const { value, record } = await recordStep(r.api, r.names, name, command, run);
  r.records.push(record);
  r.print(
    `${name.padEnd(34)} ${(record.ms / 1000).toFixed(1).padStart(5)} s  ${String(record.calls.length).padStart(3)} calls  ${command}`,
  );
  return value;
}

/** `npm run -s SCRIPT -- ARGS` in the repository, as an operator runs the tools; its stdout. */
export async function npmRun(r: Rehearsal, script: string, args: readonly string[], stdin?: string): Promise<string> {
  const [cmd, pre] = npm();
  const o = await runToEnd(cmd, [...pre, 'run', '-s', script, '--', ...args], { cwd: repoRoot, env: r.env, stdin });
  return succeeded(o, `npm run ${script}`);
}

/** The real Fastly CLI (`npx fastly` in the repository; the binary itself in the staged project). */
export async function fastly(r: Rehearsal, args: readonly string[], cwd = repoRoot): Promise<string> {
  const o = await runToEnd(fastlyBin, args, { cwd, env: r.env });
  return succeeded(o, `fastly ${args.slice(0, 2).join(' ')}`);
}

/** The id the step records show as `label` (`CONFIG_ID`, `KEYS_ID`, `PAGES_ID`, `ACL_ID`). */
export function idOf(r: Rehearsal, label: string): string {
  const found = [...r.names].find(([, name]) => name === label);
  if (found === undefined) throw new Error(`no ${label} yet: the step that makes it has not run`);
  return found[0];
}

/** Bulk writes the stand-in has taken so far (the controller writes that way). */
export const patchesMade = (r: Rehearsal): number =>
  r.api.calls.filter((c) => c.method === 'PATCH' && c.status === 200).length;

/** Throws `message` unless `ok`. */
export function expectThat(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}
