// A closed event lets those inside finish on their allow token (checking out, say), but never renews
// it: everyone is out within two allow periods. Nobody else gets in. (`allow_percentage = 0` is the way
// to turn everyone out at once.)
import { resultWith } from '../result.js';
import { type Answer, PASS } from '../step.js';
import { heldOf, type Visit } from '../visit.js';

export function eventClosed(visit: Visit): Answer {
  if (visit.phase !== 'ended' || visit.config.event?.endAction !== 'close') return PASS;
  const allowToken = heldOf(visit, 'allow');
  if (allowToken === null) {
    return resultWith({ decision: 'deny', outcome: 'deny', reason: 'event_closed', clearCookie: true });
  }
  return resultWith({
    decision: 'allow',
    outcome: 'origin',
    reason: 'allow_valid',
    kid: allowToken.kid,
    allowExpirySec: allowToken.claims.exp,
    used: visit.used,
  });
}
