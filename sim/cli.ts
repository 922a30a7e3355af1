// npm run simulate -- [--scenario NAME[,NAME]] [--seed S] [--visitors N] [--out DIR]
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../lib/ts-worker.js';
import { costScenarios, findCostScenario } from './cost-scenarios.js';
import { costTables, describeCosts, scenarioCosts, type ScenarioCosts } from './costs.js';
import { computeFigures, type ScenarioFigures } from './figures.js';
import { writeReport } from './report.js';
import { runScenario } from './run.js';
import type { Scenario } from './scenario-types.js';
import { findScenario, optInScenarios, scenarios } from './scenarios.js';
import type { Job, Reply } from './worker.js';

const usage = `Usage: npm run simulate -- [options]
  --scenario NAME   one or more of ${scenarios.map((s) => s.name).join(', ')} (comma-separated or repeated); default all of those;
                    also, only when named: ${optInScenarios.map((s) => s.name).join(', ')}
  --seed S          seed for visitors and signing key (default 1): same seed, same report
  --visitors N      population size for every chosen scenario (default: each scenario's own)
  --out DIR         where report.md, figures.json and the SVG charts go (default reports/sim)
  --update          rerun only the --scenario ones and put them into the report in --out, keeping every
                    other scenario's figures from its figures.json (same seed)
  --costs           print the requests each visitor made, by kind, and write no report: the sales
                    ${costScenarios.map((s) => s.name).join(', ')} by default, or the --scenario ones
                    (any scenario of one room), each with the page's reload after its winning check`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function describe(f: ScenarioFigures): string {
  if (f.rooms !== null) {
    const x = f.rooms.crossRoom;
    const rooms = f.rooms.rooms.map((r) => `  ${describe(r.figures)}`);
    return [
      `${f.name}: ${x.violations} requests into a room without its admission; ${x.triedOtherRoom} visitors tried another room's token`,
      ...rooms,
    ].join('\n');
  }
  const s = f.smoothness;
  const w = f.waits[0];
  return (
    `${f.name.padEnd(12)} ${String(f.actors).padStart(6)} visitors, ${String(f.admitted).padStart(6)} admitted` +
    (s ? `, peak/mean ${s.peakToMean.toFixed(2)}, boundary share ${(100 * s.boundaryShare).toFixed(1)}%` : '') +
    (w
      ? `, median wait ${w.observed.p50?.toFixed(0) ?? '–'} s (page said ${w.predicted.p50?.toFixed(0) ?? '–'})`
      : '') +
    (f.control && f.control.judged > 0
      ? `, ${f.control.withinTenPercent}/${f.control.judged} minutes within ±10% of the target`
      : '') +
    (f.bots
      ? `, farm ${(100 * f.bots.groups.filter((g) => g.group.startsWith('farm')).reduce((x, g) => x + (g.share ?? 0), 0)).toFixed(1)}% of admissions, honest ${f.bots.honest.admitted} of ${f.bots.honest.visitors} in (median wait ${f.bots.honest.waitP50?.toFixed(0) ?? '–'} s)`
      : '') +
    (f.origin
      ? `, origin: capacity ${f.origin.spans.map((x) => x.perMinute).join('/')}, at it from minute ${f.origin.reachMinutes ?? '–'}, ${f.origin.breachMinutes}/${f.origin.minutesWithRequests} minutes out of the objective, ${f.origin.admitted} admitted against ${f.origin.clairvoyantAdmitted ?? '–'} by a clairvoyant operator`
      : '') +
    (f.control?.apiPerHour
      ? `, API calls an hour: ${f.control.apiPerHour.reads.toFixed(0)} reads, ${f.control.apiPerHour.writes.toFixed(0)} writes, ${f.control.apiPerHour.heartbeats.toFixed(0)} heartbeats (busiest hour ${f.control.apiPerHour.busiestHour})`
      : '') +
    `  [${f.decisions} decisions, ${(f.elapsedMs / 1000).toFixed(1)} s]`
  );
}

/** A scenario thread (sim/worker.ts). */
const startWorker = (): Worker => startTsWorker(new URL('./worker.ts', import.meta.url));

type Done = Extract<Reply, { ok: true }>;

function runInWorker(worker: Worker, job: Job): Promise<Done> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: Reply): void => {
      worker.off('error', onError);
      if (reply.ok) resolve(reply);
      else reject(new Error(`scenario ${job.name}: ${reply.error}`));
    };
    const onError = (error: Error): void => {
      worker.off('message', onMessage);
      reject(error);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.postMessage(job);
  });
}

/** How one kind of run goes: in this thread, or as a worker's job and what to take from its reply. */
interface RunKind<T> {
  inThread(scenario: Scenario): Promise<T>;
  job(scenario: Scenario): Job;
  take(done: Done): T;
  show(value: T): string;
}

/**
 * Scenarios are independent, so they run side by side, one worker per core, largest first so the
 * flash crowd does not start last. One scenario, or one core: in this thread.
 */
async function runAll<T>(chosen: Scenario[], visitors: number | undefined, kind: RunKind<T>): Promise<T[]> {
  const threads = Math.min(availableParallelism(), chosen.length);
  const results = new Map<string, T>();
  if (threads <= 1) {
    for (const scenario of chosen) {
      const value = await kind.inThread(scenario);
      console.log(kind.show(value));
      results.set(scenario.name, value);
    }
  } else {
    const queue = [...chosen].sort((a, b) => (visitors ?? b.visitors) - (visitors ?? a.visitors));
    const workers = Array.from({ length: threads }, startWorker);
    try {
      await Promise.all(
        workers.map(async (worker) => {
          for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
            const value = kind.take(await runInWorker(worker, kind.job(next)));
            console.log(kind.show(value));
            results.set(next.name, value);
          }
        }),
      );
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
  // The report keeps the scenarios' own order, whichever finished first.
  return chosen.map((s) => results.get(s.name)!);
}

/** The report's run: each scenario's figures. */
const figuresRun = (seed: string, visitors: number | undefined): RunKind<ScenarioFigures> => ({
  inThread: async (scenario) => computeFigures(await runScenario(scenario, { seed, visitors })),
  job: (scenario) => ({ name: scenario.name, seed, visitors }),
  take: (done) => {
    if (!('figures' in done)) throw new Error('a worker answered a report run with costs');
    return done.figures;
  },
  show: describe,
});

/** The cost run (--costs): each scenario's requests per visitor. */
const costsRun = (seed: string, visitors: number | undefined): RunKind<ScenarioCosts> => ({
  inThread: async (scenario) => scenarioCosts(await runScenario(scenario, { seed, visitors })),
  job: (scenario) => ({ name: scenario.name, seed, visitors, costs: true }),
  take: (done) => {
    if (!('costs' in done)) throw new Error('a worker answered a cost run with figures');
    return done.costs;
  },
  show: describeCosts,
});

/** The figures of the report already in `out`, for --update: they must be of the same seed. */
async function earlierFigures(out: string, seed: string): Promise<ScenarioFigures[]> {
  const file = join(out, 'figures.json');
  let saved: { seed?: unknown; scenarios?: unknown };
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as { seed?: unknown; scenarios?: unknown };
  } catch (error) {
    fail(
      `--update: cannot read ${file} (${(error as Error).message}); run without --update to write a whole report there`,
    );
  }
  if (!Array.isArray(saved.scenarios))
    fail(`--update: ${file} holds no scenarios; run without --update to write a whole report there`);
  if (saved.seed !== seed)
    fail(`--update: ${file} is of seed ${String(saved.seed)}, not ${seed}; pass --seed ${String(saved.seed)}`);
  // Figures written before a field existed read as if it were empty.
  return (saved.scenarios as ScenarioFigures[]).map((f) => ({
    ...f,
    rooms: f.rooms ?? null,
    bots: f.bots ?? null,
    origin: f.origin ?? null,
  }));
}

/** The earlier report's scenarios with the fresh ones in their place, in the scenario list's order. */
function merged(earlier: readonly ScenarioFigures[], fresh: readonly ScenarioFigures[]): ScenarioFigures[] {
  const byName = new Map(earlier.map((f) => [f.name, f]));
  for (const f of fresh) byName.set(f.name, f);
  // Scenarios run only when named come after the default run's, in their own list's order.
  const order = [...scenarios, ...optInScenarios].map((s) => s.name);
  return [...byName.values()].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        scenario: { type: 'string', multiple: true },
        seed: { type: 'string', default: '1' },
        visitors: { type: 'string' },
        out: { type: 'string', default: 'reports/sim' },
        update: { type: 'boolean', default: false },
        costs: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(usage);
    return;
  }
  const names = (values.scenario ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  let visitors: number | undefined;
  if (values.visitors !== undefined) {
    visitors = Number(values.visitors);
    if (!Number.isSafeInteger(visitors) || visitors < 1)
      fail(`--visitors: "${values.visitors}" is not a whole number >= 1`);
  }
  const seed = values.seed!;
  if (values.costs) {
    if (values.update) fail('--costs prints a table and writes no report: leave out --update');
    const chosen =
      names.length === 0
        ? [...costScenarios]
        : names.map((n) => findCostScenario(n) ?? fail(`--scenario: "${n}" is no scenario of one room`));
    console.log(`\n${costTables(await runAll(chosen, visitors, costsRun(seed, visitors)))}`);
    return;
  }
  const chosen: Scenario[] =
    names.length === 0
      ? [...scenarios]
      : names.map((n) => findScenario(n) ?? fail(`--scenario: unknown scenario "${n}"`));
  const earlier = values.update ? await earlierFigures(values.out!, seed) : null;
  const fresh = await runAll(chosen, visitors, figuresRun(seed, visitors));
  const all = earlier === null ? fresh : merged(earlier, fresh);
  const files = await writeReport(values.out!, seed, all);
  console.log(`wrote ${files.length} files to ${values.out}/ (report.md, figures.json, ${files.length - 2} charts)`);
}

await main();
