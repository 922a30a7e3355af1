// The law's one calculation: the chance that admits a wanted number of a cohort's tickets.
import { describe, expect, it } from 'vitest';
import { chanceForCount, expectedAdmissions } from '../../../control/model/law.js';

const tickets = (n: number, weight = 1) => Array.from({ length: n }, (_, i) => ({ u: (i + 0.5) / n, weight }));

describe('chanceForCount', () => {
  it('admits exactly the wanted number of known tickets when all come back', () => {
    const view = { known: tickets(1000), unknown: 0 };
    for (const wanted of [1, 37, 300, 999]) {
      const pct = chanceForCount(view, wanted);
      expect(view.known.filter((t) => t.u * 100 < pct)).toHaveLength(wanted);
    }
  });

  it('counts each ticket by the chance its holder comes back', () => {
    const view = { known: tickets(1000, 0.5), unknown: 0 };
    expect(expectedAdmissions(view, chanceForCount(view, 100) / 100)).toBeCloseTo(100, 0);
  });

  it('spreads unknown tickets evenly over the numbers', () => {
    expect(chanceForCount({ known: [], unknown: 400 }, 100)).toBeCloseTo(25, 6);
    const mixed = { known: tickets(200), unknown: 200 };
    expect(expectedAdmissions(mixed, chanceForCount(mixed, 100) / 100)).toBeCloseTo(100, 0);
  });

  it('admits everyone when fewer wait than wanted, and nobody when nothing is wanted', () => {
    expect(chanceForCount({ known: tickets(10), unknown: 0 }, 50)).toBe(100);
    expect(chanceForCount({ known: tickets(10), unknown: 0 }, 0)).toBe(0);
  });

  it('never leaves 0..100', () => {
    for (const wanted of [-5, 0.1, 1e9, Number.NaN]) {
      const pct = chanceForCount({ known: tickets(50), unknown: 3 }, wanted);
      expect(pct).toBeGreaterThanOrEqual(0);
      expect(pct).toBeLessThanOrEqual(100);
    }
  });
});
