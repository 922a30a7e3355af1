// What the room costs per request on the built Wasm, next to a bare pass-through Compute app in front
// of the same local origin: new visitor, waiting visitor, admitted visitor (+ a bypassed path, which
// isolates the room's fixed cost from its token work, and a 256 KB page, where any copy of the body
// through JS would show). Rounds rotate the order so drift on a busy machine (other processes, CPU
// frequency) lands on every scenario alike, and each ratio is also taken within a round; the host's
// CPU per request is the figure other jobs on the machine move least, split into the host's main
// thread and the rest (the guests' worker threads). Every app reuses its sandboxes, and every host
// keeps a fixed pool of workers, so resident memory per worker is stated at a known concurrency.
// Then where the room's time goes inside the runtime: its own time per request on a reused sandbox
// (bench/room-time.ts), the same for 20 rooms and 50 rules against one room (bench/room-routing.ts),
// its steps one by one (bench/room-steps.ts), the 429 of hammer_limit against the waiting page it
// replaces (bench/room-hammer.ts), the proof of work's check and challenge (bench/room-proof.ts), and a
// waiting page in the visitor's language against the build before the languages (bench/room-language.ts).
// Prints figures, asserts nothing.
// Laid out as the simulator is: the apps and scenarios (room-scenarios.ts), the load (room-load.ts),
// the figures (room-figures.ts) and the report (room-report.ts); this file runs them in that order.
//
//   npm run bench                  (about 3 min; BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY, BENCH_WORKERS tune it)
//   npm run bench:quick            (under 2 min: fewer, shorter rounds and timed requests; no steps, hammering, proof or languages)
import os from 'node:os';
import { closedLoopLoad } from './room-load.js';
import { residentMemory, scenarioFigures } from './room-figures.js';
import { AIM, printReport, writeReport, type RoomReport } from './room-report.js';
import { benchScenarios, startApps, timedScenarios } from './room-scenarios.js';
import { hammerCost } from './room-hammer.js';
import { languageCost } from './room-language.js';
import { proofCost } from './room-proof.js';
import { variantCost } from './room-variants.js';
import { printAims } from './room-aims.js';
import { routingCost } from './room-routing.js';
import { roomSteps } from './room-steps.js';
import { roomTimes } from './room-time.js';
import { againstFigures, buildBefore, ownTimesAgainst, printAgainst, type BeforeBuild } from './room-against.js';
import { takesNoArguments } from '../lib/cli.js';

takesNoArguments(
  'npm run bench',
  `usage: npm run bench   (about 3 min; writes reports/bench-room.json)
  BENCH_ROUNDS=4 BENCH_SECONDS=2 BENCH_CONCURRENCY=8 BENCH_WORKERS=8   rounds, seconds a scenario, clients, host workers
  WR_HOST_BIN=PATH BENCH_ROOM_WASM=PATH                                 another host or room build to measure (bench/README.md)
  BENCH_AGAINST=REV                                                     also an older commit's build, in the same rounds (git history needed)
  BENCH_QUICK=1 (npm run bench:quick)                                   2 rounds of 1 s, 400 timed requests a scenario, the aims' main figures only`,
);

/** The quick variant a developer runs before a change to the edge: the headline figures and the aims they bear on. */
const quick = process.env.BENCH_QUICK === '1';
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 4));
const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 1 : 2));
/** Requests per scenario for the room's own time inside the runtime. */
const timedRequests = quick ? 400 : 1500;
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
/** An older commit whose build is measured beside this one in the same run (bench/room-against.ts). */
const againstRev = process.env.BENCH_AGAINST;

/** The older build BENCH_AGAINST names, or null; a build that cannot be made ends the run with why. */
function beforeBuild(): BeforeBuild | null {
  if (!againstRev) return null;
  if (otherRoomWasm) throw new Error('BENCH_AGAINST compares with the sources here: leave BENCH_ROOM_WASM unset');
  process.stderr.write(`building ${againstRev} in a temporary worktree...\n`);
  const built = buildBefore(againstRev);
  if ('missing' in built) throw new Error(`BENCH_AGAINST=${againstRev}: ${built.missing}`);
  return built;
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0]!;
  if (loadAtStart > os.cpus().length) {
    process.stderr.write(
      `note: load average ${loadAtStart.toFixed(1)} on ${os.cpus().length} CPUs; absolute figures will be noisy, ratios less so\n`,
    );
  }
  const before = beforeBuild();
  const load = closedLoopLoad(concurrency);
  const started: Array<{ stop(): Promise<unknown> }> = [];
  try {
    const apps = await startApps({ poolArgs, otherRoomWasm, beforeWasm: before?.room }, load.get, started);
    const scenarios = benchScenarios(apps);
    const samples = await load.measure(scenarios, { rounds, seconds, warmupSeconds });
    const figures = scenarioFigures(scenarios, samples);
    const inRuntime = !otherRoomWasm;
    const { origin, settings, store, keyBytes } = apps;
    const timed = timedScenarios(scenarios);
    const own = before
      ? await ownTimesAgainst(origin, settings, keyBytes, timed, store, before)
      : { now: inRuntime ? await roomTimes(origin, settings, keyBytes, timed, timedRequests, store) : {}, before: {} };
    const full = inRuntime && !quick;
    const report: RoomReport = {
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
      aim: AIM,
      scenarios: figures,
      memory: residentMemory(apps.passthrough.pid, apps.room.pid, workers),
      roomTime: own.now,
      routing: inRuntime ? await routingCost(origin, settings, keyBytes, timedRequests) : null,
      roomSteps: full ? await roomSteps(origin, settings, keyBytes, apps.tokens) : {},
      hammering: full ? await hammerCost(origin, settings, keyBytes, apps.tokens.wait, store) : null,
      proof: full ? await proofCost(origin, settings, keyBytes, apps.room.key.kid) : null,
      language: full ? await languageCost(origin, settings, keyBytes, apps.room.key.kid) : null,
      variants: full ? await variantCost(origin, settings, keyBytes, apps.room.key.kid) : null,
      ...(before ? { against: againstFigures(before, figures, own.now, own.before) } : {}),
    };
    printReport(report, inRuntime);
    if (report.against) printAgainst(report.against);
    printAims(report);
    await writeReport(report, otherRoomWasm ? 'bench-room-other.json' : 'bench-room.json');
  } finally {
    load.close();
    for (const app of started.reverse()) await app.stop();
  }
}

await main();
