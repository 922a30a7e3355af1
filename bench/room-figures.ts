// The figures of bench/room.ts, from the rounds' samples: each scenario's latency, throughput and host
// CPU per request, and each as a multiple of its pass-through baseline; the hosts' resident memory.
import { readFileSync } from 'node:fs';
import { quantile, quantileOf } from '../lib/quantiles.js';
import type { Sample } from './room-load.js';
import { baselineOf, type Scenario } from './room-scenarios.js';

export const round2 = (n: number): number => Math.round(n * 100) / 100;

export interface ScenarioFigures {
  name: string;
  what: string;
  requests: number;
  errors: number;
  unexpectedAnswers: number;
  medianMs: number;
  p99Ms: number;
  reqPerSec: number;
  hostCpuMsPerRequest: number;
  hostMainThreadCpuMsPerRequest: number;
  perRoundMedianMs: number[];
  baseline: string;
  // Cost ratios: > 1 means the scenario costs more than its pass-through baseline.
  medianRatio: number;
  p99Ratio: number;
  throughputCostRatio: number;
  throughputCostRatioRoundMedian: number;
  hostCpuRatio: number;
}

type OwnFigures = Omit<
  ScenarioFigures,
  'baseline' | 'medianRatio' | 'p99Ratio' | 'throughputCostRatio' | 'throughputCostRatioRoundMedian' | 'hostCpuRatio'
>;

function ownFigures(scenario: Scenario, all: Sample[]): OwnFigures {
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
}

/** Every scenario's figures, with its ratios to the pass-through serving the same page. */
export function scenarioFigures(scenarios: Scenario[], samples: Map<string, Sample[]>): ScenarioFigures[] {
  const figures = scenarios.map((scenario) => ownFigures(scenario, samples.get(scenario.name)!));
  return figures.map((f) => {
    const base = figures.find((b) => b.name === baselineOf(f.name))!;
    // The same ratio within each round (the two ran seconds apart), then its median over rounds:
    // steadier than the pooled ratio when the machine's load drifts during the run.
    const own = samples.get(f.name)!;
    const theirs = samples.get(base.name)!;
    const perRound = own.map(
      (s, r) => theirs[r]!.latenciesMs.length / theirs[r]!.elapsedMs / (s.latenciesMs.length / s.elapsedMs),
    );
    return {
      ...f,
      baseline: base.name,
      medianRatio: round2(f.medianMs / base.medianMs),
      p99Ratio: round2(f.p99Ms / base.p99Ms),
      throughputCostRatio: round2(base.reqPerSec / f.reqPerSec),
      throughputCostRatioRoundMedian: round2(quantileOf(perRound, 0.5)),
      hostCpuRatio: round2(f.hostCpuMsPerRequest / base.hostCpuMsPerRequest),
    };
  });
}

export interface Memory {
  passthroughRssMiB: number;
  roomRssMiB: number;
  workersPerHost: number;
}

/** Resident memory of a process now (all its threads together), MiB. */
const rssMiB = (pid: number): number =>
  round2(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/** Resident memory of the pass-through's host and the room's, each keeping `workers` workers. */
export function residentMemory(passthroughPid: number, roomPid: number, workers: number): Memory {
  return { passthroughRssMiB: rssMiB(passthroughPid), roomRssMiB: rssMiB(roomPid), workersPerHost: workers };
}
