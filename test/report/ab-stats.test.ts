// The A/B comparison's statistics against published values: Wilson's interval and Newcombe's difference
// (Newcombe 1998's worked examples), the order-statistic interval of a median (the textbook ranks), and
// Bonett and Price's difference of medians (the examples of the R package statpsych's ci.median2).
import { describe, expect, it } from 'vitest';
import {
  binomialHalfCdf,
  median,
  medianDifference,
  medianInterval,
  normalQuantile,
  shareDifference,
  wilson,
  Z95,
} from '../../report/ab-stats.js';

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

describe('the comparison statistics', () => {
  it('normal quantiles as the tables give them', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(Z95, 8);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306, 8);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621234, 8);
    expect(normalQuantile(1e-9)).toBeCloseTo(-5.997807015, 7);
  });

  it('binomial tails of a fair coin', () => {
    expect(binomialHalfCdf(5, 10)).toBeCloseTo(638 / 1024, 12);
    expect(binomialHalfCdf(0, 10)).toBeCloseTo(1 / 1024, 15);
    expect(binomialHalfCdf(-1, 10)).toBe(0);
    expect(binomialHalfCdf(10, 10)).toBe(1);
    // A million trials: within two standard deviations below the middle, about 2.3%.
    expect(binomialHalfCdf(499_000, 1_000_000)).toBeCloseTo(0.0228, 3);
  });

  it("Wilson's interval: 81 of 263 is 0.2553 to 0.3662 (Newcombe 1998)", () => {
    const w = wilson(81, 263)!;
    expect(w.low).toBeCloseTo(0.2553, 4);
    expect(w.high).toBeCloseTo(0.3662, 4);
    expect(wilson(0, 10)!.low).toBe(0);
    expect(wilson(10, 10)!.high).toBe(1);
    expect(wilson(0, 0)).toBeNull();
  });

  it("Newcombe's hybrid score interval: 56/70 against 48/80 is 0.0524 to 0.3339", () => {
    const d = shareDifference(56, 70, 48, 80)!;
    expect(d.low).toBeCloseTo(0.0524, 4);
    expect(d.high).toBeCloseTo(0.3339, 4);
    // Swapped, the interval is mirrored.
    const back = shareDifference(48, 80, 56, 70)!;
    expect(back.low).toBeCloseTo(-d.high, 12);
    expect(back.high).toBeCloseTo(-d.low, 12);
    expect(shareDifference(1, 0, 1, 2)).toBeNull();
  });

  it('the median, and its order-statistic interval at the ranks the tables give (n = 10: 2nd and 9th; n = 20: 6th and 15th)', () => {
    const ten = sorted([7, 3, 9, 1, 5, 10, 2, 8, 4, 6]);
    expect(median(ten)).toBe(5.5);
    expect(median([4, 1, 9].sort((a, b) => a - b))).toBe(4);
    expect(median([])).toBeNull();
    expect(medianInterval(ten)).toEqual({ low: 2, high: 9 });
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(medianInterval(twenty)).toEqual({ low: 6, high: 15 });
    expect(medianInterval([42])).toEqual({ low: 42, high: 42 });
  });

  it("Bonett and Price's difference of medians: statpsych's three examples", () => {
    const cases = [
      {
        y1: [32, 39, 26, 35, 43, 27, 40, 37, 34, 29],
        y2: [36, 44, 47, 42, 49, 39, 46, 31, 33, 48],
        out: { difference: -8.5, se: 4.316291, low: -16.95977, high: -0.04022524 },
      },
      {
        y1: [32.1, 39.8, 26.3, 35.0, 43.1, 27.0, 40.9, 37.4, 34.0, 29.2],
        y2: [36.8, 44.0, 47.1, 42.7, 49.0, 39.6, 46.2, 31.6, 33.1, 48.4],
        out: { difference: -8.85, se: 4.494993, low: -17.66002, high: -0.0399751 },
      },
      {
        y1: [70, 394, 43, 95, 62, 128, 2, 203, 81, 436, 85, 35, 156, 1, 3, 27, 63, 181, 184, 18],
        y2: [102, 120, 78, 78, 417, 124, 86, 171, 176, 129, 230, 194, 100, 157, 306, 411, 164, 103, 193, 312],
        out: { difference: -85, se: 37.11502, low: -157.7441, high: -12.25589 },
      },
    ];
    for (const { y1, y2, out } of cases) {
      const d = medianDifference(sorted(y1), sorted(y2))!;
      expect(d.difference).toBeCloseTo(out.difference, 10);
      expect(d.standardError).toBeCloseTo(out.se, 5);
      expect(d.interval.low).toBeCloseTo(out.low, 4);
      expect(d.interval.high).toBeCloseTo(out.high, 4);
    }
    expect(medianDifference([], [1, 2])).toBeNull();
  });
});
