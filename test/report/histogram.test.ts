// Waits in a bounded histogram: quantiles within 2% of the exact ones.
import { describe, expect, it } from 'vitest';
import { WaitHistogram } from '../../report/histogram.js';
import { quantileOf } from '../../lib/quantiles.js';

describe('the wait histogram', () => {
  it('gives p50, p90 and p99 within 2% of the waits measured, in a few hundred buckets', () => {
    const waits = Array.from({ length: 50_000 }, (_, i) => 3 + ((i * 7919) % 50_000) / 10);
    const h = new WaitHistogram();
    for (const w of waits) h.add(w);
    for (const q of [0.5, 0.9, 0.99]) expect(Math.abs(h.quantile(q)! / quantileOf(waits, q) - 1)).toBeLessThan(0.02);
    expect(h.count).toBe(waits.length);
  });

  it('says nothing of no waits, and 0 of waits under a second', () => {
    const h = new WaitHistogram();
    expect(h.quantile(0.5)).toBeNull();
    h.add(0.2);
    expect(h.quantile(0.99)).toBe(0);
  });
});
