// A place its holder stopped checking on is lost: a new token, at the back.
import { holdsPlace, placeLostAt } from '../queue.js';
import { type Answer, PASS } from '../step.js';
import { boundary } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { waitFrom } from '../wait.js';

export function placeLost(visit: Visit): Answer | Promise<Answer> {
  const { usable, nowSec, config } = visit;
  if (usable === null || !holdsPlace(usable.claims) || nowSec < placeLostAt(usable.claims.exp, config)) return PASS;
  return waitFrom(visit, boundary(nowSec, config.waitPeriodSeconds, 1), 'token_stale');
}
