// `allow_percentage = 0`: the deny page for everyone, before a single token is read.
import { resultWith } from '../result.js';
import { type Answer, PASS } from '../step.js';
import type { Visit } from '../visit.js';

export function denyAll(visit: Visit): Answer {
  if (visit.config.allowPercentage > 0) return PASS;
  return resultWith({ decision: 'deny', outcome: 'deny', reason: 'deny_all', clearCookie: true });
}
