// A place in line (a first-come place, or a pre-queue token from the start on): admitted once the
// published cursor has passed it, else renewed with the same place. With no cursor published, a
// first-come place draws as the draw's tokens do, and keeps its place.
import { dueAt } from '../draw.js';
import type { DecideResult } from '../result.js';
import { holdsPlace, prequeueDraining } from '../queue.js';
import { admitNew } from '../admit.js';
import { drawOrRenew } from '../draw-or-renew.js';
import { noSigningKey } from '../issue.js';
import { placeFor, placeParts } from '../place.js';
import { type Answer, PASS } from '../step.js';
import { boundary, type Usable } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { keepWaiting, waitFrom } from '../wait.js';

export function placeInLine(visit: Visit): Answer | Promise<Answer> {
  const { usable, config } = visit;
  if (usable === null || !holdsPlace(usable.claims)) return PASS;
  if (usable.claims.dec !== 'pre' && config.queueingMethod !== 'fifo') return PASS;
  return byPlace(visit, usable);
}

async function byPlace(visit: Visit, usable: Usable): Promise<DecideResult> {
  const { config, nowSec } = visit;
  const place = (await placeFor(visit, usable.claims, usable.key))!;
  if (!place.byCursor && usable.claims.dec !== 'pre') {
    visit.diag(
      'queue_cursor is not set: first-come tokens draw at allow_percentage until the controller publishes a cursor',
    );
    return drawOrRenew(visit, usable, place);
  }
  const { exp } = usable.claims;
  const d = config.waitPeriodSeconds;
  // Due first, as for a draw: coming back every second must not get anyone in sooner.
  const due = dueAt(usable.signature, exp, config);
  if (nowSec < due) return keepWaiting(visit, usable, 'wait_not_due', due, { place: placeParts(place) });
  const behind = usable.claims.dec !== 'pre' && prequeueDraining(config, visit.phase, nowSec);
  // Checked in its own window only: a copy kept from an earlier window (another cookie jar, an old
  // tab) is renewed first, into the very token the visitor's current one renews to, so holding
  // several copies never gets anyone in sooner.
  const inWindow = nowSec < exp + d;
  if (place.pos < place.cursor && !behind && inWindow)
    return (await admitNew(visit, 'cursor_passed', null, place)) ?? noSigningKey(visit);
  return waitFrom(visit, boundary(nowSec, d, 1), behind ? 'behind_prequeue' : 'queue_waiting', null, usable);
}
