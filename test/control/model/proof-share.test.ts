// The share of the published chance the draws really get while a proof of work is asked: what the
// plan divides its chance by, so a crowd that sends no proof is still admitted at the target.
import { describe, expect, it } from 'vitest';
import {
  effectiveShare,
  MAX_WINDOWS,
  observeDrawShare,
  pruneDrawShares,
  type DrawShares,
} from '../../../control/model/proof-share.js';
import type { DecisionLine } from '../../../control/types.js';
import { parsedLine } from '../lines.js';

const D = 30;
const W = 1_800_000_000;

/** `n` draws in window `win` at a published chance `chance`, the proof as given, at a free share of 0.2. */
function draws(
  shares: DrawShares,
  win: number,
  n: number,
  chance: number,
  proof: DecisionLine['proof'],
  extra: Partial<DecisionLine> = {},
): void {
  for (let i = 0; i < n; i++) {
    const pct = proof === 'valid' || proof === undefined ? chance : chance * 0.2;
    const line = parsedLine(
      {
        tsMs: (win + 1) * 1000,
        reason: i % 2 === 0 ? 'draw_lost' : 'draw_won',
        decision: 'wait',
        pct,
        ...(proof === undefined ? {} : { proof }),
        ...extra,
      },
      D,
    );
    observeDrawShare(shares, line, 0.2);
  }
}

describe('the share of the chance the draws get', () => {
  it('is 1 when no draw was asked a proof, or none was seen', () => {
    const shares: DrawShares = new Map();
    expect(effectiveShare(shares, W, D)).toBe(1);
    draws(shares, W - D, 300, 40, undefined);
    expect(effectiveShare(shares, W, D)).toBe(1);
  });

  it('is the free share when no draw brought a valid proof, 1 when all did, between for a mix', () => {
    const none: DrawShares = new Map();
    draws(none, W - D, 150, 40, 'missing');
    draws(none, W - 2 * D, 150, 40, 'skipped');
    expect(effectiveShare(none, W, D)).toBeCloseTo(0.2, 6);
    const all: DrawShares = new Map();
    draws(all, W - D, 300, 40, 'valid');
    expect(effectiveShare(all, W, D)).toBeCloseTo(1, 6);
    const mix: DrawShares = new Map();
    draws(mix, W - D, 100, 40, 'valid');
    draws(mix, W - D, 300, 40, 'missing');
    // (100 x 40 + 300 x 8) / (400 x 40)
    expect(effectiveShare(mix, W, D)).toBeCloseTo(0.4, 6);
  });

  it("weighs a sampled line by its weight, and leaves out other lines and the infinite queue's own tokens", () => {
    const shares: DrawShares = new Map();
    draws(shares, W - D, 10, 40, 'valid', { weight: 30 });
    draws(shares, W - D, 300, 40, 'missing');
    draws(shares, W - D, 300, 40, 'failed', { bot: true });
    draws(shares, W - D, 300, 40, undefined, { reason: 'bot_waiting', bot: true });
    // Not drawn yet: the page's proof is on its way.
    draws(shares, W - D, 300, 40, 'missing', { reason: 'proof_pending' });
    draws(shares, W - D, 300, 40, undefined, { reason: 'proof_pending' });
    // (300 x 40 + 300 x 8) / (600 x 40)
    expect(effectiveShare(shares, W, D)).toBeCloseTo(0.6, 6);
  });

  it('counts a draw its proof sent to the infinite queue (bot_queued, logged at the full chance) as one that got none of it', () => {
    const shares: DrawShares = new Map();
    draws(shares, W - D, 300, 40, 'valid');
    draws(shares, W - D, 150, 40, 'failed', { reason: 'bot_queued', bot: true, pct: 40 });
    draws(shares, W - D, 150, 40, 'skipped', { reason: 'bot_queued', bot: true, pct: 40 });
    // A routing rule's bot_queued is no draw (no proof, no chance): left out.
    draws(shares, W - D, 300, 40, undefined, { reason: 'bot_queued', bot: true, pct: null });
    // (300 x 40) / (600 x 40)
    expect(effectiveShare(shares, W, D)).toBeCloseTo(0.5, 6);
  });

  it("takes a wrong proof (well-formed, not this puzzle's) as a missing one: drawn at the free share", () => {
    const shares: DrawShares = new Map();
    draws(shares, W - D, 300, 40, 'wrong');
    expect(effectiveShare(shares, W, D)).toBeCloseTo(0.2, 6);
  });

  it('follows the last two windows, reaching back only while they hold few draws', () => {
    const shares: DrawShares = new Map();
    draws(shares, W - 5 * D, 400, 40, 'valid');
    draws(shares, W - 2 * D, 150, 40, 'missing');
    draws(shares, W - D, 150, 40, 'missing');
    // The current window's draws are not read yet.
    draws(shares, W, 1000, 40, 'valid');
    expect(effectiveShare(shares, W, D)).toBeCloseTo(0.2, 6);
    const few: DrawShares = new Map();
    draws(few, W - 5 * D, 400, 40, 'valid');
    draws(few, W - D, 10, 40, 'missing');
    expect(effectiveShare(few, W, D)).toBeGreaterThan(0.9);
  });

  it('forgets windows it no longer reads', () => {
    const shares: DrawShares = new Map();
    draws(shares, W - (MAX_WINDOWS + 1) * D, 400, 40, 'missing');
    draws(shares, W - D, 400, 40, 'valid');
    pruneDrawShares(shares, W, D);
    expect([...shares.keys()]).toEqual([W - D]);
  });
});
