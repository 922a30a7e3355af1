// What one request reads of the routing from `waiting_room_config`: one lookup, parsed once per raw
// value in a reused sandbox. Kept beside routing.ts rather than in the settings family, which the
// routing itself reads its limits from.
import { parseRouting, type Routing, type RoutingProblem } from './routing.js';
import { ROUTING_KEY } from '../settings/index.js';
import type { RoomDeps } from '../types.js';

export interface ReadRouting {
  /** Null when the value is unusable: every request then goes to the origin (docs/routing.md). */
  routing: Routing | null;
  problems: readonly RoutingProblem[];
}

/**
 * The routing, parsed once per raw value in a reused sandbox. Its problems are said when it is parsed:
 * once per sandbox and value, not on each of the requests it then serves.
 */
export function readRouting(deps: RoomDeps): ReadRouting {
  const raw = deps.stores.setting(ROUTING_KEY);
  const parse = (): ReadRouting => {
    const read = parseRouting(raw);
    for (const problem of read.problems) deps.diag(describeRoutingProblem(problem));
    return read;
  };
  return deps.memory ? deps.memory.parsed('routing', [raw], parse) : parse();
}

/** What fixes any routing problem: tune checks a routing file, refuses one with a problem, and writes it. */
export const ROUTING_FIX = 'npm run tune -- --routing FILE';

/**
 * One line per routing problem, for deps.diag: what is wrong and what the edge does instead (the
 * message names the rule or room it concerns, once), the part as written, then the fixing command.
 */
export function describeRoutingProblem(p: RoutingProblem): string {
  const where = p.message.startsWith('routing') ? '' : 'routing: ';
  const written = p.value === '' ? '' : ` (as written: ${p.value})`;
  return `waiting_room_config: ${where}${p.message}${written}; check and write a fixed value: ${ROUTING_FIX}`;
}
