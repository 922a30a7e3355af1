// The synthetic decision lines of `npm run bench:ingest`: lines the controller reads as the edge's,
// sampled as the edge samples, that add up to the crowd they stand for.
import { describe, expect, it } from 'vitest';
import { IngestLines } from '../../bench/ingest-lines.js';
import { parseLogLine } from '../../control/sources/index.js';
import { Ledger } from '../../control/model/index.js';

const D = 30;
const START = Date.UTC(2026, 10, 27, 9);

function feed(rate: number, visitors: number, windows: number): { ledger: Ledger; lines: number } {
  const ledger = new Ledger();
  const gen = new IngestLines({ visitors, d: D, rate, admitsPerWindow: 100, startMs: START });
  let lines = 0;
  for (let k = 0; k < windows; k++) {
    for (const { lines: chunk } of gen.window(k)) {
      for (const text of chunk) {
        const v = parseLogLine(text, START + 3_600_000);
        if (v.kind !== 'decision') throw new Error(`not a decision line: ${text}`);
        ledger.observe(v.line);
        lines++;
      }
    }
  }
  return { ledger, lines };
}

describe('the synthetic decision lines', () => {
  it('are a queue of N the controller counts as N, sampled or not, at the admissions aimed at', () => {
    const n = 20_000;
    const full = feed(1, n, 2);
    const sampled = feed(0.1, n, 2);
    // One line a visitor a window, and the admissions; a tenth sample logs about 2 in 10 (a line is
    // logged when either of its wait tokens is in the sample).
    expect(full.lines).toBeGreaterThan(2 * n);
    expect(sampled.lines).toBeLessThan(0.25 * full.lines);
    for (const { ledger } of [full, sampled]) {
      const waiting = ledger.waiting(START / 1000 + 2 * D).total;
      expect(waiting).toBeGreaterThan(0.9 * n);
      expect(waiting).toBeLessThan(1.1 * n);
      expect(ledger.windows.get(START / 1000 + D)?.admissions).toBeGreaterThan(60);
      expect(ledger.windows.get(START / 1000 + D)?.admissions).toBeLessThan(140);
    }
  });
});
