// What one request reads from `waiting_room_config`, and no more: the routing (one lookup), then
// the settings of the room it lands in (four), or the service-wide settings alone (one) for a request
// no room decides. A reused sandbox keeps each parse while the raw values it came from read the same.
import { describeProblem, parseRoomConfig } from './config.js';
import { rawList, readRoomRaws, ROUTING_KEY } from './layout.js';
import { parseRouting, type Routing, type RoutingProblem } from './routing.js';
import type { ParsedSettings, RoomDeps } from './types.js';

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

/** The settings of `room`, or the service-wide settings alone when `room` is null; problems said as the routing's are. */
export function readRoomConfig(deps: RoomDeps, room: string | null): ParsedSettings {
  const raws = readRoomRaws((key) => deps.stores.setting(key), room);
  const parse = (): ParsedSettings => {
    const parsed = parseRoomConfig(room, raws);
    for (const problem of parsed.problems) deps.diag(describeProblem(problem));
    return parsed;
  };
  return deps.memory ? deps.memory.parsed(room === null ? 'service' : `room ${room}`, rawList(raws), parse) : parse();
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
