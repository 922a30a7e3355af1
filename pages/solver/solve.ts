// Solving a puzzle's ALTCHA challenges one after the other with altcha-lib's solveChallenge and a
// synchronous SHA-256 (@noble/hashes: in V8 about 40 times what WebCrypto's async digest does on
// 36-byte inputs). The page's solver (solver.ts) runs it in its Web Worker; the app client (client/)
// runs the page's solver the same way, or this function itself on its main thread, yielding as it goes.
import { solveChallenge } from 'altcha-lib';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Work } from './challenge.js';

/** Solver → its caller: progress (parts done, counter within the part), the solution, or a failure. */
export type Report = { p: number; n: number } | { s: string; d: number; t: number } | { e: string };

/** How often progress is reported, in counters tried, unless told otherwise. */
export const EVERY = 16_384;

export interface SolveOptions {
  /** Report progress every this many counters (default EVERY); a caller on a page's main thread yields there. */
  every?: number;
  /** Stops the work: solveAll then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Solves every challenge of `work`, reporting through `post`: progress every `every` counters (a
 * promise it returns is awaited, which is how a caller yields), then the counters joined by '.'.
 */
export async function solveAll(
  work: Work,
  post: (r: Report) => void | Promise<void>,
  { every = EVERY, signal }: SolveOptions = {},
): Promise<void> {
  const started = performance.now();
  const found: number[] = [];
  let digests = 0;
  for (const challenge of work.challenges) {
    const input = new Uint8Array(36);
    // ALTCHA's bytes for cost 1: salt ‖ nonce ‖ uint32BE(counter); the password is nonce ‖ counter.
    const salt = challenge.parameters.salt;
    for (let i = 0; i < 16; i++) input[i] = parseInt(salt.slice(2 * i, 2 * i + 2), 16);
    const part = found.length;
    const solution = await solveChallenge({
      challenge,
      timeout: 0,
      // altcha-lib reads only the controller's signal.
      ...(signal ? { controller: { signal } as AbortController } : {}),
      deriveKey: async (_parameters, _salt, password) => {
        input.set(password, 16);
        const counter = ((password[16]! << 24) | (password[17]! << 16) | (password[18]! << 8) | password[19]!) >>> 0;
        if (counter % every === 0 && counter > 0) await post({ p: part, n: counter });
        return { derivedKey: sha256(input) };
      },
    });
    signal?.throwIfAborted();
    if (solution === null) throw new Error('no solution');
    found.push(solution.counter);
    digests += solution.counter + 1;
    await post({ p: found.length, n: 0 });
  }
  await post({ s: found.join('.'), d: digests, t: performance.now() - started });
}
