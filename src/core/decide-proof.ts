// The proof of work's part of the decision (docs/bots.md): what a due draw's request brought, and the
// puzzle every waiting answer of a draw token carries. Apart from decide.ts, which stays a table.
import { classifyProof, proofChallenge, proofHeaderValue, proofSecondsFor, type ProofClass } from './proof.js';
import { eventPhase, prequeueDraining } from './queue.js';
import type { DecideResult } from './result.js';
import type { Config } from './types.js';
import type { TokenInput, Usable } from './usable-token.js';

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

/** A token a draw decides: the draw's own (no place), or a first-come place while no cursor is published. */
function drawn(config: Config, dec: string | undefined): boolean {
  return dec === 'wait' && !(config.queueingMethod === 'fifo' && config.queueCursor !== null);
}

/**
 * The result with the puzzle of the draw token the visitor holds after it (the one set, else the one
 * kept), when a waiting answer's token asks for a proof. One HMAC and eight digests, only then. None
 * where no draw happens now (`queue_all`, the pre-queue draining): a phone would work for nothing.
 */
export async function withChallenge(
  input: TokenInput & { nowMs: number },
  result: DecideResult,
): Promise<DecideResult> {
  const { config } = input;
  if (
    config.proofOfWork === 'off' ||
    (result.outcome !== 'startwaiting' && result.outcome !== 'keepwaiting') ||
    result.kid === null
  )
    return result;
  const nowSec = Math.floor(input.nowMs / 1000);
  if (config.queueAll || prequeueDraining(config, eventPhase(config, nowSec), nowSec)) return result;
  const held =
    result.setToken !== null ? { token: result.setToken, dec: result.set?.dec, exp: result.set?.exp } : result.used;
  if (held === null || held.exp === undefined || !drawn(config, held.dec)) return result;
  const seconds = proofSecondsFor(config, held.exp);
  if (seconds <= 0) return result;
  const key = await input.keys.verifyingKey(result.kid);
  if (key === null) return result;
  return { ...result, proof: await proofChallenge(held.token, key, seconds) };
}
