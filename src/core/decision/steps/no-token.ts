// No usable token: a new one, with the reason none counted (`no_token`, or why the cookie failed).
// The last step: it always answers.
import type { DecideResult } from '../result.js';
import { boundary } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { waitFrom } from '../wait.js';

export function noToken(visit: Visit): Promise<DecideResult> {
  return waitFrom(visit, boundary(visit.nowSec, visit.config.waitPeriodSeconds, 2), visit.failure!.reason);
}
