import { describe, expect, it } from 'vitest';
import { drawValue, drawWins } from '../../../src/core/decision/draw.js';
import { signToken } from '../../../src/core/tokens/token.js';
import { KEY_BYTES, KID } from '../../support/fakes.js';

describe('draw', () => {
  it('reads the first 6 signature bytes as a fraction', () => {
    expect(drawValue(new Uint8Array([0, 0, 0, 0, 0, 0, 255]))).toBe(0);
    expect(drawValue(new Uint8Array([128, 0, 0, 0, 0, 0]))).toBe(0.5);
    expect(drawValue(new Uint8Array(6).fill(255))).toBeLessThan(1);
  });

  it('only moves the threshold with allow_percentage: a winner at 20 wins at 60 too', () => {
    const sig = new Uint8Array([40, 1, 2, 3, 4, 5]); // ~0.156
    expect(drawWins(sig, 10)).toBe(false);
    expect(drawWins(sig, 20)).toBe(true);
    expect(drawWins(sig, 60)).toBe(true);
  });

  it('admits about allow_percentage of real tokens', async () => {
    let wins = 0;
    const n = 2000;
    for (let i = 0; i < n; i++) {
      const token = await signToken(
        { dec: 'wait', exp: 1_700_000_000 + 30 * i, sub: `s${i}`, room: 'shop' },
        KID,
        KEY_BYTES,
      );
      if (drawWins(Buffer.from(token.split('.')[2]!, 'base64url'), 25)) wins++;
    }
    // Binomial(2000, 0.25): sd ~19, so +-80 is a > 4 sd band.
    expect(Math.abs(wins - n * 0.25)).toBeLessThan(80);
  });
});
