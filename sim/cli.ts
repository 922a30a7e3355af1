// npm run simulate -- [--scenario NAME[,NAME]] [--seed S] [--visitors N] [--out DIR]
import { parseArgs } from 'node:util';
import { computeFigures, type ScenarioFigures } from './figures.js';
import { writeReport } from './report.js';
import { runScenario } from './run.js';
import { scenarios, findScenario, type Scenario } from './scenarios.js';

const usage = `Usage: npm run simulate -- [options]
  --scenario NAME   one or more of ${scenarios.map((s) => s.name).join(', ')} (comma-separated or repeated); default all
  --seed S          seed for visitors and signing key (default 1): same seed, same report
  --visitors N      population size for every chosen scenario (default: each scenario's own)
  --out DIR         where report.md, figures.json and the SVG charts go (default reports/sim)`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
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
  const names = (values.scenario ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  const chosen: Scenario[] = names.length === 0 ? [...scenarios] : names.map((n) => findScenario(n) ?? fail(`--scenario: unknown scenario "${n}"`));
  let visitors: number | undefined;
  if (values.visitors !== undefined) {
    visitors = Number(values.visitors);
    if (!Number.isSafeInteger(visitors) || visitors < 1) fail(`--visitors: "${values.visitors}" is not a whole number >= 1`);
  }
  const seed = values.seed!;
  const all: ScenarioFigures[] = [];
  for (const scenario of chosen) {
    const result = await runScenario(scenario, { seed, visitors });
    const f = computeFigures(result);
    all.push(f);
    const s = f.smoothness;
    console.log(
      `${scenario.name.padEnd(12)} ${String(f.actors).padStart(6)} visitors, ${String(f.admitted).padStart(6)} admitted` +
        (s ? `, peak/mean ${s.peakToMean.toFixed(2)}, boundary share ${(100 * s.boundaryShare).toFixed(1)}%` : '') +
        (f.waits[0] ? `, median wait ${f.waits[0].observed.p50?.toFixed(0) ?? '–'} s (page said ${f.waits[0].predicted.p50?.toFixed(0) ?? '–'})` : '') +
        `  [${f.decisions} decisions, ${(f.elapsedMs / 1000).toFixed(1)} s]`,
    );
  }
  const files = await writeReport(values.out!, seed, all);
  console.log(`wrote ${files.length} files to ${values.out}/ (report.md, figures.json, ${files.length - 2} charts)`);
}

await main();
