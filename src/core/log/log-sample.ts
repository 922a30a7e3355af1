// The log sample (setting `log_sample_rate`): which token ids the edge logs waiting decisions for.
// By id, so a ticket is in the sample on every line about it or on none; and the controller's ledger
// uses the same function, lowering its own rate further when it must (samples nest: an id in a smaller
// sample is in every larger one). FNV-1a over the id's characters, not the id's bits read as a
// number: those are the token's draw number, and the sample must not favour low or high numbers.
import { tokenId, type DecideResult } from '../decision/index.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Whether token id `tid` is in the sample at `rate` (0 < rate <= 1): FNV-1a 32-bit / 2^32 < rate. */
export function inLogSample(tid: string, rate: number): boolean {
  let h = FNV_OFFSET;
  for (let i = 0; i < tid.length; i++) h = Math.imul(h ^ tid.charCodeAt(i), FNV_PRIME) >>> 0;
  return h / 2 ** 32 < rate;
}

/** A token kind whose holder is still waiting: a wait ticket, or a place in an event's pre-queue. */
const WAITING = new Set(['wait', 'pre']);

/**
 * A waiting decision, the kind the edge samples: a waiting or countdown page, the visitor's token kept
 * or replaced by another wait/pre token, nobody admitted. By the line's fields, so the controller
 * tells them apart as the edge does. An admission, a renewal, a deny page, a winner held by the
 * ceiling (a `won` token) and a page without a token are not: they are always logged.
 */
export function isWaitingDecision(outcome: string, usedDec: string | null, setDec: string | null): boolean {
  if (outcome !== 'startwaiting' && outcome !== 'keepwaiting' && outcome !== 'prequeue') return false;
  const held = setDec ?? usedDec;
  return held !== null && WAITING.has(held);
}

/**
 * The weight a decision's line carries at sample rate `rate`: 1 for a line always logged (not a
 * waiting decision, or every line is logged), 1/rate for a waiting decision one of whose wait/pre
 * tokens (the one used or the one set) is in the sample, null for one the edge leaves out.
 */
export function logWeight(
  result: Pick<DecideResult, 'outcome' | 'used' | 'set' | 'setToken'> | null,
  rate: number,
): number | null {
  if (result === null || !(rate < 1)) return 1;
  if (!isWaitingDecision(result.outcome, result.used?.dec ?? null, result.set?.dec ?? null)) return 1;
  const used = result.used !== null && WAITING.has(result.used.dec) && inLogSample(tokenId(result.used.token), rate);
  const set =
    result.setToken !== null &&
    result.set !== null &&
    WAITING.has(result.set.dec) &&
    inLogSample(tokenId(result.setToken), rate);
  return used || set ? 1 / rate : null;
}
