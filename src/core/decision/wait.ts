// Keeping a visitor waiting: on the token they hold, or on a new one (a place at the back in `fifo`,
// else the draw's), due at its own offset into its window.
import { dueAt } from './draw.js';
import { resultWith, type DecideResult } from './result.js';
import type { ReasonCode } from '../types.js';
import { issue, issuedParts, noSigningKey } from './issue.js';
import { placeFor, placeParts } from './place.js';
import type { Usable } from './usable-token.js';
import type { Visit } from './visit.js';

/** The waiting page on the token the visitor holds, kept as it is: due at `waitDueSec`. */
export function keepWaiting(
  visit: Visit,
  token: Usable,
  reason: ReasonCode,
  waitDueSec: number,
  extra: Partial<Pick<DecideResult, 'place' | 'bot'>> = {},
): DecideResult {
  return resultWith({
    decision: 'wait',
    outcome: 'keepwaiting',
    reason,
    kid: token.kid,
    waitDueSec,
    waitExpirySec: token.claims.exp,
    used: visit.used,
    ...extra,
  });
}

/**
 * A new token for the visitor that expires at `exp`: a place at the back in `fifo`, else the draw's;
 * or, to renew the place or pre-queue token `keep`, its successor with the same place.
 */
export async function waitFrom(
  visit: Visit,
  exp: number,
  reason: ReasonCode,
  pct: number | null = null,
  keep?: Usable,
  bot = visit.stillBot,
): Promise<DecideResult> {
  const { config } = visit;
  const dec = keep?.claims.dec ?? 'wait';
  // The infinite queue holds no place: its tokens are the draw's, and never win it.
  const arr =
    keep !== undefined ? keep.claims.arr : config.queueingMethod === 'fifo' && !bot ? visit.nowSec : undefined;
  const issued = await issue(visit, dec, exp, arr, keep, bot);
  if (issued === null) return noSigningKey(visit);
  const renewed = keep !== undefined;
  const placing = placeFor(visit, issued.claims, issued.key);
  const place = placing === null ? null : await placing;
  return resultWith({
    decision: renewed ? 'wait' : 'start',
    outcome: renewed ? 'keepwaiting' : 'startwaiting',
    reason,
    ...issuedParts(issued),
    waitDueSec: dueAt(issued.token, exp, config),
    waitExpirySec: exp,
    used: visit.used,
    pct,
    place: placeParts(place),
    bot,
  });
}
