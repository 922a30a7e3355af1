// The draw of a due token, shared by the steps for a draw's token and for a first-come place while no
// cursor is published: admitted on a win; on a loss, the next window's token (with the same place, if any).
import { drawWins, dueAt, staleAt } from './draw.js';
import { laneChance } from './lane.js';
import { holdsPlace, type Place } from './queue.js';
import type { DecideResult } from './result.js';
import { admitNew } from './admit.js';
import { noSigningKey } from './issue.js';
import { placeParts } from './place.js';
import { drawProof, pageWithoutProof } from './proof.js';
import { boundary, type Usable } from './usable-token.js';
import type { Visit } from './visit.js';
import { keepWaiting, waitFrom } from './wait.js';

export async function drawOrRenew(visit: Visit, token: Usable, place: Place | null): Promise<DecideResult> {
  const { config, nowSec, stillBot } = visit;
  const d = config.waitPeriodSeconds;
  const { exp } = token.claims;
  const due = dueAt(token.signature, exp, config);
  if (nowSec < due) return keepWaiting(visit, token, 'wait_not_due', due, { place: placeParts(place), bot: stillBot });
  const keep = holdsPlace(token.claims) ? token : undefined;
  // Past its window and the one of grace: no draw, or a kept pile of old tickets would all be drawn
  // at once when the operator raises allow_percentage. Like a loser: the next boundary.
  if (nowSec >= staleAt(exp, config)) return waitFrom(visit, boundary(nowSec, d, 1), 'token_stale', null, keep);
  // A lane's draws use the lane's chance (lane.ts): the room's own in a room without lanes.
  const chance = laneChance(config, visit.lane, exp);
  // The infinite queue's token "loses", as a loser of the real queue does, whatever the chance.
  if (stillBot) return waitFrom(visit, exp + d, 'bot_waiting', chance);
  // A proof asked and not brought: a failed or skipped one sends the visitor to the infinite queue
  // when the room has one; else (a wrong one, a visitor without JavaScript) a share of the chance.
  const { presented } = visit;
  const proof = presented === null ? null : await drawProof(config, presented, token, visit.proof);
  // A page that sent nothing may not have solved yet: not drawn in its own window, its puzzle given.
  if (proof === 'missing' && presented?.token === token.token && pageWithoutProof(visit.proof) && nowSec < exp + d)
    return keepWaiting(visit, token, 'proof_pending', exp + d, { place: placeParts(place) });
  const proofCheck = proof === null ? {} : { proofCheck: proof };
  if ((proof === 'failed' || proof === 'skipped') && config.botQueue)
    return { ...(await waitFrom(visit, exp + d, 'bot_queued', chance, undefined, true)), ...proofCheck };
  const pct = proof === null || proof === 'valid' ? chance : chance * config.proofFreeShare;
  if (drawWins(token.signature, pct))
    return { ...((await admitNew(visit, 'draw_won', pct)) ?? noSigningKey(visit)), ...proofCheck };
  // Lost: the next token expires at the NEXT boundary (docs/design.md: one draw per window per identity).
  // One window after its own, even when drawn in the window of grace: the successor the log named
  // when the token was issued, so the controller knows it; a holder who came late draws it on time.
  return { ...(await waitFrom(visit, exp + d, 'draw_lost', pct, keep)), ...proofCheck };
}
