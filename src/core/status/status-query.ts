// Where the room answers its status, and the one query it takes (docs/status.md). The path is under the
// room's reserved prefix, which the edge answers before any routing: no rule or route can send it to
// the origin, and no site page can be shadowed by it.
import { ROOM_ID } from '../settings/index.js';

/** The status of a room: `GET /__waiting_room/status?room=ID`. */
export const STATUS_PATH = '/__waiting_room/status';

export type StatusQuery = { room: string; problem?: undefined } | { room?: undefined; problem: string };

/** The room a status request asks for, or what is wrong with its query (a 400). */
export function readStatusQuery(params: URLSearchParams): StatusQuery {
  let room: string | null = null;
  for (const [name, value] of params) {
    if (name !== 'room')
      return { problem: `unknown parameter ${JSON.stringify(name.slice(0, 40))}: the only one is room` };
    if (room !== null) return { problem: 'room is given more than once' };
    room = value;
  }
  if (room === null) return { problem: 'room is missing: /__waiting_room/status?room=ID' };
  if (!ROOM_ID.test(room))
    return {
      problem: `room ${JSON.stringify(room.slice(0, 40))} is not a room id (lower case, digits, - and _, at most 32 characters)`,
    };
  return { room };
}
