// The seeded stream the simulator and the load tool draw from: a run must repeat from its seed alone.
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../lib/random.js';

const mean = (xs: number[]): number => xs.reduce((s, v) => s + v, 0) / xs.length;

describe('createRandom', () => {
  it('repeats a seeded stream and forks independent ones', () => {
    const a = createRandom('x');
    const b = createRandom('x');
    const first = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(first);
    expect(createRandom('x').fork('y').next()).not.toBe(first[0]);
    expect(createRandom('y').next()).not.toBe(first[0]);
  });

  it('draws each distribution with the parameters it is given', () => {
    const rng = createRandom('distributions');
    const n = 20_000;
    expect(mean(Array.from({ length: n }, () => rng.exponential(3)))).toBeCloseTo(3, 0);
    const uniform = Array.from({ length: n }, () => rng.uniform(5, 7));
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...uniform)).toBeLessThan(7);
    expect(mean(uniform)).toBeCloseTo(6, 1);
    // A log-normal's median is the median given, whatever the sigma.
    const logNormal = Array.from({ length: n }, () => rng.logNormal(150, 0.6)).sort((x, y) => x - y);
    expect(logNormal[n / 2]! / 150).toBeGreaterThan(0.95);
    expect(logNormal[n / 2]! / 150).toBeLessThan(1.05);
    const ints = new Set(Array.from({ length: 1000 }, () => rng.int(4)));
    expect([...ints].sort()).toEqual([0, 1, 2, 3]);
  });

  it('keeps every number in [0, 1)', () => {
    const rng = createRandom('range');
    for (let i = 0; i < 100_000; i++) {
      const u = rng.next();
      if (!(u >= 0 && u < 1)) throw new Error(`draw ${i} out of range: ${u}`);
    }
  });
});
