// Throughput, latency and cost breakdown of the local Compute host (host/), on loopback only.
// Prints figures and writes reports/bench-host.json; asserts nothing.
//
//   npm run bench:host            (about a minute on the 2-core development machine)
//   BENCH_SECONDS=3 npm run bench:host   (shorter load phases)

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startOrigin } from '../lib/origin.js';
import { startHost, type RunningHost } from '../lib/host-process.js';
import { hostFixture, repoRoot } from '../lib/paths.js';
import { buildWasm } from '../lib/wasm-build.js';
import { quantile } from '../lib/quantiles.js';
import { printProfile, readProfiles, type ProfileSummary } from './host-profile.js';
import { closedLoop, get } from './http-load.js';
import { takesNoArguments } from '../lib/cli.js';

takesNoArguments(
  'npm run bench:host',
  'usage: npm run bench:host   (about a minute; writes reports/bench-host.json)\n  BENCH_SECONDS=6   seconds each load phase lasts',
);

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
  const profile = await readProfiles(dir);
  await rm(dir, { recursive: true, force: true });
  return { load: result, profile };
}

function printLoad(r: LoadResult): void {
  console.log(
    `  ${r.app.padEnd(10)} c=${String(r.concurrency).padEnd(3)} ${String(r.requestsPerSecond).padStart(7)} req/s  ` +
      `p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p90 ${r.p90Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms  ` +
      `(${r.requests} requests, ${r.errors} errors, ${r.seconds} s)`,
  );
}
/** The per-request instantiation cost of the hello module, printed. */
async function measureInstantiate(helloWasm: string): Promise<Record<string, number>> {
  console.log('instantiate cost (hello.js module, shared compiled module, median of 200):');
  const instantiate = await instantiateCost(helloWasm, 200);
  console.log(
    `  module ${instantiate.moduleMiB} MiB, compile once ${instantiate.compileMs} ms, ` +
      `new WebAssembly.Instance median ${instantiate.medianMs} ms (p90 ${instantiate.p90Ms} ms), ` +
      `initial memory ${instantiate.initialMemoryMiB} MiB`,
  );
  return instantiate;
}

/** Every load phase against a plain hello host and a proxy host, each printed as it ends. */
async function loadPhases(
  helloWasm: string,
  proxyWasm: string,
  proxyManifest: Record<string, unknown>,
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  const phase = async (app: string, url: string, concurrency: number, seconds: number): Promise<void> => {
    const r = await load(app, url, concurrency, seconds);
    printLoad(r);
    results.push(r);
  };
  const hosts: RunningHost[] = [];
  try {
    const hello = await startHost({ wasm: helloWasm });
    hosts.push(hello);
    const proxy = await startHost({ wasm: proxyWasm, manifest: proxyManifest });
    hosts.push(proxy);
    console.log('\nload (origin for the proxy app is a Node echo server in the benchmark process):');
    // One client in sequence: the latency floor of a request, with no queueing.
    await phase('hello', `${hello.url}/`, 1, Math.min(phaseSeconds, 3));
    for (const [app, url] of [
      ['hello', `${hello.url}/`],
      ['proxy', `${proxy.url}/echo`],
    ] as const) {
      for (const concurrency of concurrencies) await phase(app, url, concurrency, phaseSeconds);
    }
    // A guest waiting on its backend holds a worker thread for the whole wait; the host grows its
    // pool to make up for it, and this phase shows how close it gets to concurrency / 100 ms.
    await phase('proxy-slow', `${proxy.url}/slow?ms=100`, 64, phaseSeconds);
  } finally {
    await Promise.all(hosts.map((h) => h.stop()));
  }
  return results;
}

async function main(): Promise<void> {
  const began = performance.now();
  const [helloWasm, proxyWasm] = await Promise.all([
    buildWasm(hostFixture('hello.js')),
    buildWasm(hostFixture('proxy.js')),
  ]);
  const origin = await startOrigin();
  const proxyManifest = { local_server: { backends: { origin: { url: origin.url } } } };
  console.log(`compute-host benchmark on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), loopback only`);
  console.log(`load phases: ${phaseSeconds} s or ${phaseMaxRequests} requests, keep-alive, closed loop`);
  // Other work on the machine shows up directly in these figures; the load average says how much.
  const loadBefore = loadavg().map((n) => round(n));
  console.log(`load average before: ${loadBefore.join(' ')}\n`);
  const instantiate = await measureInstantiate(helloWasm);

  let results: LoadResult[];
  let profiled;
  try {
    results = await loadPhases(helloWasm, proxyWasm, proxyManifest);
    profiled = {
      hello: await profiledLoad('hello', helloWasm, {}, '/', 16),
      proxy: await profiledLoad('proxy', proxyWasm, proxyManifest, '/echo', 16),
    };
  } finally {
    await origin.stop();
  }
  console.log(
    '\nunder node --cpu-prof (sampling every 0.5 ms; compare with the phases above only on a quiet machine):',
  );
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
