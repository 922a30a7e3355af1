// One scenario per worker thread: scenarios are independent, and the default run should use every core.
import { parentPort } from 'node:worker_threads';
import { computeFigures, type ScenarioFigures } from './figures.js';
import { runScenario } from './run.js';
import { findScenario } from './scenarios.js';

export interface Job {
  name: string;
  seed: string;
  visitors?: number;
}

export type Reply = { ok: true; figures: ScenarioFigures } | { ok: false; error: string };

parentPort?.on('message', async (job: Job) => {
  try {
    const scenario = findScenario(job.name);
    if (!scenario) throw new Error(`unknown scenario ${job.name}`);
    const figures = computeFigures(await runScenario(scenario, { seed: job.seed, visitors: job.visitors }));
    parentPort!.postMessage({ ok: true, figures } satisfies Reply);
  } catch (error) {
    parentPort!.postMessage({ ok: false, error: String((error as Error)?.stack ?? error) } satisfies Reply);
  }
});
