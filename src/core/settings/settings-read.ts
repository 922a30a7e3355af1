// What one request reads of its settings from `waiting_room_config`, and no more: the settings of the
// room it lands in (four values), or the service-wide settings alone (one) for a request no room
// decides (the routing's one lookup is routing-read.ts's). A reused sandbox keeps each parse while the raw values it came from read the same.
import { describeProblem } from './problem.js';
import { parseRoomConfig } from './room-config.js';
import { rawList, readRoomRaws } from './layout.js';
import type { ParsedSettings, RoomDeps } from '../types.js';

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
