// The routing link of the chain: which room (if any) decides the request, by the rules, then the most
// specific route (routing.ts).
import { requestFacts } from '../request/index.js';
import { routeRequest, type Target, readRouting } from '../routing/index.js';
import type { ReasonCode } from '../types.js';
import type { Arrival } from './exchange.js';
import { unexpectedFailure } from './unexpected.js';

/** Where the routing sent a request (null: the routing is unusable), or `failed` when it threw. */
export type Routed = { target: Target | null } | 'failed';

/**
 * Where the routing sends the request. A promise only when a rule needs an ACL: most requests are
 * routed without one, and an await would cost them a turn of the runtime's job queue.
 */
export function route(arrival: Arrival): Routed | Promise<Routed> {
  const { request, url, deps, cookieHeader, note } = arrival;
  const { routing } = readRouting(deps);
  try {
    if (routing === null) return { target: null };
    const facts = requestFacts(request, url, cookieHeader, deps.clientIp, deps.edge ?? null, note);
    const target = routeRequest(routing, facts);
    if (!(target instanceof Promise)) return { target };
    return target.then(
      (t) => ({ target: t }),
      (error: unknown) => failed(deps, error),
    );
  } catch (error) {
    return failed(deps, error);
  }
}

/** A bug in the routing must neither open every room nor crash: the visitor waits (503), as when a decision fails. */
function failed(deps: Arrival['deps'], error: unknown): 'failed' {
  unexpectedFailure(deps, 'routing', error);
  return 'failed';
}

/** The reason a request no room decides goes to the origin with. */
export function passReason(target: Target | null): ReasonCode {
  if (target === null) return 'routing_unusable';
  return target.kind === 'bypass' ? 'rule_bypass' : 'no_room';
}
