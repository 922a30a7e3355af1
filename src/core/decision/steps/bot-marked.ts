// A visitor a routing rule marks a bot, in a room with the infinite queue: a token of it, unless they
// hold one already (or an allow token, kept before). Without `bot_queue` the mark is only logged.
import { type Answer, PASS } from '../step.js';
import { boundary } from '../usable-token.js';
import type { Visit } from '../visit.js';
import { waitFrom } from '../wait.js';

export function botMarked(visit: Visit): Answer | Promise<Answer> {
  if (!visit.bot || !visit.config.botQueue || visit.stillBot) return PASS;
  return waitFrom(
    visit,
    boundary(visit.nowSec, visit.config.waitPeriodSeconds, 2),
    'bot_queued',
    null,
    undefined,
    true,
  );
}
