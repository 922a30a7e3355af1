// One scenario per worker thread: scenarios are independent, and the default run should use every core.
import { parentPort } from 'node:worker_threads';
import { findCostScenario } from './cost-scenarios.js';
import { scenarioCosts, type ScenarioCosts } from './costs.js';
import { computeFigures, type ScenarioFigures } from './figures.js';
import { runScenario } from './run.js';
import { findScenario } from './scenarios.js';

export interface Job {
  name: string;
  seed: string;
  visitors?: number;
  /** The cost run (`--costs`): the scenario as cost-scenarios.ts plays it, answered with its requests (costs.ts). */
  costs?: boolean;
}

export type Reply =
  | { ok: true; figures: ScenarioFigures }
  | { ok: true; costs: ScenarioCosts }
  | { ok: false; error: string };

parentPort?.on('message', async (job: Job) => {
  try {
    const scenario = job.costs ? findCostScenario(job.name) : findScenario(job.name);
    if (!scenario) throw new Error(`unknown scenario ${job.name}`);
    const result = await runScenario(scenario, { seed: job.seed, visitors: job.visitors });
    const reply: Reply = job.costs
      ? { ok: true, costs: scenarioCosts(result) }
      : { ok: true, figures: computeFigures(result) };
    parentPort!.postMessage(reply);
  } catch (error) {
    parentPort!.postMessage({ ok: false, error: String((error as Error)?.stack ?? error) } satisfies Reply);
  }
});
