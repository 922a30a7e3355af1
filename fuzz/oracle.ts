// The fuzz run's judge. Every request the run sends carries its number (`x-fuzz-n`) and is recorded
// with the rights it carries: the rooms in which it holds its own identity's valid allow token (or
// due wait token) under that room's cookie, or a valid invite. When a request reaches the origin, the
// oracle places it as the routing should (fuzz/rooms.ts) and asks: was it a bypass rule, an open
// room, or a room it had a right in? Anything else reached the origin without a right. The origin
// must also never see a room's cookie, whichever room decided.
import type { EchoedRequest } from '../lib/echo-origin.js';
import { COOKIE_PREFIX } from '../src/core/request/index.js';
import { placeRequest, type RoomId } from './rooms.js';

/** The header that numbers each request the run sends. */
export const REQUEST_NUMBER = 'x-fuzz-n';

/** What the run sent, as the oracle needs it. */
export interface SentRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Rooms in which this request carries a right of its own (a valid own token or invite for that room). */
  rights: readonly RoomId[];
}

export interface JudgeOptions {
  /** Rooms open to everyone while these requests ran. */
  open: readonly RoomId[];
  /** Whether the room in force applies the routing's rules (fuzz/run.ts asks it once). */
  rules: boolean;
}

export interface Verdict {
  /** Requests that reached the origin without a right in the room they were for. */
  withoutRight: Array<{ sent: SentRequest | null; why: string }>;
  /** Requests the origin received carrying a room's cookie. */
  roomCookieSeen: number;
}

/** Any cookie pair whose name is a room cookie's (`waiting_room`, `waiting_room_ID`). */
export function carriesRoomCookie(cookieHeader: string | string[] | undefined): boolean {
  const text = Array.isArray(cookieHeader) ? cookieHeader.join('; ') : (cookieHeader ?? '');
  return text.split(/[;,]/).some((pair) => {
    const name = pair.split('=', 1)[0]!.trim().toLowerCase();
    return name === COOKIE_PREFIX || name.startsWith(`${COOKIE_PREFIX}_`);
  });
}

/** Judges what reached the origin against what was sent (by number). */
export function judge(
  arrived: readonly EchoedRequest[],
  sent: ReadonlyMap<string, SentRequest>,
  options: JudgeOptions,
): Verdict {
  const verdict: Verdict = { withoutRight: [], roomCookieSeen: 0 };
  for (const request of arrived) {
    if (carriesRoomCookie(request.headers.cookie)) verdict.roomCookieSeen++;
    const n = request.headers[REQUEST_NUMBER];
    const record = typeof n === 'string' ? sent.get(n) : undefined;
    if (record === undefined) {
      verdict.withoutRight.push({
        sent: null,
        why: `a request the run cannot account for: ${request.method} ${request.path.slice(0, 60)}`,
      });
      continue;
    }
    const place = placeRequest(record, options.rules);
    if (place.kind === 'bypass') continue;
    if (options.open.includes(place.room) || record.rights.includes(place.room)) continue;
    const rights = record.rights.length === 0 ? 'none' : record.rights.join(', ');
    verdict.withoutRight.push({
      sent: record,
      why: `${record.kind}: ${record.method} ${record.path.slice(0, 60)} is room ${place.room}'s, and the request's rights were in: ${rights}`,
    });
  }
  return verdict;
}
