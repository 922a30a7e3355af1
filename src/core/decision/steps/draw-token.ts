// A draw's token (or a pre-queue token without a place): drawn when due. While the pre-queue drains
// after the start it goes first: no draw, and the next window's token, as a loser gets.
import { dueAt } from '../draw.js';
import { prequeueDraining } from '../queue.js';
import { drawOrRenew } from '../draw-or-renew.js';
import { type Answer, PASS } from '../step.js';
import { boundary } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { keepWaiting, waitFrom } from '../wait.js';

export function drawToken(visit: Visit): Answer | Promise<Answer> {
  const { usable, config, nowSec } = visit;
  if (usable === null || (usable.claims.dec !== 'wait' && usable.claims.dec !== 'pre')) return PASS;
  if (!prequeueDraining(config, visit.phase, nowSec)) return drawOrRenew(visit, usable, null);
  const due = dueAt(usable.signature, usable.claims.exp, config);
  if (nowSec < due) return keepWaiting(visit, usable, 'wait_not_due', due, { bot: visit.stillBot });
  return waitFrom(visit, boundary(nowSec, config.waitPeriodSeconds, 1), 'behind_prequeue');
}
