import { describe, expect, it } from 'vitest';
import { heldBack, heldBackNote } from '../../load/report.js';

describe("the load tool's own delays, per minute", () => {
  it('says nothing when every request went out within a second', () => {
    expect(heldBackNote(heldBack(3, [0, 0, 12, 900]))).toBe('');
  });

  it('names the 95th percentile and the longest wait when the tool held its browsers back', () => {
    const waits = [...Array.from({ length: 90 }, () => 0), ...Array.from({ length: 10 }, (_, i) => 2_000 + i * 500)];
    const h = heldBack(2, waits);
    expect(h).toMatchObject({ minute: 2, requests: 100, maxSeconds: 6.5 });
    // By nearest rank (lib/quantiles.ts): the 95th of 100 waits, 4.0 s; 6 of the 100 waited that long or more.
    expect(h.p95Seconds).toBeCloseTo(4.0);
    expect(heldBackNote(h)).toMatch(
      /held 5% of its requests back 4\.0 s or more .*longest 6\.5 s.*raise --concurrency/,
    );
  });
});
