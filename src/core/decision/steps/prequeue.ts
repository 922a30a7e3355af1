// The pre-queue: everyone not inside holds a pre-queue token for this event's start and sees the
// countdown. The token is the same for an identity on every device, so more tabs or devices get
// nothing; its rank is computed only from the start. Before the start nobody computes a rank: a
// pre-queue token kept from a pre-queue the operator has since moved later keeps its countdown.
import { prequeueRecheck } from '../queue.js';
import { resultWith, type DecideResult } from '../result.js';
import { issue, issuedParts, noSigningKey } from '../issue.js';
import { type Answer, PASS } from '../step.js';
import { heldOf, type Visit } from '../visit.js';

export function prequeue(visit: Visit): Answer | Promise<Answer> {
  const { phase, config } = visit;
  const pre = heldOf(visit, 'pre');
  if (phase !== 'prequeue' && !(phase === 'before' && pre !== null)) return PASS;
  const start = config.event!.start;
  // A bot (a token of the infinite queue, or a rule's mark with `bot_queue` on) gets no place in it.
  if (visit.stillBot || (visit.bot && config.botQueue)) return botCountdown(visit, start);
  if (pre === null) return joinPrequeue(visit, start);
  return resultWith({
    decision: 'wait',
    outcome: 'prequeue',
    reason: 'prequeue_waiting',
    kid: pre.kid,
    waitDueSec: prequeueRecheck(pre.signature, start, visit.nowSec, config),
    waitExpirySec: start,
    used: visit.used,
  });
}

/** A new pre-queue token for the event's start: the countdown. */
async function joinPrequeue(visit: Visit, start: number): Promise<DecideResult> {
  const issued = await issue(visit, 'pre', start, start);
  if (issued === null) return noSigningKey(visit);
  return resultWith({
    decision: 'start',
    outcome: 'prequeue',
    reason: visit.failure?.reason === 'token_other_event' ? 'token_other_event' : 'prequeue_joined',
    ...issuedParts(issued),
    waitDueSec: prequeueRecheck(issued.token, start, visit.nowSec, visit.config),
    waitExpirySec: start,
    used: visit.used,
  });
}

/**
 * A bot sees the countdown with a token of the infinite queue for the start: no place, and from the
 * start it waits there (docs/bots.md).
 */
async function botCountdown(visit: Visit, start: number): Promise<DecideResult> {
  const { usable } = visit;
  const kept = usable?.bot && usable.claims.dec === 'wait' ? usable : null;
  const issued = kept === null ? await issue(visit, 'wait', start, undefined, undefined, true) : null;
  if (kept === null && issued === null) return noSigningKey(visit);
  const signature = kept?.signature ?? issued!.token;
  return resultWith({
    decision: kept === null ? 'start' : 'wait',
    outcome: 'prequeue',
    reason: kept === null ? 'bot_queued' : 'prequeue_waiting',
    ...(issued === null ? { kid: kept!.kid } : issuedParts(issued)),
    waitDueSec: prequeueRecheck(signature, start, visit.nowSec, visit.config),
    waitExpirySec: start,
    used: visit.used,
    bot: true,
  });
}
