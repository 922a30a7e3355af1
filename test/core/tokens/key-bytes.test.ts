// Key bytes are copied into memory that never moves before a key is imported from them.
import { describe, expect, it } from 'vitest';
import { pinnedCopy } from '../../../src/core/tokens/key-bytes.js';

describe('pinnedCopy', () => {
  it('is a copy: later changes to the source do not reach it', () => {
    const source = Uint8Array.from({ length: 64 }, (_, i) => i);
    const copy = pinnedCopy(source);
    source.fill(0);
    expect(Array.from(copy)).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });

  it('keeps each copy intact while thousands more are made (a sandbox imports a few keys in its life)', () => {
    const first = pinnedCopy(new Uint8Array(64).fill(7));
    for (let i = 0; i < 3000; i++) pinnedCopy(new Uint8Array(64).fill(i & 255));
    expect(first.every((b) => b === 7)).toBe(true);
  });
});
