// What the room costs per request on the built Wasm, next to a bare pass-through Compute app in front
// of the same local origin: new visitor, waiting visitor, admitted visitor (+ a bypassed path, which
// isolates the room's fixed cost from its token work). Rounds alternate the apps so drift on a busy
// machine (other processes, CPU frequency) lands on every scenario alike. Prints figures, asserts nothing.
//
//   npm run bench                  (about 80 s; BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY tune it)
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { startHost, type RunningHost } from '../test/support/host-process.js';
import { repoRoot, startEchoOrigin, startRoom, type Room } from '../test/support/room-host.js';
import { buildWasm } from '../test/support/wasm-build.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const warmupSeconds = 1;

interface Scenario {
  name: string;
  what: string;
  url: string;
  headers: Record<string, string>;
  /** What a correct answer looks like, so a misconfigured run does not measure the wrong path. */
  expect: (status: number, headers: http.IncomingHttpHeaders) => boolean;
}

interface Sample {
  latenciesMs: number[];
  elapsedMs: number;
  errors: number;
  unexpected: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function request(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** `concurrency` clients, each sending its next request as soon as the last one is answered. */
async function load(scenario: Scenario, durationMs: number): Promise<Sample> {
  const sample: Sample = { latenciesMs: [], elapsedMs: 0, errors: 0, unexpected: 0 };
  const start = performance.now();
  const end = start + durationMs;
  const client = async (): Promise<void> => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await request(scenario.url, scenario.headers);
        sample.latenciesMs.push(performance.now() - t0);
        if (!scenario.expect(res.status, res.headers)) sample.unexpected++;
      } catch {
        sample.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  sample.elapsedMs = performance.now() - start;
  return sample;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at]!;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

function cookieValue(setCookie: string[] | undefined, name: string): string {
  const line = setCookie?.find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`the room set no ${name} cookie (got ${JSON.stringify(setCookie)})`);
  return line.slice(name.length + 1).split(';')[0]!;
}

async function main(): Promise<void> {
  const origin = await startEchoOrigin();
  const passthroughWasm = await buildWasm(path.join(repoRoot, 'bench', 'fixtures', 'passthrough.js'));
  let passthrough: RunningHost | undefined;
  let room: Room | undefined;
  try {
    passthrough = await startHost({
      wasm: passthroughWasm,
      manifest: { local_server: { backends: { origin: { url: origin.url } } } },
    });
    // Long windows: no token expires or renews during the run, so every request takes one path.
    const settings = { allow_percentage: '50', wait_period_duration: '3600', allow_period_duration: '86400', bypass_paths: '/static' };
    room = await startRoom({ origin, settings: { ...settings, allow_percentage: '100' } });
    const allowToken = cookieValue((await request(`${room.url}/`, {})).headers['set-cookie'], 'waiting_room');
    await room.setConfig(settings);
    const waitToken = cookieValue((await request(`${room.url}/`, {})).headers['set-cookie'], 'waiting_room');

    const fromOrigin = (status: number, h: http.IncomingHttpHeaders): boolean => status === 200 && h['x-echo'] === '1';
    const scenarios: Scenario[] = [
      { name: 'passthrough', what: 'bare Compute app forwarding to the origin', url: `${passthrough.url}/page`, headers: {}, expect: fromOrigin },
      {
        name: 'new',
        what: 'new visitor: config, identity, sign a wait token, render the waiting page',
        url: `${room.url}/page`,
        headers: {},
        expect: (s, h) => h['x-echo'] === undefined && (h['set-cookie']?.length ?? 0) > 0,
      },
      {
        name: 'waiting',
        what: 'waiting visitor: verify a wait token that is not due, render the waiting page',
        url: `${room.url}/page`,
        headers: { cookie: `waiting_room=${waitToken}` },
        expect: (s, h) => h['x-echo'] === undefined && h['set-cookie'] === undefined,
      },
      {
        name: 'admitted',
        what: 'admitted visitor: verify an allow token, strip the cookie, forward to the origin',
        url: `${room.url}/page`,
        headers: { cookie: `waiting_room=${allowToken}; other=1` },
        expect: (s, h) => fromOrigin(s, h) && h['set-cookie'] === undefined,
      },
      {
        name: 'bypass',
        what: 'bypassed path: the room reads its config and forwards (no token work)',
        url: `${room.url}/static/page`,
        headers: {},
        expect: fromOrigin,
      },
    ];

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
      const perRoundMedian = all.map((s) => quantile([...s.latenciesMs].sort((a, b) => a - b), 0.5));
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
        perRoundMedianMs: perRoundMedian.map(round2),
      };
    });
    const base = figures.find((f) => f.name === 'passthrough')!;
    const withRatios = figures.map((f) => ({
      ...f,
      // Cost ratios: > 1 means the scenario costs more than the pass-through.
      medianRatio: round2(f.medianMs / base.medianMs),
      p99Ratio: round2(f.p99Ms / base.p99Ms),
      throughputCostRatio: round2(base.reqPerSec / f.reqPerSec),
    }));

    const report = {
      date: new Date().toISOString(),
      setup: { rounds, secondsPerRound: seconds, concurrency, loopback: true, host: 'host/bin/compute-host', cpus: (await import('node:os')).cpus().length },
      aim: 'admitted visitor under 1.5x the pass-through',
      scenarios: withRatios,
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
        errors: f.errors + f.unexpectedAnswers,
      })),
    );
    const admitted = withRatios.find((f) => f.name === 'admitted')!;
    console.log(
      `admitted visitor: ${admitted.throughputCostRatio}x the pass-through's cost per request (req/s), ${admitted.medianRatio}x its median latency` +
        ` (aim: under 1.5x)`,
    );
    const out = path.join(repoRoot, 'reports', 'bench-room.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`figures written to ${path.relative(process.cwd(), out)}`);
  } finally {
    agent.destroy();
    await room?.stop();
    await passthrough?.stop();
    await origin.close();
  }
}

await main();
