// Everyone in: the operator's 100, or an event that ended with `pass`. The pre-queue, its draining after
// the start, and `queue_all` queue everyone who is not inside, whatever the percentage. A token of the
// infinite queue stays in it when the room opens: else it would empty into the origin the moment the
// real queue does (the controller opens a room nobody else waits in).
import { prequeueDraining } from '../queue.js';
import { resultWith, type DecideResult } from '../result.js';
import type { ReasonCode } from '../../types.js';
import { admit, admitNew } from '../admit.js';
import { type Answer, PASS } from '../step.js';
import { heldOf, type Visit } from '../visit.js';

export function everyoneIn(visit: Visit): Answer | Promise<Answer> {
  const { config, phase, nowSec } = visit;
  const passAll = phase === 'ended' && config.event?.endAction === 'pass';
  const everyoneQueues = phase === 'prequeue' || config.queueAll || prequeueDraining(config, phase, nowSec);
  if (!(passAll || (config.allowPercentage >= 100 && !everyoneQueues)) || visit.stillBot) return PASS;
  return admitEveryone(visit, passAll);
}

async function admitEveryone(visit: Visit, passAll: boolean): Promise<DecideResult> {
  const { config } = visit;
  const allowToken = heldOf(visit, 'allow');
  const reason: ReasonCode = heldOf(visit, 'won') !== null ? 'won_admitted' : passAll ? 'event_passed' : 'allow_all';
  // Everyone is admitted anyway, so a missing key costs only the cookie; the log says why.
  return (
    (allowToken !== null
      ? await admit(visit, reason === 'won_admitted' ? 'allow_all' : reason, allowToken)
      : await admitNew(visit, reason, null)) ??
    resultWith({ decision: 'allow', outcome: 'origin', reason: 'no_signing_key', kid: config.activeKey })
  );
}
