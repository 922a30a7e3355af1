// The puzzle the visitor's token holds, solved in the background as soon as an answer brings it: what
// the next check sends in `waiting-room-proof`. The same puzzle again keeps its solution; an answer
// without `proof` (a 429's) keeps the puzzle held; `proof: null` drops it (the next check sends `none`).
import { CANNOT_SOLVE } from './proof.js';
import type { ProofAsked, ProofSolver } from './types.js';

interface Solving {
  key: string;
  seconds: number;
  done: boolean;
  header: Promise<string>;
}

const puzzleKey = (proof: ProofAsked): string =>
  proof.challenges.map((c) => `${c.parameters?.nonce}${c.parameters?.keyPrefix}`).join();

export class HeldProof {
  private solving: Solving | null = null;

  constructor(
    private readonly solver: ProofSolver,
    private readonly signal: AbortSignal,
  ) {}

  /** An answer's `proof` (undefined: the answer did not say). */
  take(proof: ProofAsked | null | undefined): void {
    if (proof === undefined) return;
    if (proof === null) {
      this.solving = null;
      return;
    }
    const key = puzzleKey(proof);
    if (this.solving?.key === key) return;
    const s: Solving = { key, seconds: proof.seconds, done: false, header: Promise.resolve(CANNOT_SOLVE) };
    let solved: Promise<string>;
    try {
      solved = this.solver(proof, this.signal);
    } catch {
      solved = Promise.resolve(CANNOT_SOLVE);
    }
    const end = (header: string): string => {
      s.done = true;
      return header;
    };
    s.header = solved.then(end, () => end(CANNOT_SOLVE));
    this.solving = s;
  }

  /** The difficulty (seconds) of a puzzle still being solved, which the next check waits for; null when none. */
  pending(): number | null {
    return this.solving !== null && !this.solving.done ? this.solving.seconds : null;
  }

  /** The header's value: the solution of the puzzle held, once found, or `none`. */
  header(): Promise<string> {
    return this.solving?.header ?? Promise.resolve(CANNOT_SOLVE);
  }
}
