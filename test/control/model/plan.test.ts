// The plan with a sampled log: a cohort the controller sees through a sample is weighed as the crowd
// it stands for, so the chance admits the wanted number even when one sampled ticket stands for more.
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../../control/model/ledger.js';
import { planWindows } from '../../../control/model/plan.js';
import { inLogSample } from '../../../src/core/log/log-sample.js';
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
      ledger.observe(
        parsedLine(
          {
            tsMs: (T - 2 * D + 1) * 1000,
            reason: 'no_token',
            newTid: tid,
            newExp: T + D,
            newDec: 'wait',
            weight: 1 / rate,
          },
          D,
        ),
      );
      n++;
    }
    const [first] = planWindows(
      { ledger, nowSec: T + 1, d: D, wanted: () => 500, returnRate: 1, arrivalRate: 0, firm: new Map() },
      T + D,
      T + D,
    );
    expect(first!.drawing).toBeCloseTo(2_000_000, -3);
    // The chance for 500 of 2,000,000: 0.025%, its expected admissions 500, not 0 or 1,000.
    expect(first!.expected).toBeGreaterThan(450);
    expect(first!.expected).toBeLessThan(550);
    expect(first!.pct).toBeCloseTo(0.025, 3);
  });
});

describe('planWindows while the draws get a share of the chance (a proof of work not brought)', () => {
  /** 1,000 tickets for the cohort of T + D, seen whole. */
  function ledgerOf(n: number): Ledger {
    const ledger = new Ledger();
    for (let i = 0; i < n; i++)
      ledger.observe(
        parsedLine(
          { tsMs: (T - 2 * D + 1) * 1000, reason: 'no_token', newTid: id(i), newExp: T + D, newDec: 'wait' },
          D,
        ),
      );
    return ledger;
  }
  const input = (ledger: Ledger, share: number, wanted = 100) => ({
    ledger,
    nowSec: T + 1,
    d: D,
    wanted: () => wanted,
    returnRate: 1,
    arrivalRate: 0,
    firm: new Map<number, number>(),
    share: () => share,
  });

  it('publishes the chance the law needs divided by the share, and expects the wanted admissions', () => {
    const ledger = ledgerOf(1000);
    const [full] = planWindows(input(ledger, 1), T + D, T + D);
    const [fifth] = planWindows(input(ledger, 0.2), T + D, T + D);
    expect(full!.pct).toBeCloseTo(10, 0);
    // Draws without a proof get a fifth of what is published: 50% published, 10% drawn, 100 admitted.
    expect(fifth!.pct).toBeCloseTo(5 * full!.pct, 6);
    expect(fifth!.expected).toBeCloseTo(full!.expected, 6);
    expect(fifth!.expected).toBeGreaterThan(90);
    expect(fifth!.expected).toBeLessThan(110);
  });

  it('publishes at most 100, and then expects only the share of the cohort', () => {
    const [w] = planWindows(input(ledgerOf(1000), 0.2, 400), T + D, T + D);
    expect(w!.pct).toBe(100);
    // A fifth of the cohort, by the tickets' own draw numbers (224 of these 1,000 lie below 0.2).
    expect(w!.expected).toBeGreaterThan(150);
    expect(w!.expected).toBeLessThan(250);
  });

  it('follows the losers at the chance the draws got: the next cohort carries the cohort less those admitted', () => {
    const [first, next] = planWindows(input(ledgerOf(1000), 0.2, 400), T + D, T + 2 * D);
    // 1,000 drew at T + D at 100 published, 20 drawn: about 200 got in, about 800 draw again at T + 2D
    // (not the 600 that 400 admitted would leave).
    expect(next!.drawing).toBeCloseTo(1000 - first!.expected, 0);
    expect(next!.drawing).toBeGreaterThan(740);
  });
});
