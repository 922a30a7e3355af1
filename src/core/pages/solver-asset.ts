// The waiting page's proof-of-work solver (pages/solver/), compiled into the service as text and
// served by the edge itself at a reserved path named after its hash: before routing, so it never
// reaches the origin, is no decision and is not logged. The URL changes with every new solver, so
// browsers may keep it for a year.
import { hash, source } from 'waiting-room:solver';

/** Where the page loads the solver from (the template's `solverUrl`). */
export const SOLVER_PATH = `/__waiting_room/solver-${hash}.js`;

const HEADERS = { 'Content-Type': 'text/javascript', 'Cache-Control': 'public, max-age=31536000, immutable' };

/** The solver's answer for a GET or HEAD of its path; null for every other request. */
export function solverAsset(method: string, pathname: string): Response | null {
  if (pathname !== SOLVER_PATH || (method !== 'GET' && method !== 'HEAD')) return null;
  return new Response(method === 'HEAD' ? null : source, { status: 200, headers: HEADERS });
}
