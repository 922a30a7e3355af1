// A visitor who is in already (an allow token) or who won and was held back (a `won` token).
import { resultWith, type DecideResult } from '../result.js';
import { admit, admitNew } from '../admit.js';
import { noSigningKey } from '../issue.js';
import { type Answer, PASS } from '../step.js';
import { heldOf, type Visit } from '../visit.js';

/** An allow token: in, the token kept or renewed. */
export function allowToken(visit: Visit): Answer | Promise<Answer> {
  const token = heldOf(visit, 'allow');
  if (token === null) return PASS;
  return admit(visit, 'allow_valid', token); // never null: a presented allow token is kept
}

/** A win the ceiling held: admitted now, through the ceiling again. */
export function wonToken(visit: Visit): Answer | Promise<Answer> {
  const token = heldOf(visit, 'won');
  if (token === null) return PASS;
  // A win the ceiling held is kept, not spent, while `queue_all` is on.
  if (visit.config.queueAll)
    return resultWith({
      decision: 'wait',
      outcome: 'keepwaiting',
      reason: 'queue_all',
      kid: token.kid,
      waitDueSec: visit.nowSec + visit.config.waitPeriodSeconds,
      used: visit.used,
    });
  return admitWon(visit);
}

async function admitWon(visit: Visit): Promise<DecideResult> {
  return (await admitNew(visit, 'won_admitted', null)) ?? noSigningKey(visit);
}
