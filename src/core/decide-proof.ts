// The proof of work's part of the decision (docs/bots.md): what a due draw's request brought, and the
// puzzle every waiting answer of a draw token carries. Apart from decide.ts, which stays a table.
import { classifyProof, proofChallenge, proofSecondsFor, type ProofClass } from './proof.js';
import type { DecideResult } from './result.js';
import type { Config } from './types.js';
import type { TokenInput, Usable } from './usable-token.js';

/** What the request carries for the proof: the `waiting-room-proof` header, and whether it asked for JSON. */
export interface ProofInput {
  header: string | null;
  json: boolean;
}

/**
 * What a due draw's request brought, or null when its token's draw asks for no proof. Checked against
 * the token the visitor PRESENTED (the one its page was given the puzzle of), not the one a stale token
 * is caught up to.
 */
export async function drawProof(config: Config, presented: Usable, proof: ProofInput | undefined): Promise<ProofClass | null> {
  const seconds = proofSecondsFor(config, presented.claims.exp);
  if (seconds <= 0) return null;
  return classifyProof(proof?.header ?? null, proof?.json ?? false, presented.token, presented.key, seconds);
}

/** A token a draw decides: the draw's own (no place), or a first-come place while no cursor is published. */
function drawn(config: Config, dec: string | undefined): boolean {
  return dec === 'wait' && !(config.queueingMethod === 'fifo' && config.queueCursor !== null);
}

/**
 * The result with the puzzle of the draw token the visitor holds after it (the one set, else the one
 * kept), when a waiting answer's token asks for a proof. One HMAC and eight digests, only then.
 */
export async function withChallenge(input: TokenInput, result: DecideResult): Promise<DecideResult> {
  const { config } = input;
  if (config.proofOfWork === 'off' || (result.outcome !== 'startwaiting' && result.outcome !== 'keepwaiting') || result.kid === null) return result;
  const held = result.setToken !== null ? { token: result.setToken, dec: result.set?.dec, exp: result.set?.exp } : result.used;
  if (held === null || held.exp === undefined || !drawn(config, held.dec)) return result;
  const seconds = proofSecondsFor(config, held.exp);
  if (seconds <= 0) return result;
  const key = await input.keys.verifyingKey(result.kid);
  if (key === null) return result;
  return { ...result, proof: await proofChallenge(held.token, key, seconds) };
}
