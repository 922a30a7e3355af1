// The solver's reading of what it is given, against challenges made from the spec's formulas
// (test/support/proof-spec.ts), and the words the page shows while it works.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { describe, expect, it } from 'vitest';
import { enUS } from '../../../src/core/i18n/catalogs/en-US.js';
import { DONE, ENGLISH, pageWords, progressWords, workFrom, workKey } from '../../../pages/solver/challenge.js';
import { specProof } from '../../support/proof-spec.js';

const KEY = Uint8Array.from({ length: 64 }, (_, i) => i * 7);

describe('the compact form', () => {
  it('expands into exactly the JSON answer’s eight ALTCHA challenges', () => {
    const proof = specProof('header.payload.signature', KEY, 5);
    const work = workFrom(proof.compact)!;
    expect(work.counters).toBe(proof.M);
    expect(work.challenges).toEqual(proof.json.challenges);
    expect(workFrom(proof.json)).toEqual({ counters: proof.M, challenges: proof.json.challenges });
    expect(workFrom(JSON.stringify(proof.json))).toEqual(workFrom(proof.json));
    expect(workFrom(JSON.stringify(proof.compact))).toEqual(work);
  });

  it('solves, with altcha-lib’s own solver and web deriveKey, to the spec’s secret counters', async () => {
    const proof = specProof('another.token.text', KEY, 0.02);
    const found: number[] = [];
    for (const challenge of workFrom(proof.compact)!.challenges) {
      const solution = await solveChallenge({ challenge, deriveKey, timeout: 0 });
      found.push(solution!.counter);
    }
    expect(found.join('.')).toBe(proof.solution);
  });

  it('refuses what is not a challenge, so the page sends none rather than a guess', () => {
    const compact = specProof('t', KEY, 1).compact;
    for (const bad of [
      '',
      'none',
      compact.replace(/^1\./, '2.'),
      compact.split('.').slice(0, 10).join('.'),
      compact.replace(/\.[0-9a-f]{32}$/, '.xyz'),
      '{',
      '{"challenges":[]}',
    ]) {
      expect(workFrom(bad), bad).toBeNull();
    }
    expect(workFrom(null)).toBeNull();
  });

  it('keys a puzzle by its challenges: the same one again keeps its solution, a new token’s does not', () => {
    const a = specProof('token-a', KEY, 1);
    const b = specProof('token-b', KEY, 1);
    expect(workKey(workFrom(a.compact)!)).toBe(workKey(workFrom(a.json)!));
    expect(workKey(workFrom(a.compact)!)).not.toBe(workKey(workFrom(b.compact)!));
  });
});

describe('the words', () => {
  it('say what the browser does, in quarters, and when it is done', () => {
    expect(progressWords(0, 8, 0, 100)).toBe(
      'Your browser is doing a short check that keeps automated buyers out: just started.',
    );
    expect(progressWords(2, 8, 0, 100)).toMatch(/: about a quarter done\.$/);
    expect(progressWords(3, 8, 90, 100)).toMatch(/: about half done\.$/);
    expect(progressWords(6, 8, 0, 100)).toMatch(/: about three quarters done\.$/);
    expect(progressWords(7, 8, 50, 100)).toMatch(/: nearly done\.$/);
    expect(progressWords(8, 8, 0, 100)).toBe(DONE);
    expect(DONE).toBe('Check done. You are in the draw.');
  });

  it("are the page's own, from its <html data-t>, each one it lacks in English", () => {
    const page = JSON.stringify({
      clientProofStarted: 'Właśnie zaczęto.',
      clientProofDone: 'Gotowe.',
      clientNextCheck: 'x {time}',
    });
    const words = pageWords(page);
    expect(progressWords(0, 8, 0, 100, words)).toBe('Właśnie zaczęto.');
    expect(progressWords(8, 8, 0, 100, words)).toBe('Gotowe.');
    expect(progressWords(4, 8, 0, 100, words)).toBe(ENGLISH.clientProofHalf);
    // A page of the operator's own, without data-t or with something else in it: English.
    for (const none of [undefined, '', 'not json', '[1,2]', '{"clientProofDone": 5}'])
      expect(pageWords(none)).toEqual(ENGLISH);
  });

  it("in English are the English catalog's own (the solver carries its copy: the catalog would double its size)", () => {
    for (const key of Object.keys(ENGLISH) as (keyof typeof ENGLISH)[]) expect(ENGLISH[key], key).toBe(enUS[key]);
  });
});
