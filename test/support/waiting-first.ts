// The order `npm test` runs its files in. Vitest runs one project after another, by name, so on two
// workers the long waits of the browser and Wasm suites (a Chromium, a host, a crowd in real time,
// minutes a file) would meet the end of the run alone; started first, they overlap the unit and sim
// files, whose seconds each then fill the gaps to the end. Within a project vitest's own order stays:
// what failed last time, then the longest, then (on a fresh clone) the largest file first.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The two suites that run minutes in real time (a crowd against the clock; an operator's whole day):
 * each starts at once on a worker of its own, so neither is what the run waits for at its end.
 */
export const LONGEST = ['test/e2e/control-restart.test.ts', 'test/seams/on-sale-day.browser.test.ts'];

/** Projects by how long their files wait on processes, longest first. */
const FIRST = ['browser', 'wasm', 'process', 'sim', 'unit-mocks', 'unit'];

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
