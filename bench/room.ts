// What the room costs per request on the built Wasm, next to a bare pass-through Compute app in front
// of the same local origin: new visitor, waiting visitor, admitted visitor (+ a bypassed path, which
// isolates the room's fixed cost from its token work, and a 256 KB page, where any copy of the body
// through JS would show). Rounds rotate the order so drift on a busy machine (other processes, CPU
// frequency) lands on every scenario alike, and each ratio is also taken within a round; the host's
// CPU per request is the figure other jobs on the machine move least, split into the host's main
// thread and the rest (the guests' worker threads). Every app reuses its sandboxes, and every host
// keeps a fixed pool of workers, so resident memory per worker is stated at a known concurrency.
// Then where the room's time goes inside the runtime: its own time per request on a reused sandbox
// (bench/room-time.ts) and its steps one by one (bench/room-steps.ts). Prints figures, asserts nothing.
//
//   npm run bench                  (about 2 min; BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY, BENCH_WORKERS tune it)
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startHost, type RunningHost } from '../lib/host-process.js';
import { startEchoOrigin } from '../lib/echo-origin.js';
import { mintToken, startRoom, type Room } from '../lib/room-host.js';
import { repoRoot, wasmFile } from '../lib/paths.js';
import { buildWasm } from '../lib/wasm-build.js';
import { processCpu } from './cpu.js';
import { roomSteps } from './room-steps.js';
import { roomTimes } from './room-time.js';
import { quantile, quantileOf } from '../lib/quantiles.js';
import { closedLoop, get } from './http-load.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const warmupSeconds = 1;
/** Every host keeps exactly this many guest workers (the default on this 2-core machine, held fixed). */
const workers = Number(process.env.BENCH_WORKERS ?? 8);
const poolArgs = ['--workers', String(workers), '--max-workers', String(workers)];
/**
 * Another build of the room to measure in its place (with WR_HOST_BIN for another host): how an
 * older commit compares, by the same scenarios and load. The in-runtime tables describe these
 * sources, so they are left out then.
 */
const otherRoomWasm = process.env.BENCH_ROOM_WASM;
const bigPage = String(256 * 1024);

interface Scenario {
  name: string;
  /** Which app serves it (the host profile replays it on a profiling host of the same app). */
  app: 'passthrough' | 'room';
  what: string;
  url: string;
  /** Fixed headers, or a function giving each request its own (a token the sandbox has not seen). */
  headers: Record<string, string> | (() => Record<string, string>);
  /** The process serving it, whose CPU time is the least load-sensitive cost figure. */
  pid: number;
  /** What a correct answer looks like, so a misconfigured run does not measure the wrong path. */
  expect: (status: number, headers: http.IncomingHttpHeaders) => boolean;
}

interface Sample {
  latenciesMs: number[];
  elapsedMs: number;
  /** CPU the serving host process used meanwhile (all its threads), ms. */
  hostCpuMs: number;
  /** Of which the host's main thread. */
  hostMainCpuMs: number;
  errors: number;
  unexpected: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

const request = (url: string, headers: Record<string, string>) => get(agent, url, headers);

/** `concurrency` clients, each sending its next request as soon as the last one is answered. */
async function load(scenario: Scenario, durationMs: number): Promise<Sample> {
  const sample: Sample = { latenciesMs: [], elapsedMs: 0, hostCpuMs: 0, hostMainCpuMs: 0, errors: 0, unexpected: 0 };
  const cpuBefore = processCpu(scenario.pid);
  const start = performance.now();
  const end = start + durationMs;
  await closedLoop(
    concurrency,
    () => performance.now() < end,
    async () => {
      const t0 = performance.now();
      try {
        const res = await request(scenario.url, typeof scenario.headers === 'function' ? scenario.headers() : scenario.headers);
        sample.latenciesMs.push(performance.now() - t0);
        if (!scenario.expect(res.status, res.headers)) sample.unexpected++;
      } catch {
        sample.errors++;
      }
    },
  );
  sample.elapsedMs = performance.now() - start;
  const cpuAfter = processCpu(scenario.pid);
  sample.hostMainCpuMs = cpuAfter.mainMs - cpuBefore.mainMs;
  sample.hostCpuMs = sample.hostMainCpuMs + cpuAfter.otherMs - cpuBefore.otherMs;
  return sample;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

function cookieValue(setCookie: string[] | undefined, name: string): string {
  const line = setCookie?.find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`the room set no ${name} cookie (got ${JSON.stringify(setCookie)})`);
  return line.slice(name.length + 1).split(';')[0]!;
}

/**
 * The pass-through fixture plus `extraBytes` of non-zero data in its snapshot (rounded to 256 KB so a
 * slightly different room build reuses the cached module).
 */
async function buildBallastPassthrough(extraBytes: number): Promise<string> {
  const bytes = Math.max(0, Math.round(extraBytes / 262_144) * 262_144);
  const source = path.join(repoRoot, 'build', `bench-passthrough-ballast-reused-${bytes}.js`);
  await mkdir(path.dirname(source), { recursive: true });
  await writeFile(
    source,
    [
      // Reuses its sandboxes as the room and the plain pass-through do.
      "import { setReusableSandboxOptions } from 'fastly:experimental';",
      'setReusableSandboxOptions({ maxRequests: 1000 });',
      `const ballast = new Uint8Array(${bytes});`,
      'for (let i = 0; i < ballast.length; i++) ballast[i] = (i * 31 + 7) & 255;',
      'globalThis.ballast = ballast;',
      "addEventListener('fetch', (event) => event.respondWith(fetch(event.request, { backend: 'origin' })));",
      '',
    ].join('\n'),
  );
  return buildWasm(source);
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0]!;
  if (loadAtStart > os.cpus().length) {
    process.stderr.write(`note: load average ${loadAtStart.toFixed(1)} on ${os.cpus().length} CPUs; absolute figures will be noisy, ratios less so\n`);
  }
  const origin = await startEchoOrigin();
  const keyBytes = new Uint8Array(randomBytes(64));
  const passthroughWasm = await buildWasm(path.join(repoRoot, 'bench', 'fixtures', 'passthrough.js'));
  let passthrough: RunningHost | undefined;
  let room: Room | undefined;
  let ballast: RunningHost | undefined;
  try {
    passthrough = await startHost({
      args: poolArgs,
      wasm: passthroughWasm,
      manifest: { local_server: { backends: { origin: { url: origin.url } } } },
    });
    // Long windows: no token expires or renews during the run, so every request takes one path.
    const settings = { allow_percentage: '50', wait_period_duration: '3600', allow_period_duration: '86400', bypass_paths: '/static' };
    room = await startRoom({ origin, keyBytes, settings: { ...settings, allow_percentage: '100' }, hostArgs: poolArgs, ...(otherRoomWasm ? { wasm: otherRoomWasm } : {}) });
    const allowToken = cookieValue((await request(`${room.url}/`, {})).headers['set-cookie'], 'waiting_room');
    await room.setConfig(settings);
    const waitToken = cookieValue((await request(`${room.url}/`, {})).headers['set-cookie'], 'waiting_room');
    // Allow tokens no sandbox has seen: one per request (distinct expiries, each more than an allow
    // period away for the whole run, so none is renewed: the room renews with fewer than A s left).
    const unseen: string[] = [];
    const firstExp = Math.floor(Date.now() / 1000) + Number(settings.allow_period_duration) + 3600;
    for (let i = 0; i < 30_000; i++) unseen.push(await mintToken(room, { dec: 'allow', exp: firstExp + i }));
    let nextUnseen = 0;
    // The local host puts back the memory pages the last guest changed when a fresh instance starts,
    // after comparing the whole memory with the snapshot image, so a bigger snapshot costs more per
    // instance (now once per 1,000 requests); Fastly maps snapshots copy-on-write. A pass-through
    // carrying as much snapshot data as the room separates that host-specific cost from the room's own work.
    const ballastWasm = await buildBallastPassthrough(statSync(otherRoomWasm ?? wasmFile).size - statSync(passthroughWasm).size);
    ballast = await startHost({ wasm: ballastWasm, args: poolArgs, manifest: { local_server: { backends: { origin: { url: origin.url } } } } });

    const fromOrigin = (status: number, h: http.IncomingHttpHeaders): boolean => status === 200 && h['x-echo'] === '1';
    const scenarios: Scenario[] = [
      {
        name: 'passthrough',
        app: 'passthrough',
        pid: passthrough.pid,
        what: 'bare Compute app forwarding to the origin',
        url: `${passthrough.url}/page`,
        headers: {},
        expect: fromOrigin,
      },
      {
        name: 'passthrough-same-image',
        app: 'passthrough',
        pid: ballast.pid,
        what: 'bare app whose snapshot is as large as the room (the host checks all of its memory per fresh instance)',
        url: `${ballast.url}/page`,
        headers: {},
        expect: fromOrigin,
      },
      {
        name: 'new',
        app: 'room',
        pid: room.pid,
        what: 'new visitor: config, identity, sign a wait token, render the waiting page',
        url: `${room.url}/page`,
        headers: {},
        expect: (s, h) => h['x-echo'] === undefined && (h['set-cookie']?.length ?? 0) > 0,
      },
      {
        name: 'waiting',
        app: 'room',
        pid: room.pid,
        what: 'waiting visitor: verify a wait token that is not due, render the waiting page',
        url: `${room.url}/page`,
        headers: { cookie: `waiting_room=${waitToken}` },
        expect: (s, h) => h['x-echo'] === undefined && h['set-cookie'] === undefined,
      },
      {
        name: 'admitted',
        app: 'room',
        pid: room.pid,
        what: 'admitted visitor: verify an allow token, strip the cookie, forward to the origin',
        url: `${room.url}/page`,
        headers: { cookie: `waiting_room=${allowToken}; other=1` },
        expect: (s, h) => fromOrigin(s, h) && h['set-cookie'] === undefined,
      },
      {
        name: 'admitted-unseen',
        app: 'room',
        pid: room.pid,
        what: 'admitted visitor whose token this sandbox has not verified before (a first visit after admission)',
        url: `${room.url}/page`,
        headers: () => ({ cookie: `waiting_room=${unseen[nextUnseen++ % unseen.length]}; other=1` }),
        expect: (s, h) => fromOrigin(s, h) && h['set-cookie'] === undefined,
      },
      {
        name: 'bypass',
        app: 'room',
        pid: room.pid,
        what: 'bypassed path: the room reads its config and forwards (no token work)',
        url: `${room.url}/static/page`,
        headers: {},
        expect: fromOrigin,
      },
      {
        name: 'passthrough-256k',
        app: 'passthrough',
        pid: passthrough.pid,
        what: 'bare app, 256 KB page',
        url: `${passthrough.url}/page`,
        headers: { 'x-echo-bytes': bigPage },
        expect: fromOrigin,
      },
      {
        name: 'admitted-256k',
        app: 'room',
        pid: room.pid,
        what: 'admitted visitor, 256 KB page',
        url: `${room.url}/page`,
        headers: { cookie: `waiting_room=${allowToken}`, 'x-echo-bytes': bigPage },
        expect: fromOrigin,
      },
    ];
    // Each scenario's cost is compared with the pass-through serving the same page.
    const baselineOf = (name: string): string => (name.endsWith('-256k') ? 'passthrough-256k' : 'passthrough');

    for (const scenario of scenarios) await load(scenario, warmupSeconds * 1000);
    const samples = new Map<string, Sample[]>(scenarios.map((s) => [s.name, []]));
    for (let r = 0; r < rounds; r++) {
      // Rotate the order every round so no scenario always runs first or right after another.
      const order = scenarios.map((_, i) => scenarios[(i + r) % scenarios.length]!);
      for (const scenario of order) samples.get(scenario.name)!.push(await load(scenario, seconds * 1000));
      process.stderr.write(`round ${r + 1}/${rounds} done\n`);
    }

    const figures = scenarios.map((scenario) => {
      const all = samples.get(scenario.name)!;
      const latencies = all.flatMap((s) => s.latenciesMs).sort((a, b) => a - b);
      const perRoundMedian = all.map((s) => quantileOf(s.latenciesMs, 0.5));
      const requests = latencies.length;
      const elapsed = all.reduce((sum, s) => sum + s.elapsedMs, 0);
      return {
        name: scenario.name,
        what: scenario.what,
        requests,
        errors: all.reduce((sum, s) => sum + s.errors, 0),
        unexpectedAnswers: all.reduce((sum, s) => sum + s.unexpected, 0),
        medianMs: round2(quantile(latencies, 0.5)),
        p99Ms: round2(quantile(latencies, 0.99)),
        reqPerSec: round2((requests / elapsed) * 1000),
        hostCpuMsPerRequest: round2(all.reduce((sum, s) => sum + s.hostCpuMs, 0) / requests),
        hostMainThreadCpuMsPerRequest: round2(all.reduce((sum, s) => sum + s.hostMainCpuMs, 0) / requests),
        perRoundMedianMs: perRoundMedian.map(round2),
      };
    });
    const withRatios = figures.map((f) => {
      const base = figures.find((b) => b.name === baselineOf(f.name))!;
      // The same ratio within each round (the two ran seconds apart), then its median over rounds:
      // steadier than the pooled ratio when the machine's load drifts during the run.
      const own = samples.get(f.name)!;
      const theirs = samples.get(base.name)!;
      const perRound = own.map((s, r) => (theirs[r]!.latenciesMs.length / theirs[r]!.elapsedMs) / (s.latenciesMs.length / s.elapsedMs));
      return {
        ...f,
        baseline: base.name,
        // Cost ratios: > 1 means the scenario costs more than its pass-through baseline.
        medianRatio: round2(f.medianMs / base.medianMs),
        p99Ratio: round2(f.p99Ms / base.p99Ms),
        throughputCostRatio: round2(base.reqPerSec / f.reqPerSec),
        throughputCostRatioRoundMedian: round2(quantileOf(perRound, 0.5)),
        hostCpuRatio: round2(f.hostCpuMsPerRequest / base.hostCpuMsPerRequest),
      };
    });

    // Resident memory of each host process after the rounds (all its worker threads together).
    const rssMiB = (pid: number): number => round2(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
    const memory = { passthroughRssMiB: rssMiB(passthrough.pid), roomRssMiB: rssMiB(room.pid), workersPerHost: workers };
    const report = {
      date: new Date().toISOString(),
      setup: {
        rounds,
        secondsPerRound: seconds,
        concurrency,
        loopback: true,
        host: process.env.WR_HOST_BIN ?? 'host/bin/compute-host',
        room: otherRoomWasm ?? 'bin/main.wasm',
        workersPerHost: workers,
        cpus: os.cpus().length,
        loadAverageAtStart: loadAtStart,
      },
      aim: 'returning admitted visitor at most 1.2x the pass-through, an unseen token at most 1.5x, the room at most 0.25 ms inside the runtime',
      scenarios: withRatios,
      memory,
      roomTime: otherRoomWasm ? {} : await roomTimes(
        origin,
        settings,
        keyBytes,
        scenarios
          .filter((s) => s.app === 'room' && !s.name.endsWith('-256k'))
          .map((s) => ({ name: s.name, path: new URL(s.url).pathname, headers: () => (typeof s.headers === 'function' ? s.headers() : s.headers) })),
      ),
      roomSteps: otherRoomWasm ? {} : await roomSteps(origin, settings, keyBytes, { allow: allowToken, wait: waitToken }),
    };
    console.log(`waiting room on ${report.setup.host}: ${rounds} rounds x ${seconds} s per scenario, ${concurrency} concurrent clients`);
    console.table(
      withRatios.map((f) => ({
        scenario: f.name,
        'median ms': f.medianMs,
        'p99 ms': f.p99Ms,
        'req/s': f.reqPerSec,
        'x median': f.medianRatio,
        'x p99': f.p99Ratio,
        'x req/s': f.throughputCostRatio,
        'x req/s (rounds)': f.throughputCostRatioRoundMedian,
        'host CPU ms/req': f.hostCpuMsPerRequest,
        'of it main thread': f.hostMainThreadCpuMsPerRequest,
        'x CPU': f.hostCpuRatio,
        errors: f.errors + f.unexpectedAnswers,
      })),
    );
    const admitted = withRatios.find((f) => f.name === 'admitted')!;
    console.log(
      `returning admitted visitor: ${admitted.hostCpuRatio}x the pass-through's host CPU per request (aim: at most 1.2x), ` +
        `${admitted.throughputCostRatio}x its cost in req/s (${admitted.throughputCostRatioRoundMedian}x as the median of per-round ratios), ` +
        `${admitted.medianRatio}x its median latency; an admitted visitor with a token the sandbox has not seen: ` +
        `${withRatios.find((f) => f.name === 'admitted-unseen')!.hostCpuRatio}x (aim: at most 1.5x)`,
    );
    const sameImage = withRatios.find((f) => f.name === 'passthrough-same-image')!;
    console.log(
      `  against a pass-through with a snapshot as large as the room's: ${round2(admitted.hostCpuMsPerRequest / sameImage.hostCpuMsPerRequest)}x host CPU, ` +
        `${round2(sameImage.reqPerSec / admitted.reqPerSec)}x req/s (the rest is what this host pays per instance for the bigger snapshot)`,
    );
    console.log(
      `resident memory after the rounds: pass-through host ${memory.passthroughRssMiB} MiB, room host ${memory.roomRssMiB} MiB ` +
        `(${memory.workersPerHost} workers each: ${round2(memory.roomRssMiB / memory.workersPerHost)} MiB per room worker)`,
    );
    if (!otherRoomWasm) {
      console.log(
        "\nthe room's own time per request inside the runtime, on a reused sandbox (origin wait left out), microseconds, " +
          "next to the scenario's host CPU per request as a multiple of the pass-through's",
      );
      console.table(
        Object.entries(report.roomTime).map(([name, t]) => ({
          scenario: name,
          'room us (median)': t.medianUs,
          'room us (p90)': t.p90Us,
          'x CPU': withRatios.find((f) => f.name === name)?.hostCpuRatio,
          untimed: t.untimed,
        })),
      );
      console.log(
        'room steps inside the runtime, microseconds: first call in a fresh instance (what a request pays), repeated, ' +
          'and first call when the snapshot was warmed at build time',
      );
      console.table(report.roomSteps);
    }
    const out = path.join(repoRoot, 'reports', otherRoomWasm ? 'bench-room-other.json' : 'bench-room.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`figures written to ${path.relative(process.cwd(), out)}`);
  } finally {
    agent.destroy();
    await ballast?.stop();
    await room?.stop();
    await passthrough?.stop();
    await origin.close();
  }
}

await main();
