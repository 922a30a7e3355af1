// `queue_all`: everyone not inside waits, nobody draws; a token is renewed when due, so that
// `queue_all` never costs a visitor their place (or their token's freshness).
import { dueAt } from '../draw.js';
import type { DecideResult } from '../result.js';
import { holdsPlace } from '../queue.js';
import { placeFor, placeParts } from '../place.js';
import { type Answer, PASS } from '../step.js';
import { boundary } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { keepWaiting, waitFrom } from '../wait.js';

export function queueAll(visit: Visit): Answer | Promise<Answer> {
  return visit.config.queueAll ? waitAll(visit) : PASS;
}

async function waitAll(visit: Visit): Promise<DecideResult> {
  const { config, usable, nowSec } = visit;
  const d = config.waitPeriodSeconds;
  if (usable === null) return waitFrom(visit, boundary(nowSec, d, 2), 'queue_all');
  const due = dueAt(usable.signature, usable.claims.exp, config);
  const placing = placeFor(visit, usable.claims, usable.key);
  const place = placeParts(placing === null ? null : await placing);
  if (nowSec < due) return keepWaiting(visit, usable, 'queue_all', due, { place, bot: visit.stillBot });
  return waitFrom(visit, boundary(nowSec, d, 1), 'queue_all', null, holdsPlace(usable.claims) ? usable : undefined);
}
