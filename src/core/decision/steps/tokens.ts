// The presented tokens, read once: the first usable one (usable-token.ts), caught up to the window its
// holder would be in now, or why none counts. Always passes: the steps after it decide on what it read.
import { visitLane } from '../lane.js';
import { PASS } from '../step.js';
import { catchUp, firstUsable } from '../usable-token.js';
import type { TokenFailure, Visit } from '../visit.js';

export async function readTokens(visit: Visit): Promise<null> {
  const { config, nowSec } = visit;
  const found = await firstUsable(visit, nowSec);
  const presented = 'claims' in found ? found : null;
  const caught = presented === null ? null : catchUp(presented, config, nowSec);
  const usable = caught instanceof Promise ? await caught : caught;
  visit.presented = presented;
  visit.usable = usable;
  visit.used =
    usable === null
      ? null
      : { token: usable.token, dec: usable.claims.dec, exp: usable.claims.exp, sub: usable.claims.sub };
  visit.failure = usable === null ? (found as TokenFailure) : null;
  // The infinite queue's tokens stay in it: every token they renew to is the bot's too. With
  // `bot_queue` off they are ordinary tokens again, and draw.
  visit.stillBot = usable?.bot === true && config.botQueue;
  visit.lane = visitLane(config, visit.inviteLane, usable);
  return PASS;
}
