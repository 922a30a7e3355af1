// The log sample: which token ids the edge logs waiting decisions for, and the controller tracks.
import { describe, expect, it } from 'vitest';
import { inLogSample } from '../../../src/core/log/log-sample.js';
import { ALPHABET_ORDER as ALPHABET, tokenIds } from '../../support/token-ids.js';

const ids = (n: number): string[] => tokenIds(n, 12345);

describe('inLogSample', () => {
  it('keeps every id at rate 1 and about the rate of them below it', () => {
    const all = ids(20_000);
    expect(all.every((id) => inLogSample(id, 1))).toBe(true);
    const tenth = all.filter((id) => inLogSample(id, 0.1)).length / all.length;
    expect(tenth).toBeGreaterThan(0.09);
    expect(tenth).toBeLessThan(0.11);
  });

  it('is FNV-1a over the id: the same answer everywhere, for the edge and the controller', () => {
    // FNV-1a 32 of "a" is 0xe40c292c: 0.8908 of 2^32.
    expect(inLogSample('a', 0.89)).toBe(false);
    expect(inLogSample('a', 0.891)).toBe(true);
  });

  it('nests: an id in a smaller sample is in every larger one', () => {
    for (const id of ids(5_000)) {
      if (inLogSample(id, 0.01)) expect(inLogSample(id, 0.1) && inLogSample(id, 0.5)).toBe(true);
    }
  });

  it("does not follow the id's draw number: sampled ids have low and high numbers alike", () => {
    const sampled = ids(50_000).filter((id) => inLogSample(id, 0.1));
    const low = sampled.filter((id) => ALPHABET.indexOf(id[0]!) < 32).length / sampled.length;
    expect(low).toBeGreaterThan(0.45);
    expect(low).toBeLessThan(0.55);
  });
});
