// A draw's token when the room is first-come: it joins the line now.
import { type Answer, PASS } from '../step.js';
import { boundary } from '../usable-token.js';
import { heldOf, type Visit } from '../visit.js';
import { waitFrom } from '../wait.js';

export function joinLine(visit: Visit): Answer | Promise<Answer> {
  const token = heldOf(visit, 'wait');
  const { config } = visit;
  if (token === null || token.claims.arr !== undefined || config.queueingMethod !== 'fifo' || visit.stillBot)
    return PASS;
  return waitFrom(visit, boundary(visit.nowSec, config.waitPeriodSeconds, 1), 'queue_waiting');
}
