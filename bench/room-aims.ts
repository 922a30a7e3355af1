// The room's performance aims, each beside the figure this run measured and a verdict, so a change to
// the edge that undoes a gain says so at the end of `npm run bench` (and of its quick variant).
import { ROUTING_AIM_MS, type RoomReport } from './room-report.js';

export interface AimLine {
  aim: string;
  figure: string;
  verdict: 'met' | 'not met' | 'not measured';
}

const verdict = (value: number | null | undefined, ok: (v: number) => boolean): AimLine['verdict'] =>
  value === null || value === undefined || !Number.isFinite(value) ? 'not measured' : ok(value) ? 'met' : 'not met';

const shown = (value: number | null | undefined, unit: string): string =>
  value === null || value === undefined || !Number.isFinite(value) ? '-' : `${value}${unit}`;

/** Every aim with this run's figure; an aim whose part of the bench did not run is "not measured". */
export function aimLines(report: RoomReport): AimLine[] {
  const scenario = (name: string) => report.scenarios.find((f) => f.name === name);
  const own = (name: string) => report.roomTime[name]?.medianUs;
  const step = (name: string) => report.roomSteps[name]?.coldUsWithInitWarmup;
  const language = report.language ?? null;
  const ratio = (a: number | undefined, b: number | undefined): number | null =>
    a === undefined || b === undefined || b === 0 ? null : Number((a / b).toFixed(2));
  const lines: Array<[string, number | null | undefined, string, (v: number) => boolean]> = [
    [
      "returning admitted visitor: host CPU, x the pass-through's",
      scenario('admitted')?.hostCpuRatio,
      'x',
      (v) => v <= 1.5,
    ],
    ["returning admitted visitor: the room's own time (median)", own('admitted'), ' us', (v) => v <= 200],
    [
      "a token the sandbox has not seen: host CPU, x the pass-through's",
      scenario('admitted-unseen')?.hostCpuRatio,
      'x',
      (v) => v <= 2,
    ],
    [
      'waiting page in French, x the build before the languages (own time)',
      language?.negotiatedRatio,
      'x',
      (v) => v <= 1,
    ],
    [
      'waiting page in English, x the build before the languages (own time)',
      ratio(language?.english.medianUs, language?.before?.medianUs),
      'x',
      (v) => v <= 1,
    ],
    [
      'admitted visitor, x the build before the languages (own time)',
      ratio(language?.admitted.medianUs, language?.admittedBefore?.medianUs),
      'x',
      (v) => v <= 1,
    ],
    [
      "a fresh sandbox's first waiting page, with the warm-up (handle())",
      step('handle(): waiting, keepwaiting page'),
      ' us',
      (v) => v <= 2000,
    ],
    [
      "a fresh sandbox's first admitted request, with the warm-up (handle())",
      step('handle(): admitted, origin stubbed'),
      ' us',
      (v) => v <= 1500,
    ],
    ['20 rooms and 50 rules, over one room (ms)', report.routing?.differenceMs, ' ms', (v) => v <= ROUTING_AIM_MS],
  ];
  const out: AimLine[] = lines.map(([aim, value, unit, ok]) => ({
    aim,
    figure: shown(value, unit),
    verdict: verdict(value, ok),
  }));
  const against = report.against;
  for (const [what, sizes] of [
    ['bundle', against?.bundleBytes],
    ['bin/main.wasm', against?.wasmBytes],
  ] as const) {
    out.push({
      aim: `${what} smaller than ${against ? against.commit.slice(0, 7) : 'the older build (BENCH_AGAINST)'}'s`,
      figure: sizes
        ? `${sizes.now.toLocaleString('en-US')} against ${sizes.before.toLocaleString('en-US')} bytes`
        : '-',
      verdict: sizes ? (sizes.now < sizes.before ? 'met' : 'not met') : 'not measured',
    });
  }
  return out;
}

export function printAims(report: RoomReport): void {
  console.log("\nthe aims (docs/performance.md), each beside this run's figure:");
  console.table(aimLines(report));
}
