// The plan with a sampled log: a cohort the controller sees through a sample is weighed as the crowd
// it stands for, so the chance admits the wanted number even when one sampled ticket stands for more.
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../control/model/ledger.js';
import { planWindows } from '../../../control/model/plan.js';
import { inLogSample } from '../../../src/core/log-sample.js';
import { parsedLine } from '../lines.js';

const D = 30;
const T = 1_800_000_000 - (1_800_000_000 % D);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function id(i: number): string {
  let x = (i * 2654435761) >>> 0;
  let s = '';
  for (let k = 0; k < 8; k++) {
    x = (Math.imul(x ^ (x >>> 15), 2246822519) + 374761393 + k) >>> 0;
    s += ALPHABET[x >>> 26]!;
  }
  return s;
}

describe('planWindows with a sampled cohort', () => {
  it('admits about the wanted number when each sampled ticket stands for 1,000', () => {
    const ledger = new Ledger();
    const rate = 0.001;
    let n = 0;
    // 2,000,000 visitors' tickets, seen through a 0.1% sample: about 2,000 lines of weight 1,000.
    for (let i = 0; n < 2000; i++) {
      const tid = id(i);
      if (!inLogSample(tid, rate)) continue;
      ledger.observe(parsedLine({ tsMs: (T - 2 * D + 1) * 1000, reason: 'no_token', newTid: tid, newExp: T + D, newDec: 'wait', weight: 1 / rate }, D));
      n++;
    }
    const [first] = planWindows({ ledger, nowSec: T + 1, d: D, wanted: () => 500, returnRate: 1, arrivalRate: 0, firm: new Map() }, T + D, T + D);
    expect(first!.drawing).toBeCloseTo(2_000_000, -3);
    // The chance for 500 of 2,000,000: 0.025%, its expected admissions 500, not 0 or 1,000.
    expect(first!.expected).toBeGreaterThan(450);
    expect(first!.expected).toBeLessThan(550);
    expect(first!.pct).toBeCloseTo(0.025, 3);
  });
});
