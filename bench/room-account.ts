// Where a request's CPU goes, on the local host: every host of bench/account-apps.ts fed its requests
// one after the other, a share of them in each of several rounds (so drift on a busy machine lands on
// all alike, while each host runs alone and warm, as a sandbox serving its requests), then each one's CPU time split by
// thread (Linux /proc: the host's main thread, the guest's worker thread, V8's helper threads) and the
// worker's time split again by what the host's profile says of each hostcall (COMPUTE_HOST_PROFILE=1:
// calls, wall time, time blocked on the main thread). What is left of the worker is the guest's Wasm:
// the runtime's own request work (the pass-through's), the collection of the room's heap after each
// request (the room's code passing requests through, against the pass-through), and the room's
// JavaScript (the rest). Prints a table; asserts nothing.
//
//   npm run bench:account              (about 2 min; ACCOUNT_REQUESTS=600 requests per app)
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { startEchoOrigin } from '../lib/echo-origin.js';
import { isMain, takesNoArguments } from '../lib/cli.js';
import { startAccountedApps, type AccountedApp } from './account-apps.js';
import { accountOf, hostcallKind, printAccount, writeAccount, type AppSample } from './account-table.js';
import { get } from './http-load.js';

/** CPU ms of each thread of a process, by thread id (Linux /proc; USER_HZ ticks, read as ms). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return out;
}

/** The profile lines a host printed since `from`: each hostcall's [calls, ms, blocked ms], and the instantiation. */
function profiles(
  app: AccountedApp,
  from: number,
): Array<{ hostcalls: Record<string, number[]>; instantiateMs: number }> {
  return app.host
    .errors()
    .slice(from)
    .filter((line) => line.startsWith('profile-json: '))
    .map((line) => JSON.parse(line.slice('profile-json: '.length)));
}

/** One app's figures over its requests: its threads' CPU and what its profile lines say. */
interface Tally {
  mainMs: number;
  workerMs: number;
  helperMs: number;
  instantiateMs: number;
  profiled: number;
  hostcalls: Record<string, { calls: number; cpuMs: number }>;
  roomUs: number[];
}

/** Serves `n` requests to one app alone and adds what they cost to its tally. */
async function serve(app: AccountedApp, n: number, agent: http.Agent, tally: Tally): Promise<void> {
  const pid = String(app.host.pid);
  const logFrom = app.host.errors().length;
  const before = threadCpu(app.host.pid);
  for (let i = 0; i < n; i++) {
    const { headers } = await get(agent, `${app.host.url}${app.path}`, app.headers());
    const us = Number(headers['x-room-time-us']);
    if (Number.isFinite(us)) tally.roomUs.push(us);
  }
  const after = threadCpu(app.host.pid);
  // The last request's profile line is written as its response ends; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const deltas = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  tally.mainMs += deltas.find((d) => d.tid === pid)?.ms ?? 0;
  // The guest's worker is the busiest thread after the main one; the rest are V8's helpers.
  const others = deltas.filter((d) => d.tid !== pid).sort((a, b) => b.ms - a.ms);
  tally.workerMs += others[0]?.ms ?? 0;
  tally.helperMs += others.slice(1).reduce((sum, d) => sum + d.ms, 0);
  for (const line of profiles(app, logFrom)) {
    tally.profiled++;
    tally.instantiateMs += line.instantiateMs;
    for (const [name, [calls, ms, blocked]] of Object.entries(line.hostcalls)) {
      const entry = (tally.hostcalls[hostcallKind(name)] ??= { calls: 0, cpuMs: 0 });
      entry.calls += calls!;
      entry.cpuMs += Math.max(0, ms! - blocked!);
    }
  }
}

/**
 * Feeds every app `requests` requests in `rounds` rounds (each round every app in turn, alone, its
 * share back to back), after a warm-up, and samples its threads and profile.
 */
export async function measureAccount(
  apps: AccountedApp[],
  requests: number,
  rounds = 3,
  warmup = 100,
): Promise<AppSample[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const tallies = apps.map(
    (): Tally => ({ mainMs: 0, workerMs: 0, helperMs: 0, instantiateMs: 0, profiled: 0, hostcalls: {}, roomUs: [] }),
  );
  try {
    for (const app of apps)
      for (let i = 0; i < warmup; i++) await get(agent, `${app.host.url}${app.path}`, app.headers());
    const share = Math.ceil(requests / rounds);
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < apps.length; k++) await serve(apps[k]!, share, agent, tallies[k]!);
    return apps.map((app, k) => {
      const t = tallies[k]!;
      return {
        app: app.name,
        what: app.what,
        fresh: app.fresh,
        requests: share * rounds,
        profiled: t.profiled,
        mainMs: t.mainMs,
        workerMs: t.workerMs,
        helperMs: t.helperMs,
        instantiateMs: t.instantiateMs,
        hostcalls: t.hostcalls,
        roomTimeUs: t.roomUs.length ? t.roomUs.reduce((n, us) => n + us, 0) / t.roomUs.length : null,
      };
    });
  } finally {
    agent.destroy();
  }
}

async function main(): Promise<void> {
  takesNoArguments(
    'npm run bench:account',
    `usage: npm run bench:account   (about 2 min; writes reports/bench-account.json)
  ACCOUNT_REQUESTS=600   requests per app (each app one request in turn)`,
  );
  const requests = Number(process.env.ACCOUNT_REQUESTS ?? 600);
  const origin = await startEchoOrigin();
  const started: Array<{ stop(): Promise<unknown> }> = [];
  try {
    const apps = await startAccountedApps(origin, new Uint8Array(randomBytes(64)), started);
    const samples = await measureAccount(apps, requests);
    const account = accountOf(samples);
    printAccount(account);
    await writeAccount(account);
  } finally {
    for (const app of started.reverse()) await app.stop();
    await origin.close();
  }
}

if (isMain(import.meta.url)) await main();
