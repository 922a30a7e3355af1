// The order `npm test` runs its files in. Vitest runs one project after another, by name, so the two
// suites that run minutes in real time would meet the end of the run alone: they start first, each on
// a worker of its own. While they run, the third worker takes the in-process files (unit, sim): each
// uses one core at most, where a Wasm, process or browser file starts hosts and browsers whose bursts
// of threads make the controller's crowd late (its minutes then overshoot the target on a 2-core
// machine). The files that start processes follow, on every worker once the long suites end. Within a
// project vitest's own order stays: what failed last time, then the longest, then (on a fresh clone)
// the largest file first.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The two suites that run minutes in real time (a crowd against the clock; an operator's whole day):
 * each starts at once on a worker of its own, so neither is what the run waits for at its end.
 */
export const LONGEST = ['test/e2e/control-restart.test.ts', 'test/seams/on-sale-day.browser.test.ts'];

/** Projects in the order they run after the long suites: in-process first, then those that start processes. */
const FIRST = ['unit', 'unit-mocks', 'sim', 'browser', 'wasm', 'process'];

const rank = (spec: TestSpecification): number => {
  if (LONGEST.some((file) => spec.moduleId.endsWith(`/${file}`))) return -1;
  const i = FIRST.indexOf(spec.project.name);
  return i < 0 ? FIRST.length : i;
};

export class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: vitest's order holds within a project.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
