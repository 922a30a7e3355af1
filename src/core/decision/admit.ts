// Letting a visitor in: with the allow token they hold (renewed past half its life) or a new one, and,
// for a new admission, through the POP's ceiling, which may hold a winner back for a second or two.
import type { Place } from './queue.js';
import { resultWith, type DecideResult } from './result.js';
import type { ReasonCode } from '../types.js';
import { issue, issuedParts, noSigningKey } from './issue.js';
import { placeParts } from './place.js';
import { boundary, type Usable } from './usable-token.js';
import type { Visit } from './visit.js';

/**
 * Admit with an allow token, renewing the visitor's own once fewer than A seconds remain (past half
 * its longest life). Null when there is neither an allow token presented nor a key to sign a new one.
 */
export function admit(
  visit: Visit,
  reason: ReasonCode,
  allowToken: Usable | null,
  pct: number | null = null,
  place: Place | null = null,
): DecideResult | null | Promise<DecideResult | null> {
  const { nowSec, used } = visit;
  const A = visit.config.allowPeriodSeconds;
  const at = placeParts(place);
  const keep =
    allowToken === null
      ? null
      : resultWith({
          decision: 'allow',
          outcome: 'origin',
          reason,
          kid: allowToken.kid,
          allowExpirySec: allowToken.claims.exp,
          used,
          pct,
          place: at,
        });
  // Kept as it is, without a promise: the most common answer of all (an admitted visitor coming back).
  if (allowToken !== null && allowToken.claims.exp - nowSec >= A) return keep;
  return issueAllow(visit, reason, allowToken, keep, pct, at);
}

/** A new allow token (or the renewed one): `keep` when no key can sign one. */
async function issueAllow(
  visit: Visit,
  reason: ReasonCode,
  allowToken: Usable | null,
  keep: DecideResult | null,
  pct: number | null,
  at: ReturnType<typeof placeParts>,
): Promise<DecideResult | null> {
  const { nowSec, used } = visit;
  const exp = boundary(nowSec, visit.config.allowPeriodSeconds, 2);
  const issued = await issue(visit, 'allow', exp);
  // A still-valid allow token keeps working while no new one can be signed.
  if (issued === null) return keep;
  const renewed = allowToken !== null && reason === 'allow_valid';
  return resultWith({
    decision: 'allow',
    outcome: 'origin',
    reason: renewed ? 'allow_renewed' : reason,
    ...issuedParts(issued),
    allowExpirySec: exp,
    used,
    pct,
    place: at,
  });
}

/**
 * A new admission (no allow token presented): through the ceiling, if there is one. Those already held
 * at this POP go first: a fresh winner waits behind them.
 */
export async function admitNew(
  visit: Visit,
  reason: ReasonCode,
  pct: number | null,
  place: Place | null = null,
): Promise<DecideResult | null> {
  const { ceiling } = visit;
  if (ceiling !== null) {
    const behindOthers = reason !== 'won_admitted' && ceiling.heldRecently();
    if (behindOthers || !ceiling.tryAdmit()) return holdWinner(visit, pct);
  }
  return admit(visit, reason, null, pct, place);
}

/** A winner held back by the POP's ceiling: a `won` token (or the one they hold) and a second or two. */
async function holdWinner(visit: Visit, pct: number | null): Promise<DecideResult> {
  const { nowSec, usable } = visit;
  visit.ceiling?.noteHeld();
  const heldByCeiling = {
    decision: 'wait',
    outcome: 'keepwaiting',
    reason: 'ceiling_held',
    waitDueSec: nowSec + 1,
    used: visit.used,
    pct,
  } as const;
  if (usable?.claims.dec === 'won') return resultWith({ ...heldByCeiling, kid: usable.kid });
  // As long as the cookie, so a held win is never lost.
  const issued = await issue(visit, 'won', nowSec + visit.config.cookieLifetimeSeconds);
  // Without a key the win cannot be kept in a cookie; the ceiling gives way rather than lose it.
  if (issued === null) return (await admit(visit, 'draw_won', null, pct)) ?? noSigningKey(visit);
  return resultWith({ ...heldByCeiling, ...issuedParts(issued) });
}
