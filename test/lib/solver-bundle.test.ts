// The solver as the edge serves it: one small classic script, the same text each build.
import { describe, expect, it } from 'vitest';
import { bundleSolver } from '../../lib/solver-bundle.js';

describe('the solver bundle', () => {
  it('is one classic script (no import, no export) under 12 KB, and its hash follows its text', async () => {
    const a = await bundleSolver();
    expect(a.source.length).toBeLessThan(12_000);
    expect(a.source).not.toMatch(/^\s*(import|export)\b/m);
    expect(a.hash).toMatch(/^[0-9a-f]{8}$/);
    expect((await bundleSolver()).hash).toBe(a.hash);
  });
});
