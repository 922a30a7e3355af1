// The report's words for the proof of work's scenarios (bot-figures.ts): one table across them, and
// each scenario's groups.
import type { BotFigures } from './bot-figures.js';
import type { ScenarioFigures } from './figures.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const n1 = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toFixed(1));
/** A Kaplan-Meier percentile the run never reached: fewer than that share of honest visitors got in. */
const wait = (x: number | null): string => (x === null ? 'not reached' : n0(x));
const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`;

const label: Record<string, string> = {
  phone: 'honest, phone',
  laptop: 'honest, laptop',
  nojs: 'honest, no JavaScript',
  farm: 'bot farm (sends `none` when not solved)',
  'farm-naive': 'naive bot farm (no header when not solved)',
};

const farmShare = (b: BotFigures): number | null => {
  const farm = b.groups.filter((g) => g.group === 'farm' || g.group === 'farm-naive');
  return farm.length === 0 || farm[0]!.share === null ? null : farm.reduce((x, g) => x + g.share!, 0);
};

const cpu = (b: BotFigures, group: string): string => {
  const c = b.cpu.find((x) => x.group === group);
  return c === undefined || c.admitted === 0 ? '–' : `${n1(c.p50)} / ${n1(c.p90)}`;
};

/** One row per scenario: the table sim/README.md and docs/bots.md quote. */
export function botRow(f: ScenarioFigures): string | null {
  const b = f.bots;
  if (b === null) return null;
  const c = f.control;
  return `| ${f.name} | ${pct(farmShare(b))} | ${n0(b.honest.admitted)} of ${n0(b.honest.visitors)} | ${wait(b.honest.waitP50)} / ${wait(b.honest.waitP90)} | ${b.farm.solutionsPerSecond === null ? '–' : n1(b.farm.solutionsPerSecond)} | ${pct(b.farm.drawsSolved)} | ${cpu(b, 'phone')} | ${cpu(b, 'laptop')} | ${c === null || c.judged === 0 ? '–' : `${c.withinTenPercent} of ${c.judged}`} | ${n0(b.judgedMean)} / ${n0(b.target)} |`;
}

export const botTableHead = [
  "| scenario | farm's share of admissions | honest admitted | honest wait median / p90 (s) | farm's solutions a second | farm's draws with a valid solution | CPU-seconds per admitted phone, median / p90 | per admitted laptop | judged minutes within ±10% | judged minutes' mean admissions / target |",
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];

export function botHeadline(all: readonly ScenarioFigures[]): string {
  const rows = all.map(botRow).filter((r) => r !== null);
  if (rows.length === 0) return '';
  return ['A bot farm against the proof of work (docs/bots.md, "What it costs"):', '', ...botTableHead, ...rows].join(
    '\n',
  );
}

export function botSection(f: ScenarioFigures): string[] {
  const b = f.bots;
  if (b === null) return [];
  const checks = (p: Record<string, number>): string =>
    Object.entries(p)
      .map(([k, v]) => `${n0(v)} ${k}`)
      .join(', ') || '–';
  return [
    '',
    `- The farm: ${n0(b.farm.identities)} identities on ${b.farm.cores} cores at ${n0(b.farm.coreRate)} SHA-256 a second each; ${n0(b.farm.solutions)} solutions ready in time (${b.farm.solutionsPerSecond === null ? '–' : n1(b.farm.solutionsPerSecond)} a second), ${n0(b.farm.givenUp)} puzzles given up; ${pct(b.farm.drawsSolved)} of its draws came with a valid solution.`,
    `- Honest visitors: ${n0(b.honest.admitted)} of ${n0(b.honest.visitors)} admitted; wait from the first waiting page (Kaplan-Meier, those who gave up censored) median ${wait(b.honest.waitP50)}, p90 ${wait(b.honest.waitP90)} (seconds).`,
    '',
    '| who | identities | admitted | share of admissions | draws judged | of them won |',
    '|---|---:|---:|---:|---|---|',
    ...b.groups.map(
      (g) =>
        `| ${label[g.group] ?? g.group} | ${n0(g.identities)} | ${n0(g.admitted)} | ${pct(g.share)} | ${checks(g.proof)} | ${checks(g.won)} |`,
    ),
    '',
    '| device | admitted | CPU-seconds solving, median | p90 | mean |',
    '|---|---:|---:|---:|---:|',
    ...b.cpu.map((c) => `| ${c.group} | ${n0(c.admitted)} | ${n1(c.p50)} | ${n1(c.p90)} | ${n1(c.mean)} |`),
  ];
}
