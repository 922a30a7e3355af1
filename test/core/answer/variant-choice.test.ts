// Which variant of the waiting page a visitor sees: stable for a visitor (their tokens' sub), shared out
// by the weights over many visitors, independent of a first-come queue's order within a second, and
// read under its own store key.
import { describe, expect, it } from 'vitest';
import {
  chooseVariant,
  variantFraction,
  variantPageKey,
  visitorVariant,
} from '../../../src/core/answer/variant-choice.js';
import { tieFraction } from '../../../src/core/decision/position.js';
import { identityHash } from '../../../src/core/request/index.js';
import { signToken } from '../../../src/core/tokens/index.js';
import { KEY_BYTES } from '../../support/fakes.js';
import { claimsOf } from '../../../lib/mint.js';

/** `n` visitors' subs as the room makes them: keyed hashes of their addresses. */
async function subs(n: number): Promise<string[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => identityHash(KEY_BYTES, `ip:198.51.${i >> 8}.${i & 255}`)));
}

describe('the variant a visitor sees', () => {
  it('is the same for every token of one visitor, whatever the token says besides', async () => {
    const [sub] = await subs(1);
    const variants = [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 1 },
    ];
    const tokens = await Promise.all(
      [
        { dec: 'wait' as const, exp: 1_800_000_020 },
        { dec: 'wait' as const, exp: 1_800_000_040 },
        { dec: 'pre' as const, exp: 1_800_000_060, arr: 1_800_000_000 },
        { dec: 'allow' as const, exp: 1_800_003_600 },
      ].map((c) => signToken({ ...c, sub: sub!, room: 'shop' }, 'k1', KEY_BYTES)),
    );
    const seen = tokens.map((t) => visitorVariant(variants, claimsOf(t).sub));
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).toBe(chooseVariant(variants, sub!));
  });

  it('follows the weights over many visitors', async () => {
    const all = await subs(4000);
    const count = (variants: { name: string; weight: number }[]) => {
      const n = new Map<string, number>();
      for (const s of all) {
        const v = chooseVariant(variants, s);
        n.set(v, (n.get(v) ?? 0) + 1);
      }
      return n;
    };
    const even = count([
      { name: 'a', weight: 1 },
      { name: 'b', weight: 1 },
    ]);
    // 2,000 expected of each; the binomial's standard deviation is about 32.
    expect(Math.abs(even.get('a')! - 2000)).toBeLessThan(130);
    const skewed = count([
      { name: 'a', weight: 80 },
      { name: 'b', weight: 15 },
      { name: 'c', weight: 5 },
    ]);
    expect(Math.abs(skewed.get('a')! - 3200)).toBeLessThan(110);
    expect(Math.abs(skewed.get('b')! - 600)).toBeLessThan(100);
    expect(Math.abs(skewed.get('c')! - 200)).toBeLessThan(60);
    // One variant alone: everyone.
    expect(count([{ name: 'b', weight: 3 }])).toEqual(new Map([['b', 4000]]));
  });

  it("does not follow a first-come queue's order among the arrivals of one second", async () => {
    const all = await subs(4000);
    const first = all.filter((s) => tieFraction(s) < 0.5);
    const ahead = first.filter((s) => variantFraction(s) < 0.5).length / first.length;
    expect(Math.abs(ahead - 0.5)).toBeLessThan(0.05);
  });

  it('has none without a test or without a token', async () => {
    const variants = [{ name: 'b', weight: 1 }];
    const [sub] = await subs(1);
    expect(visitorVariant([], sub)).toBeNull();
    expect(visitorVariant(variants, null)).toBeNull();
    expect(visitorVariant(variants, undefined)).toBeNull();
    expect(visitorVariant(variants, sub)).toBe('b');
    // A sub that is no hash of the room's still gets one variant, the same each time.
    expect(variantFraction('short')).toBe(variantFraction('short'));
    expect(variantFraction('short')).toBeGreaterThanOrEqual(0);
    expect(variantFraction('short')).toBeLessThan(1);
  });

  it("is read under the variant's own key, for the waiting pages only", () => {
    expect(variantPageKey('startwaiting', null, 'b')).toBe('startwaiting.b');
    expect(variantPageKey('keepwaiting', 'checkout', 'b')).toBe('checkout.keepwaiting.b');
    expect(variantPageKey('startwaiting', null, 'a')).toBe('startwaiting');
    expect(variantPageKey('startwaiting', 'checkout', null)).toBe('checkout.startwaiting');
    expect(variantPageKey('deny', null, 'b')).toBe('deny');
    expect(variantPageKey('prequeue', 'checkout', 'b')).toBe('checkout.prequeue');
  });
});
