// Invitations: a link or header that lets one visitor into one room at once, or into one of its
// priority lanes, until it expires. Any backend can make one (docs/invites.md): a compact JWS, HS256,
// header exactly {alg, kid}, payload exactly {room, sub, exp} or {room, sub, exp, lane}, signed with a
// key stored as `invite.KID` in `waiting_room_keys`. An invite is attacker-supplied text, so checking
// one never throws: every failure is a reason.
import { type DecodedJws, decodeCompact, jsonObjectOf, signCompact, verifyCompact } from './jws.js';
import { LANE_ID, ROOM_ID } from '../settings/index.js';

export { INVITE_KID_PREFIX } from './keys.js';

/** The query parameter that carries an invite in a link. */
export const INVITE_PARAM = 'waiting_room_invite';
/** The request header that carries an invite (it wins over the query parameter). */
export const INVITE_HEADER = 'waiting-room-invite';
/** Longer than this is malformed, before any parsing: a bound on the work one request can ask for. */
export const MAX_INVITE_CHARS = 2048;

export type InviteReason =
  | 'invite_malformed'
  | 'invite_forged'
  | 'invite_expired'
  | 'invite_other_room'
  | 'invite_other_identity'
  | 'invite_unknown_lane';
/** A valid invite: its expiry and key, and the lane it grants (null: it lets its visitor in at once). */
export type InviteCheck =
  | { ok: true; exp: number; kid: string; lane: string | null }
  | { ok: false; reason: InviteReason };

/**
 * What an invite says: the room it opens, the identity it is for (identity.ts's text), its expiry
 * (epoch s), and, for a lane invitation, the lane of that room its visitor waits in (docs/lanes.md).
 */
export interface InviteClaims {
  room: string;
  sub: string;
  exp: number;
  lane?: string;
}

const encoder = new TextEncoder();

/**
 * The invite a request carries (the header wins over the query parameter), or null. Cheap when there
 * is none. `header` is the request's INVITE_HEADER as read by the caller, who also strips it for the origin.
 */
export function inviteFrom(url: URL, header: string | null): string | null {
  const fromHeader = header?.trim();
  if (fromHeader) return fromHeader;
  // Most requests carry no invite: no query parse unless the name is in the query text at all.
  if (!url.search.includes(INVITE_PARAM)) return null;
  const param = url.searchParams.get(INVITE_PARAM)?.trim();
  return param ? param : null;
}

/**
 * Signs an invite: exactly the bytes docs/invites.md describes, so an invite made by any backend that
 * follows it is byte-identical to this one (the tool and the tests use it; the room only verifies).
 */
export function signInvite(claims: InviteClaims, kid: string, key: CryptoKey | Uint8Array): Promise<string> {
  const fields = { room: claims.room, sub: claims.sub, exp: claims.exp };
  const payload = JSON.stringify(claims.lane === undefined ? fields : { ...fields, lane: claims.lane });
  return signCompact('HS256', kid, encoder.encode(payload), key);
}

/** Exactly `keys`, no more: a parameter or claim the format lacks is nothing a signer of ours wrote. */
const hasExactly = (o: Record<string, unknown>, keys: readonly string[]): boolean => {
  const own = Object.keys(o);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(o, k));
};

/** The kid, claims and parts of a well-shaped invite (signature unchecked), or null. */
function shape(invite: string): { kid: string; claims: InviteClaims; jws: DecodedJws } | null {
  if (invite.length > MAX_INVITE_CHARS) return null;
  // One spelling per invite: three parts of unpadded base64url, each spelled canonically (as token.ts).
  const jws = decodeCompact(invite);
  if (jws === null || jws === 'noncanonical') return null;
  const header = jsonObjectOf(jws.header);
  if (header === null || !hasExactly(header, ['alg', 'kid']) || header.alg !== 'HS256') return null;
  const { kid } = header;
  if (typeof kid !== 'string' || kid === '') return null;
  const payload = jsonObjectOf(jws.payload);
  if (payload === null) return null;
  const laned = Object.hasOwn(payload, 'lane');
  if (!hasExactly(payload, laned ? ['room', 'sub', 'exp', 'lane'] : ['room', 'sub', 'exp'])) return null;
  const { room, sub, exp, lane } = payload;
  if (typeof room !== 'string' || !ROOM_ID.test(room)) return null;
  if (typeof sub !== 'string' || sub === '') return null;
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp)) return null;
  if (!laned) return { kid, claims: { room, sub, exp }, jws };
  if (typeof lane !== 'string' || !LANE_ID.test(lane)) return null;
  return { kid, claims: { room, sub, exp, lane }, jws };
}

/**
 * Checks an invite for one room and visitor. Order: shape -> key (an unknown kid is forged) ->
 * signature -> expiry (expired from its `exp` second on) -> room -> identity -> lane (one of the
 * room's `lanes`). `key` gives the invite key a kid names (KeyRing.inviteKey), or null.
 */
export async function checkInvite(
  invite: string,
  expect: { room: string; identity: string; nowSec: number; lanes?: readonly string[] },
  key: (kid: string) => Promise<CryptoKey | null>,
): Promise<InviteCheck> {
  const shaped = shape(invite);
  if (shaped === null) return { ok: false, reason: 'invite_malformed' };
  const { kid, claims, jws } = shaped;
  try {
    const secret = await key(kid);
    if (secret === null || !(await verifyCompact('HS256', jws, secret))) return { ok: false, reason: 'invite_forged' };
  } catch {
    // A key the store could not give, or one that is not HS256's: either way nothing vouches for it.
    return { ok: false, reason: 'invite_forged' };
  }
  if (claims.exp <= expect.nowSec) return { ok: false, reason: 'invite_expired' };
  if (claims.room !== expect.room) return { ok: false, reason: 'invite_other_room' };
  if (claims.sub !== expect.identity) return { ok: false, reason: 'invite_other_identity' };
  if (claims.lane === undefined) return { ok: true, exp: claims.exp, kid, lane: null };
  // A lane this room does not declare (another room's, one removed since) is no lane, never an open door.
  if (!(expect.lanes ?? []).includes(claims.lane)) return { ok: false, reason: 'invite_unknown_lane' };
  return { ok: true, exp: claims.exp, kid, lane: claims.lane };
}
