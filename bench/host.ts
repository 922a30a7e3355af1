// Throughput, latency and cost breakdown of the local Compute host (host/), on loopback only.
// Prints figures and writes reports/bench-host.json; asserts nothing.
//
//   npm run bench:host            (about a minute on the 2-core development machine)
//   BENCH_SECONDS=3 npm run bench:host   (shorter load phases)

import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startOrigin } from '../lib/origin';
import { startHost, type RunningHost } from '../lib/host-process';
import { hostFixture, repoRoot } from '../lib/paths';
import { buildWasm } from '../lib/wasm-build';
import { quantile } from '../lib/quantiles.js';
import { closedLoop, get } from './http-load.js';

const phaseSeconds = Number(process.env.BENCH_SECONDS ?? '6');
const phaseMaxRequests = 20_000;
const concurrencies = [16, 64];

interface LoadResult {
  app: string;
  concurrency: number;
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/**
 * Closed-loop load: `concurrency` clients each send their next request when the previous one is
 * answered, until the request budget or the time budget is spent.
 */
async function load(app: string, target: string, concurrency: number, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL(target);
  // Warm-up: opens the sockets and lets every worker instantiate once before measuring.
  await Promise.all(Array.from({ length: concurrency }, () => get(agent, url).catch(() => 0)));

  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const start = performance.now();
  const stopAt = start + seconds * 1000;
  await closedLoop(
    concurrency,
    () => issued < phaseMaxRequests && performance.now() < stopAt,
    async () => {
      issued++;
      const t0 = performance.now();
      try {
        const { status } = await get(agent, url);
        if (status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    },
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    app,
    concurrency,
    requests: latencies.length,
    errors,
    seconds: round(elapsed),
    requestsPerSecond: round(latencies.length / elapsed, 1),
    p50Ms: round(quantile(latencies, 0.5)),
    p90Ms: round(quantile(latencies, 0.9)),
    p99Ms: round(quantile(latencies, 0.99)),
    maxMs: round(latencies[latencies.length - 1] ?? Number.NaN),
  };
}

/**
 * The per-request instantiation cost in isolation: the compiled module is shared (as in the host),
 * so each request pays only `new WebAssembly.Instance` (memory allocation + data segments of the
 * pre-initialised JS engine heap). Imports are inert stubs: instantiation never calls them.
 */
async function instantiateCost(wasmPath: string, n: number): Promise<Record<string, number>> {
  const bytes = await readFile(wasmPath);
  const t0 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const compileMs = performance.now() - t0;
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    const ns = (imports[entry.module] ??= {});
    if (entry.kind === 'function') ns[entry.name] = () => 0;
    else if (entry.kind === 'memory') ns[entry.name] = new WebAssembly.Memory({ initial: 1 });
    else if (entry.kind === 'table') ns[entry.name] = new WebAssembly.Table({ initial: 0, element: 'anyfunc' });
    else ns[entry.name] = new WebAssembly.Global({ value: 'i32', mutable: true }, 0);
  }
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    const instance = new WebAssembly.Instance(module, imports);
    samples.push(performance.now() - s);
    // Keep the instance reachable until measured so the allocation is not optimised away.
    if (!instance.exports) throw new Error('no exports');
  }
  samples.sort((a, b) => a - b);
  const memory = Object.values(new WebAssembly.Instance(module, imports).exports).find(
    (e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory,
  );
  return {
    moduleMiB: round(bytes.length / 2 ** 20),
    compileMs: round(compileMs),
    samples: n,
    medianMs: round(quantile(samples, 0.5), 3),
    p90Ms: round(quantile(samples, 0.9), 3),
    initialMemoryMiB: memory ? round(memory.buffer.byteLength / 2 ** 20) : Number.NaN,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  positionTicks?: { line: number; ticks: number }[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

type Category = 'wasm' | 'host JS' | 'node/V8 internals' | 'instantiate' | 'GC' | 'idle' | 'blocked in Atomics.wait';

function categorise(frame: ProfileNode['callFrame']): Category {
  const { functionName, url } = frame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'GC';
  // The WebAssembly.Instance constructor (memory + data segments per request) is native, so it
  // shows as its own frame.
  if (functionName === 'Instance' && url === '') return 'instantiate';
  if (url.startsWith('wasm://') || /^(\$|wasm-function|js-to-wasm|wasm-to-js)/.test(functionName)) return 'wasm';
  if (url.includes('/host/dist/') || url.includes('/host/src/')) return 'host JS';
  return 'node/V8 internals';
}

const sourceLines = new Map<string, string[]>();
async function linesOf(url: string): Promise<string[]> {
  if (!sourceLines.has(url)) {
    const text = await readFile(url.replace(/^file:\/\//, ''), 'utf8').catch(() => '');
    sourceLines.set(url, text.split('\n'));
  }
  return sourceLines.get(url)!;
}

/**
 * The share of a host-JS frame's self time that was spent on a line calling Atomics.wait. A blocked
 * worker is charged to the JS function that called Atomics.wait (the builtin has no frame of its
 * own); positionTicks say which line was running, so waiting is told apart from working without
 * knowing the host's function names.
 */
async function waitingFraction(node: ProfileNode): Promise<number> {
  const ticks = node.positionTicks ?? [];
  const all = ticks.reduce((sum, t) => sum + t.ticks, 0);
  if (all === 0 || !node.callFrame.url.startsWith('file://')) return 0;
  const lines = await linesOf(node.callFrame.url);
  const waiting = ticks.filter((t) => lines[t.line - 1]?.includes('Atomics.wait')).reduce((sum, t) => sum + t.ticks, 0);
  return waiting / all;
}

interface ThreadGroupSummary {
  threads: number;
  sampledMs: number;
  shares: Record<string, number>;
  /** Functions by self time; `share` is of this group's sampled time. */
  top: { function: string; where: string; selfMs: number; share: number; category: Category }[];
}

interface ProfileSummary {
  main: ThreadGroupSummary;
  workers: ThreadGroupSummary;
}

/**
 * Self time per function and per category. The main thread (HTTP, backends, stores) and the guest
 * workers are summarised apart: the workers' idle and blocked time says whether they or the main
 * thread are the bottleneck.
 */
async function summariseProfiles(profiles: CpuProfile[]): Promise<ProfileSummary> {
  const byFunction = new Map<string, { selfUs: number; where: string; name: string; category: Category; thread: string }>();
  const groups = { main: { threads: 0, total: 0, byCategory: new Map<Category, number>() }, workers: { threads: 0, total: 0, byCategory: new Map<Category, number>() } };
  for (const profile of profiles) {
    const thread = profile.nodes.some((node) => node.callFrame.url.includes('/host/dist/cli.js')) ? 'main' : 'workers';
    const group = groups[thread];
    group.threads++;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfUs = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      // timeDeltas[i] is the gap before sample i; charge it to the sampled frame.
      selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i] ?? 0));
    });
    for (const [id, us] of selfUs) {
      const node = nodes.get(id);
      if (!node) continue;
      group.total += us;
      const add = (category: Category, amount: number): void => {
        group.byCategory.set(category, (group.byCategory.get(category) ?? 0) + amount);
      };
      let category = categorise(node.callFrame);
      if (category === 'host JS') {
        const waiting = us * (await waitingFraction(node));
        add('blocked in Atomics.wait', waiting);
        add('host JS', us - waiting);
        if (waiting > us / 2) category = 'blocked in Atomics.wait';
      } else {
        add(category, us);
      }
      const where = node.callFrame.url
        ? `${node.callFrame.url.replace(/^file:\/\//, '').replace(repoRoot + '/', '')}:${node.callFrame.lineNumber + 1}`
        : '';
      const name = node.callFrame.functionName || '(anonymous)';
      const key = `${thread}:${name}@${where}`;
      const entry = byFunction.get(key) ?? { selfUs: 0, where, name, category, thread };
      entry.selfUs += us;
      byFunction.set(key, entry);
    }
  }
  const summarise = (thread: 'main' | 'workers'): ThreadGroupSummary => {
    const g = groups[thread];
    const shares: Record<string, number> = {};
    for (const [category, us] of [...g.byCategory].sort((a, b) => b[1] - a[1])) shares[category] = round((100 * us) / g.total, 1);
    const top = [...byFunction.values()]
      .filter((f) => f.thread === thread)
      .sort((a, b) => b.selfUs - a.selfUs)
      .slice(0, 10)
      .map((f) => ({
        function: f.name,
        where: f.where,
        selfMs: round(f.selfUs / 1000, 1),
        share: round((100 * f.selfUs) / g.total, 1),
        category: f.category,
      }));
    return { threads: g.threads, sampledMs: round(g.total / 1000), shares, top };
  };
  return { main: summarise('main'), workers: summarise('workers') };
}

/** Runs load against a host started under `node --cpu-prof` and reads back every thread's profile. */
async function profiledLoad(
  app: string,
  wasm: string,
  manifest: Record<string, unknown>,
  pathName: string,
  concurrency: number,
): Promise<{ load: LoadResult; profile: ProfileSummary }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wr-bench-prof-'));
  const host = await startHost({
    wasm,
    manifest,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=500'],
  });
  const result = await load(app, `${host.url}${pathName}`, concurrency, phaseSeconds);
  // Profiles are written when each thread exits cleanly, so the host must stop on SIGTERM, not be killed.
  await host.stop();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  const profiles = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as CpuProfile),
  );
  await rm(dir, { recursive: true, force: true });
  return { load: result, profile: await summariseProfiles(profiles) };
}

function printLoad(r: LoadResult): void {
  console.log(
    `  ${r.app.padEnd(10)} c=${String(r.concurrency).padEnd(3)} ${String(r.requestsPerSecond).padStart(7)} req/s  ` +
      `p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p90 ${r.p90Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms  ` +
      `(${r.requests} requests, ${r.errors} errors, ${r.seconds} s)`,
  );
}

function printProfile(label: string, p: ProfileSummary): void {
  const shares = (g: ThreadGroupSummary): string => Object.entries(g.shares).map(([k, v]) => `${k} ${v}%`).join(', ');
  const top = (g: ThreadGroupSummary): void => {
    for (const f of g.top.slice(0, 8)) {
      console.log(`      ${f.share.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(6)} ms  [${f.category}] ${f.function} ${f.where}`);
    }
  };
  console.log(`\n${label}:`);
  console.log(`  main thread (${p.main.sampledMs} ms sampled): ${shares(p.main)}`);
  top(p.main);
  console.log(`  ${p.workers.threads} workers (${p.workers.sampledMs} ms sampled in all): ${shares(p.workers)}`);
  top(p.workers);
}

async function main(): Promise<void> {
  const began = performance.now();
  const [helloWasm, proxyWasm] = await Promise.all([buildWasm(hostFixture('hello.js')), buildWasm(hostFixture('proxy.js'))]);
  const origin = await startOrigin();
  const proxyManifest = { local_server: { backends: { origin: { url: origin.url } } } };
  console.log(`compute-host benchmark on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), loopback only`);
  console.log(`load phases: ${phaseSeconds} s or ${phaseMaxRequests} requests, keep-alive, closed loop`);
  // Other work on the machine shows up directly in these figures; the load average says how much.
  const loadBefore = loadavg().map((n) => round(n));
  console.log(`load average before: ${loadBefore.join(' ')}\n`);

  console.log('instantiate cost (hello.js module, shared compiled module, median of 200):');
  const instantiate = await instantiateCost(helloWasm, 200);
  console.log(
    `  module ${instantiate.moduleMiB} MiB, compile once ${instantiate.compileMs} ms, ` +
      `new WebAssembly.Instance median ${instantiate.medianMs} ms (p90 ${instantiate.p90Ms} ms), ` +
      `initial memory ${instantiate.initialMemoryMiB} MiB`,
  );

  const results: LoadResult[] = [];
  let profiled;
  try {
    const hosts: RunningHost[] = [];
    try {
      const hello = await startHost({ wasm: helloWasm });
      hosts.push(hello);
      const proxy = await startHost({ wasm: proxyWasm, manifest: proxyManifest });
      hosts.push(proxy);
      console.log('\nload (origin for the proxy app is a Node echo server in the benchmark process):');
      // One client in sequence: the latency floor of a request, with no queueing.
      const single = await load('hello', `${hello.url}/`, 1, Math.min(phaseSeconds, 3));
      printLoad(single);
      results.push(single);
      for (const [app, url] of [
        ['hello', `${hello.url}/`],
        ['proxy', `${proxy.url}/echo`],
      ] as const) {
        for (const concurrency of concurrencies) {
          const r = await load(app, url, concurrency, phaseSeconds);
          printLoad(r);
          results.push(r);
        }
      }
      // A guest waiting on its backend holds a worker thread for the whole wait; the host grows its
      // pool to make up for it, and this phase shows how close it gets to concurrency / 100 ms.
      const slow = await load('proxy-slow', `${proxy.url}/slow?ms=100`, 64, phaseSeconds);
      printLoad(slow);
      results.push(slow);
    } finally {
      await Promise.all(hosts.map((h) => h.stop()));
    }
    profiled = {
      hello: await profiledLoad('hello', helloWasm, {}, '/', 16),
      proxy: await profiledLoad('proxy', proxyWasm, proxyManifest, '/echo', 16),
    };
  } finally {
    await origin.stop();
  }
  console.log('\nunder node --cpu-prof (sampling every 0.5 ms; compare with the phases above only on a quiet machine):');
  printLoad(profiled.hello.load);
  printLoad(profiled.proxy.load);
  printProfile('hello c=16', profiled.hello.profile);
  printProfile('proxy c=16', profiled.proxy.profile);

  const report = {
    date: new Date().toISOString(),
    machine: {
      cores: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadavg().map((n) => round(n)),
    },
    phaseSeconds,
    instantiate,
    load: results,
    profile: profiled,
    benchSeconds: round((performance.now() - began) / 1000, 1),
  };
  await mkdir(path.join(repoRoot, 'reports'), { recursive: true });
  await writeFile(path.join(repoRoot, 'reports', 'bench-host.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote reports/bench-host.json (${report.benchSeconds} s)`);
}

await main();
