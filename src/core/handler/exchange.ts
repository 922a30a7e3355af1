// One request through the room and its answer: what the handler reads of it once (the address, the
// clock, the cookies), where the routing sends it (the room, its settings, the rule), and what the
// decision learns on the way (the identity's kind, the invitation), for the answer and the log line.
// Made once per request; every part of the chain reads and fills this one object.
import { answerLanguage, type AnswerLanguage } from '../answer/index.js';
import { splitRoomCookie, type RoomCookieSplit, type IdentityKind } from '../request/index.js';
import type { InviteReason } from '../tokens/index.js';
import type { Target } from '../routing/index.js';
import { readRoomConfig } from '../settings/index.js';
import type { Config, RoomDeps } from '../types.js';

/** What the handler reads of a request before routing it. */
export interface Arrival {
  request: Request;
  deps: RoomDeps;
  url: URL;
  nowMs: number;
  /** The request's Cookie header as it came (read once per request). */
  cookieHeader: string | null;
  /** A diagnostic said once per sandbox when it keeps a memory (sandbox-memory.ts), else every time. */
  note: (message: string) => void;
}

export interface Exchange extends Arrival {
  https: boolean;
  /** Where the routing sent the request: null when the routing is unusable or failed. */
  target: Target | null;
  /** The room that decides, null when none does. */
  room: string | null;
  config: Config;
  /** The room's split of the Cookie header: its tokens, and the rest for the origin. */
  cookies: RoomCookieSplit;
  /** The rule that sent the request here, if one did. */
  rule: string | null;
  /** The identity's kind, once the decision has resolved it (null before, and when no room decides). */
  identity: IdentityKind | null;
  /** Why an invitation the request carried let nobody in, for the log line. */
  invite: InviteReason | null;
  /** The request carries a valid invitation for this room and identity, which lets its visitor in at once. */
  invited: boolean;
  /** The lane a valid lane invitation of this room grants (docs/lanes.md), null without one. */
  inviteLane: string | null;
  /** Whether the request has an invitation header, once the decision has read it (undefined before). */
  inviteHeader?: boolean;
  /** Whether the request has a proof header, once the decision has read it (undefined before). */
  proofHeader?: boolean;
}

/** The exchange for a request the routing sent to `target` (null: no room, as when the routing failed). */
export function openExchange(arrival: Arrival, target: Target | null): Exchange {
  const room = target?.kind === 'room' ? target.room : null;
  const { config } = readRoomConfig(arrival.deps, room);
  // Field by field rather than `...arrival`: a spread walks the object's keys, once a request.
  return {
    request: arrival.request,
    deps: arrival.deps,
    url: arrival.url,
    nowMs: arrival.nowMs,
    cookieHeader: arrival.cookieHeader,
    note: arrival.note,
    https: arrival.url.protocol === 'https:',
    target,
    room,
    config,
    cookies: splitRoomCookie(arrival.cookieHeader, room),
    rule: target !== null && target.kind !== 'none' ? target.rule : null,
    identity: null,
    invite: null,
    invited: false,
    inviteLane: null,
  };
}

/** The language of an answer the room makes: worked out only then (answer-language.ts). */
export function languageOf(exchange: Exchange): AnswerLanguage {
  return answerLanguage({
    config: exchange.config,
    url: exchange.url,
    cookieHeader: exchange.cookieHeader,
    acceptLanguage: exchange.request.headers.get('accept-language'),
    https: exchange.https,
    deps: exchange.deps,
  });
}

/** The request asked for the JSON answer rather than a page. */
export function wantsJson(request: Request): boolean {
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** Cache-Control for every answer the room makes or changes: never kept by a cache. */
export const NO_STORE = 'no-store, private';
