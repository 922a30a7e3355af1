// The first link of the chain: the request read once (its address, the clock, its cookies). A request
// whose address cannot be parsed, the page's solver and a room's status are answered here, before any routing.
import { solverAsset } from '../pages/index.js';
import type { RoomDeps } from '../types.js';
import { type Arrival, NO_STORE } from './exchange.js';
import { statusRequest } from './status.js';

/** The arrival, or the answer for a request that goes no further. */
export function readRequest(request: Request, deps: RoomDeps): Arrival | Response {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch (error) {
    return badRequest(request, error, deps);
  }
  // The page's solver: served before routing, never the origin's, no decision, no log line.
  const asset = solverAsset(request.method, url.pathname);
  if (asset !== null) return asset;
  const nowMs = deps.now();
  // A room's public status: answered here too, before any routing, never the origin's (status.ts).
  const status = statusRequest(request, url, deps, nowMs);
  if (status !== null) return status;
  const note = (message: string): void => {
    if (!deps.memory || deps.memory.firstTime(message)) deps.diag(message);
  };
  return { request, deps, url, nowMs, cookieHeader: request.headers.get('cookie'), note };
}

/**
 * A request whose URL cannot be parsed (a Host with a port past 65535, say) is not a visitor the
 * room can place: it answers 400, as the edge answers a malformed Host, and tells the operator.
 * Thrown out of the handler, the failure would be a 500.
 */
function badRequest(request: Request, error: unknown, deps: RoomDeps): Response {
  // Up to the path: what failed to parse is the scheme or the authority, and the logs keep query
  // strings out (the decision line names only the path).
  const shown = JSON.stringify(request.url.split(/[?#]/, 1)[0]!.slice(0, 200));
  deps.diag(
    `request URL ${shown} cannot be parsed (${error instanceof Error ? error.message : String(error)}); answering 400`,
  );
  const body = request.method === 'HEAD' ? null : 'Bad Request\n';
  return new Response(body, {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_STORE },
  });
}
