import { describe, expect, it } from 'vitest';
import type { MinuteRow } from '../../load/tally.js';
import { minuteVerdicts, verdictSummary } from '../../load/verdict.js';

const row = (minute: number, admissions: number, target: number | null = 120): MinuteRow => ({
  minute,
  admissions,
  target,
  arrivals: 0,
  requests: 0,
  gaveUp: 0,
  left: 0,
  errors: 0,
  waiting: 0,
});

describe('minuteVerdicts', () => {
  it('leaves out the first two minutes and judges each later one against ±10%', () => {
    const v = minuteVerdicts([
      row(1, 900),
      row(2, 300),
      row(3, 120),
      row(4, 108),
      row(5, 132),
      row(6, 107),
      row(7, 133),
    ]);
    expect(v.map((x) => x.minute)).toEqual([3, 4, 5, 6, 7]);
    expect(v.map((x) => x.within)).toEqual([true, true, true, false, false]);
    expect(v[1]!.percent).toBeCloseTo(90, 6);
  });

  it('says nothing about a minute without a target', () => {
    const v = minuteVerdicts([row(3, 50, null)]);
    expect(v).toEqual([{ minute: 3, admissions: 50, target: null, percent: null, within: null }]);
    expect(verdictSummary(v)).toBeNull();
  });

  it('takes another tolerance and skip', () => {
    const v = minuteVerdicts([row(1, 126), row(2, 140)], { skipMinutes: 0, tolerance: 0.05 });
    expect(v.map((x) => x.within)).toEqual([true, false]);
    expect(verdictSummary(v, 0.05)).toBe('1 of 2 minutes within ±5% of the target');
  });
});
