import { describe, expect, it } from 'vitest';
import { VirtualRateCounter } from '../../sim/rate-counter.js';

describe('the simulator rate counter', () => {
  it('counts what was added within the last N seconds, per entry', () => {
    const c = new VirtualRateCounter();
    c.nowMs = 0;
    c.increment('admitted', 3);
    c.nowMs = 5_000;
    c.increment('admitted', 2);
    c.increment('held', 1);
    c.nowMs = 10_000;
    expect(c.count('admitted', 10)).toBe(2); // the first three are exactly 10 s old: out
    expect(c.count('admitted', 20)).toBe(5);
    expect(c.count('held', 10)).toBe(1);
    expect(c.count('nothing', 10)).toBe(0);
  });

  it('forgets what is over a minute old', () => {
    const c = new VirtualRateCounter();
    for (let t = 0; t < 200_000; t += 10) {
      c.nowMs = t;
      c.increment('admitted', 1);
    }
    c.nowMs = 200_000;
    expect(c.count('admitted', 60)).toBe(5999);
  });
});
