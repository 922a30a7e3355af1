// The page's solving function, which the page's Worker and the app client both run: it finds the
// spec's counters, reports its progress as often as asked, and stops when told.
import { describe, expect, it } from 'vitest';
import { workFrom } from '../../../pages/solver/challenge.js';
import { type Report, solveAll } from '../../../pages/solver/solve.js';
import { specProof } from '../../support/proof-spec.js';

const KEY = Uint8Array.from({ length: 64 }, (_, i) => (i * 11 + 3) & 255);

describe('solveAll', () => {
  it('finds the spec’s secret counters, and reports progress every `every` counters', async () => {
    const proof = specProof('a.token.text', KEY, 0.1);
    const reports: Report[] = [];
    await solveAll(workFrom(proof.compact)!, (r) => void reports.push(r), { every: 256 });
    const end = reports.at(-1)!;
    expect(end).toMatchObject({ s: proof.solution });
    const progress = reports.filter((r): r is { p: number; n: number } => 'p' in r && r.n > 0);
    // A report at each multiple of 256 tried in each part, before the part's counter.
    const expected = proof.counters.reduce((sum, n) => sum + Math.floor(n / 256), 0);
    expect(progress).toHaveLength(expected);
    expect(progress.every((r) => r.n % 256 === 0)).toBe(true);
  });

  it('waits for the promise a report returns: how a caller on a page’s main thread yields', async () => {
    const proof = specProof('yielding', KEY, 0.1);
    let pending = 0;
    let overlapped = false;
    await solveAll(
      workFrom(proof.compact)!,
      (r) => {
        if (!('p' in r) || r.n === 0) return;
        if (pending > 0) overlapped = true;
        pending++;
        return new Promise((resolve) =>
          setTimeout(() => {
            pending--;
            resolve();
          }, 0),
        );
      },
      { every: 128 },
    );
    expect(pending).toBe(0);
    expect(overlapped).toBe(false);
  });

  it('stops, rejecting with the reason, when its signal aborts', async () => {
    const proof = specProof('stopped', KEY, 5);
    const stop = new AbortController();
    const solving = solveAll(
      workFrom(proof.compact)!,
      (r) => {
        if ('p' in r && r.n > 0) stop.abort(new Error('the visitor left'));
      },
      { every: 1024, signal: stop.signal },
    );
    await expect(solving).rejects.toThrow('the visitor left');
  });
});
