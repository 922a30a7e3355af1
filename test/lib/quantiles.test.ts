// Quantiles as the benches and the simulator report them: by nearest rank, always a measured value.
import { describe, expect, it } from 'vitest';
import { median, quantile, quantileOf } from '../../lib/quantiles.js';

describe('quantile', () => {
  it('takes the nearest rank: the smallest value with at least that share at or below it', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(quantile(sorted, 0.5)).toBe(5);
    expect(quantile(sorted, 0.9)).toBe(9);
    expect(quantile(sorted, 0.91)).toBe(10);
    expect(quantile(sorted, 0.99)).toBe(10);
  });

  it('gives the smallest value at 0, the largest at 1, and the value itself for a list of one', () => {
    expect(quantile([3, 8, 9], 0)).toBe(3);
    expect(quantile([3, 8, 9], 1)).toBe(9);
    expect(quantile([42], 0.99)).toBe(42);
  });

  it('is NaN for an empty list, so a scenario that measured nothing cannot pass for a fast one', () => {
    expect(quantile([], 0.5)).toBeNaN();
    expect(quantileOf([], 0.5)).toBeNaN();
  });

  it('picks the 198th of 200 runs as their 99th percentile', () => {
    const runs = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(quantile(runs, 0.99)).toBe(198);
  });
});

describe('quantileOf', () => {
  it('sorts a copy: the same answer for any order, and the list left as it was', () => {
    const values = [9, 1, 5, 3, 7];
    expect(quantileOf(values, 0.5)).toBe(5);
    expect(quantileOf([...values].reverse(), 0.5)).toBe(5);
    expect(values).toEqual([9, 1, 5, 3, 7]);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones for an even count', () => {
    expect(median([7, 1, 4])).toBe(4);
    expect(median([10, 2, 4, 8])).toBe(6);
  });

  it('is null for an empty list', () => {
    expect(median([])).toBeNull();
  });
});
