// The puzzle every waiting answer of a draw token carries when its draw asks for a proof (docs/bots.md):
// added to whatever the steps decided, after them, so no step needs to know of it.
import { proofChallenge, proofSecondsFor } from '../tokens/index.js';
import { eventPhase, prequeueDraining } from './queue.js';
import type { DecideResult } from './result.js';
import type { Config } from '../types.js';
import type { TokenInput } from './usable-token.js';

/** A token a draw decides: the draw's own (no place), or a first-come place while no cursor is published. */
function drawn(config: Config, dec: string | undefined): boolean {
  return dec === 'wait' && !(config.queueingMethod === 'fifo' && config.queueCursor !== null);
}

/**
 * The result with the puzzle of the draw token the visitor holds after it (the one set, else the one
 * kept), when a waiting answer's token asks for a proof. One HMAC and eight digests, only then. None
 * where no draw happens now (`queue_all`, the pre-queue draining): a phone would work for nothing.
 */
export function withChallenge(
  input: TokenInput & { nowMs: number },
  result: DecideResult,
): DecideResult | Promise<DecideResult> {
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
  return withPuzzle(input, result, held.token, seconds);
}

/** The result with the puzzle for `token` (none when the key that signed it is gone). */
async function withPuzzle(
  input: TokenInput,
  result: DecideResult,
  token: string,
  seconds: number,
): Promise<DecideResult> {
  const key = await input.keys.verifyingKey(result.kid!);
  if (key === null) return result;
  return { ...result, proof: await proofChallenge(token, key, seconds) };
}
