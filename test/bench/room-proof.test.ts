// The bench of the proof of work: the token it draws is due and loses its draw whether or not a proof
// comes (so the two answers differ only by the check), and it prints the check and the challenge as a
// difference and a ratio, with a warning when an answer was not the waiting page measured.
import { describe, expect, it } from 'vitest';
import { claimsOf } from '../../lib/mint.js';
import { dueLosingToken, proofCostLines, type ProofCost } from '../../bench/room-proof.js';
import { drawValue, dueAt, signatureOf, staleAt } from '../../src/core/decision/draw.js';

const keyBytes = Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + 1) & 255);
const D = 3600;

describe('the proof bench', () => {
  // Early in a window, late in one (the previous window's tokens about to go stale), and on a boundary.
  for (const now of [1_800_000_000 + 5, 1_800_000_000 + 3590, 1_800_003_600]) {
    it(`draws a due token that loses at the chance, far from stale (now = window start + ${now % D} s)`, async () => {
      const { token, visitor } = await dueLosingToken(keyBytes, 'k1', 'proof', D, 50, now);
      const { exp, room } = claimsOf(token);
      expect(room).toBe('proof');
      expect(visitor).toMatch(/^bench-proof-\d+$/);
      expect(dueAt(token, exp, { waitPeriodSeconds: D })).toBeLessThanOrEqual(now);
      expect(staleAt(exp, { waitPeriodSeconds: D }) - now).toBeGreaterThanOrEqual(600);
      expect(drawValue(signatureOf(token)) * 100).toBeGreaterThanOrEqual(50);
    });
  }

  const time = (medianUs: number, unexpected = 0) => ({
    requests: 10,
    medianUs,
    p90Us: medianUs + 5,
    untimed: 0,
    unexpected,
  });
  const cost: ProofCost = {
    seconds: 0.5,
    valid: time(130),
    missing: time(100),
    checkUs: 30,
    checkRatio: 1.3,
    challenge: time(250),
    plain: time(100),
    challengeUs: 150,
    challengeRatio: 2.5,
  };

  it('prints the check and the challenge as a difference and a ratio', () => {
    const lines = proofCostLines(cost).join('\n');
    expect(lines).toContain(
      'checking a solution: a due token with its right solution 130 us median (p90 135) against the same draw without one 100 us median (p90 105): +30 us, 1.3x',
    );
    expect(lines).toContain(
      'the challenge in a waiting answer (1 HMAC + 8 SHA-256): 250 us median (p90 255) against a room asking none 100 us median (p90 105): +150 us, 2.5x',
    );
    expect(lines).not.toContain('WARNING');
  });

  it('warns when answers were not the waiting page it meant to time', () => {
    expect(proofCostLines({ ...cost, valid: time(130, 3) }).at(-1)).toMatch(
      /^ {2}WARNING: 3 answers .* measure something else$/,
    );
  });
});
