// The origin's times kept for any percentile: exact to the ms under a second, three figures above.
import { describe, expect, it } from 'vitest';
import { TimeHistogram, timeKey } from '../../report/time-histogram.js';

describe("the report's histogram of the origin's times", () => {
  it('reads a percentile by nearest rank, exact under a second', () => {
    const h = new TimeHistogram();
    for (let ms = 1; ms <= 100; ms++) h.add(ms);
    expect(h.quantile(0.5)).toBe(50);
    expect(h.quantile(0.9)).toBe(90);
    expect(h.quantile(0.999)).toBe(100);
    expect(new TimeHistogram().quantile(0.9)).toBeNull();
  });

  it('keeps a longer time to three significant figures, and merges minutes', () => {
    expect([999, 1_000, 1_504, 1_506, 12_345, 987_654].map(timeKey)).toEqual([
      999, 1_000, 1_500, 1_510, 12_300, 988_000,
    ]);
    const a = new TimeHistogram();
    const b = new TimeHistogram();
    for (let i = 0; i < 9; i++) a.add(300);
    b.add(2_000);
    a.merge(b);
    expect(a.count).toBe(10);
    expect(a.quantile(0.9)).toBe(300);
    expect(a.quantile(0.95)).toBe(2_000);
  });
});
