// The right solution of a wait token's proof of work (src/core/tokens/proof.ts), found as an app finds it:
// altcha-lib's own solver on the challenges of the JSON answer, one after the other. For the tools
// that present right solutions to the room (the fuzz run's controls, the bench's check) and the tests.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { proofChallenge, proofJson } from '../src/core/tokens/index.js';

/** The `waiting-room-proof` value for ALTCHA challenges (a JSON answer's `proof.challenges`), in order. */
export async function solveChallenges(challenges: readonly unknown[]): Promise<string> {
  const counters: number[] = [];
  for (const c of challenges) {
    const solved = await solveChallenge({ challenge: c as never, deriveKey });
    if (solved === null) throw new Error('altcha-lib found no solution for a challenge of the proof of work');
    counters.push(solved.counter);
  }
  return counters.join('.');
}

/** The `waiting-room-proof` value for `token`, signed with `key`, at a difficulty of `seconds`. */
export async function solveProof(token: string, key: CryptoKey, seconds: number): Promise<string> {
  return solveChallenges(proofJson(await proofChallenge(token, key, seconds)).challenges);
}
