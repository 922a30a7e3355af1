// The decision link of the chain: the room's decision (decision/) for the exchange's room, with what
// only a request has (the identity, the invitation, the proof header, the POP's ceiling). A failure
// never opens the gate: the visitor keeps waiting.
import { createCeiling, decide, resultWith, type DecideResult } from '../decision/index.js';
import { resolveIdentity } from '../request/index.js';
import { checkInvite, INVITE_HEADER, inviteFrom, createKeyRing, type KeyRing, PROOF_HEADER } from '../tokens/index.js';
import { type Exchange, wantsJson } from './exchange.js';
import { unexpectedFailure } from './unexpected.js';

/** The decision for the room `room` the exchange was routed to. */
export async function decideExchange(exchange: Exchange, room: string): Promise<DecideResult> {
  const { config, request, deps, nowMs } = exchange;
  try {
    const who = await resolveIdentity(config, request, deps.clientIp, nowMs);
    exchange.identity = who.kind;
    const keys = createKeyRing((kid) => deps.stores.key(kid), deps.diag, deps.memory);
    const invitation = readInvitation(exchange, room, who.identity, keys);
    if (invitation !== null) await invitation;
    // The counter is opened only when there is a ceiling to keep.
    const ceiling =
      config.popAdmissionsPerSecond === null
        ? null
        : createCeiling(config.popAdmissionsPerSecond, deps.rateCounter, exchange.note);
    // The proof header is read only where a proof can be asked.
    const proofHeader = config.proofOfWork === 'off' ? null : request.headers.get(PROOF_HEADER);
    if (config.proofOfWork !== 'off') exchange.proofHeader = proofHeader !== null;
    return await decide({
      config,
      keys,
      identity: who.identity,
      tokens: exchange.cookies.tokens,
      nowMs,
      ceiling,
      // Successors are for the controller, which reads the log: no log, no extra signature.
      successors: config.logEndpoint !== null,
      diag: deps.diag,
      memory: deps.memory,
      invited: exchange.invited,
      lane: exchange.inviteLane,
      proof: { header: proofHeader, json: wantsJson(request) },
      bot: exchange.target?.kind === 'room' && exchange.target.bot === true,
    });
  } catch (error) {
    // A bug must not open the gate: keep the visitor waiting, say so, issue nothing.
    unexpectedFailure(deps, 'deciding', error);
    exchange.identity = 'ip';
    return resultWith({ decision: 'start', outcome: 'startwaiting', reason: 'internal_error' });
  }
}

/**
 * The invitation the request carries, checked for this room and identity: in `invited`, or why not in
 * `invite`; null (nothing to wait for) when it carries none, as most requests.
 */
function readInvitation(exchange: Exchange, room: string, identity: string, keys: KeyRing): Promise<void> | null {
  const inviteHeader = exchange.request.headers.get(INVITE_HEADER);
  exchange.inviteHeader = inviteHeader !== null;
  const invite = inviteFrom(exchange.url, inviteHeader);
  return invite === null ? null : checkInvitation(exchange, invite, room, identity, keys);
}

async function checkInvitation(
  exchange: Exchange,
  invite: NonNullable<ReturnType<typeof inviteFrom>>,
  room: string,
  identity: string,
  keys: KeyRing,
): Promise<void> {
  const nowSec = Math.floor(exchange.nowMs / 1000);
  const lanes = exchange.config.lanes.map((l) => l.id);
  const invited = await checkInvite(invite, { room, identity, nowSec, lanes }, (kid) => keys.inviteKey(kid));
  if (!invited.ok) exchange.invite = invited.reason;
  // A lane invitation puts its visitor in the lane (docs/lanes.md); any other lets them in at once.
  exchange.invited = invited.ok && invited.lane === null;
  exchange.inviteLane = invited.ok ? invited.lane : null;
}
