// One request through the rooms, as a chain: read the request (a preview link is answered there,
// handler/preview.ts), route it (the rules, then the most
// specific route), decide (the room's settings, an invitation, the decision), answer (the origin or a
// page made at the edge) and log (handler/log.ts, the one place the decision line is assembled).
// Runtime-neutral: the Fastly adapter and the tests hand in the same RoomDeps shape.
import { resultWith, type DecideResult } from './decision/index.js';
import {
  decideExchange,
  type Exchange,
  openExchange,
  hammering,
  inviteRedirect,
  logOutcome,
  toOrigin,
  roomPage,
  readRequest,
  passReason,
  previewAnswer,
  PREVIEW_PATH,
  route,
} from './handler/index.js';
import type { ReasonCode, RoomDeps } from './types.js';

export { COMMAND_HEADER } from './handler/index.js';

export async function handle(request: Request, deps: RoomDeps): Promise<Response> {
  const arrival = readRequest(request, deps);
  if (arrival instanceof Response) return arrival;
  // A preview link is the room's own page, whatever the routing and its rules say of the path.
  if (arrival.url.pathname === PREVIEW_PATH) return previewAnswer(arrival);
  const routing = route(arrival);
  const routed = routing instanceof Promise ? await routing : routing;
  if (routed === 'failed') {
    const exchange = openExchange(arrival, null);
    exchange.identity = 'ip';
    return roomPage(exchange, resultWith({ decision: 'start', outcome: 'startwaiting', reason: 'internal_error' }));
  }
  const exchange = openExchange(arrival, routed.target);
  const { room, config } = exchange;
  if (room === null) return toOrigin(exchange, passed(passReason(routed.target)));
  if (!config.enabled) return toOrigin(exchange, passed('disabled'));
  const hammered = hammering(exchange);
  if (hammered !== null) return hammered;
  const result = await decideExchange(exchange, room);
  if (result.outcome !== 'origin') return waiting(exchange, result);
  return admitted(exchange, result);
}

/** A request no room decides, on its way to the origin untouched. */
function passed(reason: ReasonCode): DecideResult {
  return resultWith({ decision: 'allow', outcome: 'origin', reason, kid: null });
}

/**
 * A page made at the edge; a lane invitation's link (docs/lanes.md) first redirected to the same
 * address without it, its lane's token in the cookie, as an admitting invitation's is.
 */
function waiting(exchange: Exchange, result: DecideResult): Promise<Response> | Response {
  const laneLink = exchange.inviteLane !== null && result.outcome !== 'deny' && !result.clearCookie;
  const redirect = laneLink ? inviteRedirect(exchange, result.setToken) : null;
  if (redirect === null) return roomPage(exchange, result);
  logOutcome(exchange, { result, status: redirect.status });
  return redirect;
}

/** An admitted visitor: to the origin, or first out of an invitation link by a redirect. */
function admitted(exchange: Exchange, result: DecideResult): Promise<Response> | Response {
  const invitation = exchange.invited || exchange.inviteLane !== null;
  const redirect = invitation ? inviteRedirect(exchange, result.setToken) : null;
  if (redirect === null) return toOrigin(exchange, result);
  logOutcome(exchange, { result, status: redirect.status });
  return redirect;
}
