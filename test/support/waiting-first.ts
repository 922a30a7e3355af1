// The order `npm test` runs its files in, within each of the groups of projects (vitest.config.ts).
// In the first, the realtime suites (a crowd against the clock; an operator's whole day, minutes each)
// start at once, each on a worker of its own, so neither is what the group waits for at its end, and
// the files that run no guest fill the worker beside them: the tools as processes first, then the sim's
// crowds, then the unit files' seconds. In the second, the browser files (a Chromium each) start before
// the Wasm ones, so their waits overlap the shorter files that then fill the gaps to the end. Within a
// project vitest's own order stays: what failed last time, then the longest, then (on a fresh clone)
// the largest file first.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Projects by how long their files wait on the clock or on processes, longest first (a group at a time). */
export const FIRST = ['realtime', 'process', 'browser', 'wasm', 'sim', 'unit-mocks', 'unit', 'alone'];

const rank = (spec: TestSpecification): number => {
  const i = FIRST.indexOf(spec.project.name);
  return i < 0 ? FIRST.length : i;
};

export class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: vitest's order holds within a project.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
