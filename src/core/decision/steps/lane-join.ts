// A valid lane invitation on a visitor who holds a draw's wait token of another lane (or of the
// general one): a new token in the invitation's lane, at the back of it as a new visitor would be.
// Without it the visitor would go on waiting in their old lane, and lose the lane the moment they
// come back without the invitation (a link's invitation leaves the address at once).
import { type Answer, PASS } from '../step.js';
import { boundary } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { waitFrom } from '../wait.js';

export function laneJoin(visit: Visit): Answer | Promise<Answer> {
  const { inviteLane, usable } = visit;
  if (inviteLane === null || usable === null || usable.claims.dec !== 'wait') return PASS;
  if (usable.claims.lane === inviteLane) return PASS;
  return waitFrom(visit, boundary(visit.nowSec, visit.config.waitPeriodSeconds, 2), 'lane_joined');
}
