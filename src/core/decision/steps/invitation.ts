// An invitation lets its holder in at once; in an invite-only room nobody else gets in, though those
// already inside finish on their allow token.
import { resultWith, type DecideResult } from '../result.js';
import { admit } from '../admit.js';
import { noSigningKey } from '../issue.js';
import { type Answer, PASS } from '../step.js';
import { heldOf, type Visit } from '../visit.js';

export function invitation(visit: Visit): Answer | Promise<Answer> {
  if (!visit.invited) return PASS;
  return admitInvited(visit);
}

async function admitInvited(visit: Visit): Promise<DecideResult> {
  const allowToken = heldOf(visit, 'allow');
  return (await admit(visit, allowToken === null ? 'invite' : 'allow_valid', allowToken)) ?? noSigningKey(visit);
}

export function inviteOnly(visit: Visit): Answer {
  // A lane invitation's visitor (or a lane token's holder) waits in the lane: it is an invitation too.
  if (!visit.config.inviteOnly || heldOf(visit, 'allow') !== null || visit.lane !== null) return PASS;
  return resultWith({
    decision: 'deny',
    outcome: 'deny',
    reason: 'invite_only',
    kid: visit.failure?.kid ?? null,
    used: visit.used,
  });
}
