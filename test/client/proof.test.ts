// The client's default solver where there is no Web Worker (Node, as an old WebView): the page's
// solving function on this thread, to the spec's counters; `none` for what is no puzzle.
import { describe, expect, it } from 'vitest';
import { CANNOT_SOLVE, pageSolver } from '../../client/proof.js';
import type { ProofAsked } from '../../client/types.js';
import { specProof } from '../support/proof-spec.js';

const KEY = Uint8Array.from({ length: 64 }, (_, i) => (i * 29 + 1) & 255);

describe('pageSolver without a Worker', () => {
  it('solves the JSON answer’s puzzle to the spec’s counters, joined by "."', async () => {
    const proof = specProof('header.payload.sig', KEY, 0.2);
    expect(typeof Worker).toBe('undefined');
    expect(await pageSolver(proof.json as ProofAsked, new AbortController().signal)).toBe(proof.solution);
  });

  it('says none for what is not a puzzle', async () => {
    const broken = { ...specProof('x', KEY, 0.1).json, challenges: [] } as unknown as ProofAsked;
    expect(await pageSolver(broken, new AbortController().signal)).toBe(CANNOT_SOLVE);
  });

  it('rejects when stopped, rather than send a solution nobody asked for', async () => {
    const stop = new AbortController();
    const solving = pageSolver(specProof('y', KEY, 30).json as ProofAsked, stop.signal);
    setTimeout(() => stop.abort(new Error('stopped')), 20);
    await expect(solving).rejects.toThrow('stopped');
  });
});
