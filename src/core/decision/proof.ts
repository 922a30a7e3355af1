// The proof of work's part of the draw (docs/bots.md): what a due draw's request brought. The puzzle
// every waiting answer of a draw token carries is challenge.ts's.
import { classifyProof, proofHeaderValue, proofSecondsFor, type ProofClass } from '../tokens/index.js';
import type { Config } from '../types.js';
import type { Usable } from './usable-token.js';

/** What the request carries for the proof: the `waiting-room-proof` header, and whether it asked for JSON. */
export interface ProofInput {
  header: string | null;
  json: boolean;
}

/**
 * What a due draw's request brought, or null when the drawn token's draw asks for no proof. The puzzle
 * checked is the one of the token the visitor PRESENTED, which is the one its page was given. A stale
 * token is caught up to a later window's (`drawn`), whose puzzle the visitor never had: its difficulty
 * is that window's, and the proof is `missing` whatever the header says, or one solution would be
 * replayed with the same old token at the full chance every window.
 */
export async function drawProof(
  config: Config,
  presented: Usable,
  drawnToken: Usable,
  proof: ProofInput | undefined,
): Promise<ProofClass | null> {
  const seconds = proofSecondsFor(config, drawnToken.claims.exp);
  if (seconds <= 0) return null;
  if (drawnToken.token !== presented.token) return 'missing';
  return classifyProof(proof?.header ?? null, proof?.json ?? false, presented.token, presented.key, seconds);
}

/**
 * A page (not JSON) request that brought no header at all: its script may not have solved yet (a reload,
 * the hammering page's refresh). In its token's own window it is answered with the puzzle and drawn
 * later, in the window of grace (docs/bots.md, "Without JavaScript").
 */
export function pageWithoutProof(proof: ProofInput | undefined): boolean {
  return proof?.json !== true && proofHeaderValue(proof?.header) === null;
}
