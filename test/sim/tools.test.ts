// The simulator's own machinery: if these are wrong, every figure in the report is.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { riskRatio, spearman, survivalQuantiles, wilson } from '../../sim/stats.js';
import { briefSessions, run, scenario } from './support.js';

describe('virtual clock', () => {
  it('runs actions in time order, same-time actions in the order they were queued', async () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    clock.at(300, () => void seen.push('c'));
    clock.at(100, () => {
      seen.push('a');
      clock.at(200, () => void seen.push('b2'));
    });
    clock.at(200, () => void seen.push('b1'));
    clock.at(900, () => void seen.push('late'));
    await clock.run(500);
    expect(seen).toEqual(['a', 'b1', 'b2', 'c']);
    expect(clock.nowMs).toBe(500);
    expect(clock.pending).toBe(1);
  });
});

describe('statistics', () => {
  it('ranks perfectly ordered, reversed and tied data as Spearman should', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    // Ties take their average rank: ranks (1.5, 1.5, 3) vs (1, 2, 3) -> 0.866.
    expect(spearman([5, 5, 9], [1, 2, 3])).toBeCloseTo(Math.sqrt(3) / 2);
  });

  it('counts visitors who gave up as censored, not as short waits', () => {
    // Four admitted at 10, 20, 30, 40 s; two gave up at 5 s. Counted as admitted at 5 s they would pull
    // the median down to 10; censored, they leave four at risk and the median is 20.
    const samples = [10, 20, 30, 40].map((time) => ({ time, admitted: true }));
    samples.push({ time: 5, admitted: false }, { time: 5, admitted: false });
    expect(survivalQuantiles(samples, [0.25, 0.5, 1])).toEqual([10, 20, 40]);
    // One more at risk who leaves at 35 s: survival 0.8, 0.6, 0.4 after 10, 20, 30 s, so the 75th
    // percentile is only reached by the admission at 40 s.
    expect(survivalQuantiles([...samples, { time: 35, admitted: false }], [0.75])).toEqual([40]);
  });

  it('gives intervals that contain the estimate and shrink with more data', () => {
    const small = wilson(5, 10)!;
    const large = wilson(500, 1000)!;
    expect(small.low).toBeLessThan(0.5);
    expect(small.high).toBeGreaterThan(0.5);
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
    const rr = riskRatio(60, 100, 30, 100)!;
    expect(rr.value).toBeCloseTo(2);
    expect(rr.low).toBeGreaterThan(1);
    expect(riskRatio(0, 100, 30, 100)!.value).toBe(0);
  });
});

describe('reproducibility', () => {
  it('gives the same admissions for the same seed, and a different lottery for another', async () => {
    const small = briefSessions(scenario('flash', { durationMs: 6 * 60_000 }));
    const one = await run(small, 150, 'same');
    const two = await run(small, 150, 'same');
    const other = await run(small, 150, 'other');
    expect(two.result.trace.admissionsMs).toEqual(one.result.trace.admissionsMs);
    expect(other.result.trace.admissionsMs).not.toEqual(one.result.trace.admissionsMs);
  });
});

describe('command line', () => {
  const cli = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'sim/cli.ts', ...args]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );

  it('names the flag when a scenario or a size is wrong, and exits 2', async () => {
    const unknown = await cli(['--scenario', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--scenario: unknown scenario "nope"');
    const size = await cli(['--visitors', 'many']);
    expect(size.code).toBe(2);
    expect(size.stderr).toContain('--visitors');
  });

  it('--update reruns one scenario into a report and keeps every other one, and names what is missing', async () => {
    const out = await mkdtemp(join(tmpdir(), 'sim-update-'));
    try {
      const missing = await cli(['--scenario', 'nojitter', '--visitors', '20', '--out', out, '--update']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(`--update: cannot read ${join(out, 'figures.json')}`);
      expect((await cli(['--scenario', 'steady,nojitter', '--visitors', '20', '--out', out])).code).toBe(0);
      const before = JSON.parse(await readFile(join(out, 'figures.json'), 'utf8')) as {
        scenarios: { name: string; visitors: number }[];
      };
      expect((await cli(['--scenario', 'nojitter', '--visitors', '30', '--out', out, '--update'])).code).toBe(0);
      const after = JSON.parse(await readFile(join(out, 'figures.json'), 'utf8')) as {
        scenarios: { name: string; visitors: number }[];
      };
      expect(after.scenarios.map((f) => [f.name, f.visitors])).toEqual([
        ['steady', 20],
        ['nojitter', 30],
      ]);
      expect(after.scenarios[0]).toEqual(before.scenarios[0]);
      const report = await readFile(join(out, 'report.md'), 'utf8');
      expect(report).toContain('(`steady`)');
      expect(report).toContain('(`nojitter`)');
      const otherSeed = await cli([
        '--scenario',
        'nojitter',
        '--visitors',
        '20',
        '--out',
        out,
        '--update',
        '--seed',
        '2',
      ]);
      expect(otherSeed.code).toBe(2);
      expect(otherSeed.stderr).toContain('pass --seed 1');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});
