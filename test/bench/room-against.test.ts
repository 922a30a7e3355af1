// `BENCH_AGAINST=REV npm run bench`: each of today's scenarios is set beside the older build's of the same
// name, as multiples where more than 1 means today costs more; a commit that is not there is said, not built.
import { describe, expect, it } from 'vitest';
import { againstFigures, buildBefore } from '../../bench/room-against.js';
import type { ScenarioFigures } from '../../bench/room-figures.js';

const figures = (name: string, hostCpuMsPerRequest: number, reqPerSec: number, medianMs: number): ScenarioFigures => ({
  name,
  what: name,
  requests: 100,
  errors: 0,
  unexpectedAnswers: 0,
  medianMs,
  p99Ms: medianMs * 2,
  reqPerSec,
  hostCpuMsPerRequest,
  hostMainThreadCpuMsPerRequest: hostCpuMsPerRequest / 2,
  perRoundMedianMs: [medianMs],
  baseline: 'passthrough',
  medianRatio: 1,
  p99Ratio: 1,
  throughputCostRatio: 1,
  throughputCostRatioRoundMedian: 1,
  hostCpuRatio: 1,
});

const time = (medianUs: number) => ({ requests: 10, medianUs, p90Us: medianUs + 5, untimed: 0 });
const before = { commit: 'a'.repeat(40), room: '/old/main.wasm', timed: '/old/timed.wasm', bundleBytes: 400 };
const sizes = { bundleBytes: { now: 300, before: 400 }, wasmBytes: { now: 10, before: 9 } };

describe('the bench against an older build', () => {
  it("sets each scenario beside the older build's, today over before", () => {
    const a = againstFigures(
      before,
      [
        figures('passthrough', 2, 1000, 1),
        figures('new', 6, 200, 4),
        figures('admitted-256k', 5, 300, 3),
        figures('before:new', 5, 250, 5),
        figures('before:admitted-256k', 5, 300, 3),
      ],
      { new: time(2000) },
      { new: time(2500) },
      sizes,
    );
    expect(a.commit).toBe(before.commit);
    expect(a.rows.map((r) => r.scenario)).toEqual(['new', 'admitted-256k']);
    const [fresh, big] = a.rows;
    // More host CPU and fewer requests a second today: both above 1; a lower median below it.
    expect(fresh).toMatchObject({ hostCpuMsNow: 6, hostCpuMsBefore: 5, hostCpuRatio: 1.2, throughputCostRatio: 1.25 });
    expect(fresh!.medianRatio).toBe(0.8);
    expect(fresh).toMatchObject({ ownUsNow: 2000, ownUsBefore: 2500, ownRatio: 0.8 });
    // The 256 KB page has no time inside the runtime: no such figures, rather than a made-up one.
    expect(big).toMatchObject({ hostCpuRatio: 1, throughputCostRatio: 1 });
    expect(big!.ownRatio).toBeUndefined();
    expect(a.bundleBytes).toEqual({ now: 300, before: 400 });
  });

  it('says a commit this checkout does not have, and builds nothing', () => {
    const built = buildBefore('no-such-commit-anywhere');
    expect(built).toEqual({ missing: expect.stringContaining('no commit no-such-commit-anywhere') });
  });
});
