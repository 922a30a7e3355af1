// What bench/room.ts prints and writes: the scenarios' table with their ratios to the pass-through,
// the headline against the aims, memory, and the room's own time and steps inside the runtime.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../lib/paths.js';
import type { Against } from './room-against.js';
import { round2, type Memory, type ScenarioFigures } from './room-figures.js';
import { hammerLines, type HammerCost } from './room-hammer.js';
import { languageCostLines, type LanguageCost } from './room-language.js';
import { proofCostLines, type ProofCost } from './room-proof.js';
import { variantCostLines, type VariantCost } from './room-variants.js';
import type { RoutingCost, SideFigures } from './room-routing.js';
import type { RoomTime } from './room-time.js';

export interface RoomReport {
  date: string;
  setup: {
    rounds: number;
    secondsPerRound: number;
    concurrency: number;
    loopback: true;
    host: string;
    room: string;
    workersPerHost: number;
    cpus: number;
    loadAverageAtStart: number;
  };
  aim: string;
  scenarios: ScenarioFigures[];
  memory: Memory;
  /** Empty when another build of the room was measured: these describe the sources here. */
  roomTime: Record<string, RoomTime>;
  /** 20 rooms and 50 rules against one room, the room's own time; null when another build was measured. */
  routing: RoutingCost | null;
  roomSteps: Record<string, { coldUs: number; warmUs: number; coldUsWithInitWarmup: number }>;
  /** The 429 of hammer_limit against the waiting page it replaces; null when another build was measured. */
  hammering: HammerCost | null;
  /** The proof of work: checking a right solution at a draw, and a waiting answer's challenge; null when another build was measured. */
  proof: ProofCost | null;
  /** A waiting page in the visitor's language against the build before the languages (absent in older reports). */
  language?: LanguageCost | null;
  /** An A/B test's waiting page, variants a and b, against the same page without a test (absent in older reports). */
  variants?: VariantCost | null;
  /** This build against an older commit's, measured in the same run (BENCH_AGAINST); absent otherwise. */
  against?: Against;
}

export const AIM =
  'returning admitted visitor at most 1.5x the pass-through, an unseen token at most 2x, the room at most 0.2 ms inside the runtime (bench/room-aims.ts)';

/** Prints the report; `inRuntime` adds the tables of the room's own time and steps. */
export function printReport(report: RoomReport, inRuntime: boolean): void {
  const { setup, scenarios, memory } = report;
  console.log(
    `waiting room on ${setup.host}: ${setup.rounds} rounds x ${setup.secondsPerRound} s per scenario, ${setup.concurrency} concurrent clients`,
  );
  console.table(
    scenarios.map((f) => ({
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
  const admitted = scenarios.find((f) => f.name === 'admitted')!;
  console.log(
    `returning admitted visitor: ${admitted.hostCpuRatio}x the pass-through's host CPU per request (aim: at most 1.5x), ` +
      `${admitted.throughputCostRatio}x its cost in req/s (${admitted.throughputCostRatioRoundMedian}x as the median of per-round ratios), ` +
      `${admitted.medianRatio}x its median latency; an admitted visitor with a token the sandbox has not seen: ` +
      `${scenarios.find((f) => f.name === 'admitted-unseen')!.hostCpuRatio}x (aim: at most 2x)`,
  );
  const sameImage = scenarios.find((f) => f.name === 'passthrough-same-image')!;
  console.log(
    `  against a pass-through with a snapshot as large as the room's: ${round2(admitted.hostCpuMsPerRequest / sameImage.hostCpuMsPerRequest)}x host CPU, ` +
      `${round2(sameImage.reqPerSec / admitted.reqPerSec)}x req/s (the rest is what this host pays per instance for the bigger snapshot)`,
  );
  console.log(
    `resident memory after the rounds: pass-through host ${memory.passthroughRssMiB} MiB, room host ${memory.roomRssMiB} MiB ` +
      `(${memory.workersPerHost} workers each: ${round2(memory.roomRssMiB / memory.workersPerHost)} MiB per room worker)`,
  );
  if (!inRuntime) return;
  console.log(
    "\nthe room's own time per request inside the runtime, on a reused sandbox (origin wait left out), microseconds, " +
      "next to the scenario's host CPU per request as a multiple of the pass-through's",
  );
  console.table(
    Object.entries(report.roomTime).map(([name, t]) => ({
      scenario: name,
      'room us (median)': t.medianUs,
      'room us (p90)': t.p90Us,
      'x CPU': scenarios.find((f) => f.name === name)?.hostCpuRatio,
      untimed: t.untimed,
    })),
  );
  if (report.routing !== null) for (const line of routingLines(report.routing)) console.log(line);
  if (report.hammering !== null) for (const line of hammerLines(report.hammering)) console.log(line);
  if (report.proof !== null) for (const line of proofCostLines(report.proof)) console.log(line);
  if (report.language) for (const line of languageCostLines(report.language)) console.log(line);
  if (report.variants) for (const line of variantCostLines(report.variants)) console.log(line);
  console.log(
    'room steps inside the runtime, microseconds: first call in a fresh instance (what a request pays), repeated, ' +
      'and first call when the snapshot was warmed at build time',
  );
  console.table(report.roomSteps);
}

/** The aim for many rooms and rules: what they may add to a returning admitted visitor. */
export const ROUTING_AIM_MS = 0.05;

const lookups = (f: SideFigures): string => (f.lookups === null ? '?' : String(f.lookups));

/** The many-rooms pair as printed: the room's own time, the difference and ratio, the lookups. */
export function routingLines(r: RoutingCost): string[] {
  const lines = [
    `\n${r.rooms} rooms and ${r.rules} rules (bench/fixtures/routing-20-rooms.json, ${r.routingChars.toLocaleString('en-US')} of 8,000 characters), ` +
      `a returning admitted visitor of the last room, no rule matching: the room's own time ${r.manyRooms.medianUs} us median (p90 ${r.manyRooms.p90Us}) ` +
      `against ${r.oneRoom.medianUs} us (p90 ${r.oneRoom.p90Us}) for one room and no rules: ${r.differenceMs >= 0 ? '+' : ''}${r.differenceMs} ms, ` +
      `${r.ratio}x (aim: at most +${ROUTING_AIM_MS} ms)`,
  ];
  if (r.oneRoom.lookups === null && r.manyRooms.lookups === null)
    lines.push(
      '  Config Store lookups per request: not counted by this host (a host with lookup counting prints them with -vv)',
    );
  else
    lines.push(
      `  Config Store lookups per request: ${lookups(r.manyRooms)} with ${r.rooms} rooms and ${r.rules} rules, ${lookups(r.oneRoom)} with one room (Fastly allows 32)`,
    );
  const unexpected = r.oneRoom.unexpected + r.manyRooms.unexpected;
  if (unexpected > 0)
    lines.push(
      `  WARNING: ${unexpected} answers were not the admitted visitor's (not from the origin, or untimed): these figures measure something else`,
    );
  return lines;
}

/** Writes the report as JSON under reports/ and says where. */
export async function writeReport(report: RoomReport, name: string): Promise<void> {
  const out = path.join(repoRoot, 'reports', name);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`figures written to ${path.relative(process.cwd(), out)}`);
}
