// `npm run bench:ingest`: the controller's ingest path at the scale of ten million waiting visitors.
// Synthetic decision lines (ingest-lines.ts: N visitors checking once a window, draws at a chance that
// admits the target, several POPs, sampled at log_sample_rate as the edge samples) go as fast as they
// can through the controller's real path (Controller.line -> parseLogLine -> Rooms -> Ledger), with a
// tick each second of the log's time (the plan, due each window). Times are CPU time (process.cpuUsage). Each sample rate runs in a process of
// its own, so its memory is its own. Prints, per rate: lines a second ingested (the most the controller
// keeps up with), the edge's log volume, the tick that planned (ms, the slowest, and all ticks of a
// window together), the ledger's tickets and rate, RSS. Asserts nothing.
//   VISITORS=10000000 RATES=1,0.1,0.01,0.001 WINDOWS=2 TARGET=6000 npm run bench:ingest
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { takesNoArguments } from '../lib/cli.js';
import { Controller } from '../control/controller.js';
import { createControlModel } from '../control/model/index.js';
import { Writer, type Store } from '../control/store/index.js';
import { IngestLines } from './ingest-lines.js';

const D = 30;
const START_MS = Date.UTC(2026, 10, 27, 9, 0, 0);

interface Figures {
  rate: number;
  visitors: number;
  windows: number;
  lines: number;
  linesPerSecond: number;
  logBytesPerSecond: number;
  logLinesPerSecond: number;
  planMaxMs: number;
  ticksPerWindowMs: number;
  rssMb: number;
  heapMb: number;
  writes: number;
  wallSeconds: number;
}

/** One rate, in this process. */
async function measure(rate: number, visitors: number, windows: number, targetPerMinute: number): Promise<Figures> {
  const started = performance.now();
  const values: Record<string, string> = {
    allow_percentage: '50',
    wait_period_duration: String(D),
    new_users_per_minute: String(targetPerMinute),
    session_duration: '5',
    log_sample_rate: String(rate),
  };
  const store: Store = {
    name: 'memory',
    read: async () => ({ settings: JSON.stringify(values) }),
    write: async () => {},
  };
  const writer = new Writer(store, 0, () => {});
  const controller = new Controller({
    createModel: () => createControlModel(),
    store,
    writer,
    sourceName: 'bench',
    lagLimitMs: 3_600_000,
    log: () => {},
  });
  const gen = new IngestLines({ visitors, d: D, rate, admitsPerWindow: (targetPerMinute * D) / 60, startMs: START_MS });
  let lines = 0;
  let bytes = 0;
  let lineMs = 0;
  let tickMs = 0;
  let planMaxMs = 0;
  let nextTickMs = START_MS + 1000;
  // CPU time, not wall time: on a shared machine the wall clock counts other processes' turns too.
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const tick = async (atMs: number): Promise<void> => {
    const t = cpuMs();
    await controller.tick(atMs);
    const took = cpuMs() - t;
    tickMs += took;
    planMaxMs = Math.max(planMaxMs, took);
  };
  for (let k = 0; k < windows; k++) {
    for (const { lines: chunk, lastMs } of gen.window(k)) {
      for (const text of chunk) bytes += text.length + 1;
      const t = cpuMs();
      for (const text of chunk) controller.line(text, lastMs + 1000);
      lineMs += cpuMs() - t;
      lines += chunk.length;
      while (nextTickMs <= lastMs) {
        await tick(nextTickMs);
        nextTickMs += 1000;
      }
    }
  }
  const memory = process.memoryUsage();
  const seconds = windows * D;
  return {
    rate,
    visitors,
    windows,
    lines,
    linesPerSecond: lines / (lineMs / 1000),
    logBytesPerSecond: bytes / seconds,
    logLinesPerSecond: lines / seconds,
    planMaxMs,
    ticksPerWindowMs: tickMs / windows,
    rssMb: memory.rss / 2 ** 20,
    heapMb: memory.heapUsed / 2 ** 20,
    writes: writer.done,
    wallSeconds: (performance.now() - started) / 1000,
  };
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(rows: readonly Figures[]): string {
  const head = [
    'sample rate',
    'log lines/s',
    'log MB/s',
    'ingest lines/s',
    'keeps up',
    'slowest tick ms',
    'ticks ms/window',
    'RSS MB',
    'writes',
    'run s',
  ];
  const body = rows.map((f) => [
    String(f.rate),
    fmt(f.logLinesPerSecond),
    fmt(f.logBytesPerSecond / 1e6, 2),
    fmt(f.linesPerSecond),
    f.linesPerSecond >= f.logLinesPerSecond ? 'yes' : `no (${fmt((100 * f.linesPerSecond) / f.logLinesPerSecond)}%)`,
    fmt(f.planMaxMs, 1),
    fmt(f.ticksPerWindowMs, 1),
    fmt(f.rssMb),
    String(f.writes),
    fmt(f.wallSeconds, 1),
  ]);
  return [head, head.map(() => '---'), ...body].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

const env = (name: string, fallback: string): string => process.env[name] ?? fallback;

async function main(): Promise<void> {
  const visitors = Number(env('VISITORS', '10000000'));
  const windows = Number(env('WINDOWS', '2'));
  const target = Number(env('TARGET', '6000'));
  const one = process.env.INGEST_ONE;
  if (one !== undefined) {
    process.stdout.write(`${JSON.stringify(await measure(Number(one), visitors, windows, target))}\n`);
    return;
  }
  takesNoArguments(
    'npm run bench:ingest',
    `usage: npm run bench:ingest   (prints the controller's ingest figures; writes nothing)
  VISITORS=10000000 RATES=1,0.1,0.01,0.001 WINDOWS=2 TARGET=6000   waiting visitors, sample rates, windows of 30 s, admissions a minute`,
  );
  const rates = env('RATES', '1,0.1,0.01,0.001').split(',').map(Number);
  const rows: Figures[] = [];
  console.log(
    `${fmt(visitors)} waiting visitors, one check each per ${D} s window, ${windows} windows, target ${fmt(target)} a minute, 6 POPs`,
  );
  for (const rate of rates) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, INGEST_ONE: String(rate) },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0)
      throw new Error(`the run at sample rate ${rate} failed: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
    const f = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Figures;
    console.log(`rate ${rate}: ${fmt(f.lines)} lines in ${fmt(f.wallSeconds, 1)} s ${JSON.stringify(f)}`);
    rows.push(f);
  }
  console.log(table(rows));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
