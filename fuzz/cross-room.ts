// Attacks across rooms: one visitor's valid tokens and invites carried where they give no right (as
// another room's cookie, on another room's paths, behind the vip cookie's rule, by another identity),
// forged, expired and replayed invites in the query and the header, and paths and headers that look
// like a bypass rule without matching it. Each attack says which rooms it holds a right in, so the
// oracle (fuzz/oracle.ts) can tell a leak from a visitor who was entitled. A few carry a right on
// purpose (the owner's own token in its own room, a valid invite on its own room's path): controls
// that keep the oracle honest.
import { CompactSign } from 'jose';
import { cookieName } from '../src/core/request/index.js';
import { mintToken, windowBoundary } from '../lib/mint.js';
import type { Attack } from './attacks.js';
import type { SentRequest } from './oracle.js';
import { GUARDED, PARTNER, ROOM_PATHS, VIP_COOKIE, WAIT_SECONDS, type RoomId } from './rooms.js';

/** The invite key's id (stored as `invite.fz1`), and the query parameter and header that carry an invite. */
export const INVITE_KID = 'fz1';
export const INVITE_PARAM = 'waiting_room_invite';
export const INVITE_HEADER = 'waiting-room-invite';

type PerRoom = Record<RoomId, string>;

/** One visitor's valid tokens and invites in every guarded room, and invites that must not work. */
export interface RoomMaterial {
  /** The visitor's identity header value; its identity as the room sees it is `header:OWNER`. */
  owner: string;
  allow: Partial<PerRoom>;
  /** Wait tokens, due now (a draw in their room). */
  wait: Partial<PerRoom>;
  invites: {
    valid: Partial<PerRoom>;
    expired: Partial<PerRoom>;
    badSignature: Partial<PerRoom>;
    unknownKid: Partial<PerRoom>;
    /** For another identity, presented by the owner. */
    otherSub: Partial<PerRoom>;
  };
}

const encoder = new TextEncoder();

/** An invite as docs/invites.md describes it: compact JWS, HS256, header {alg, kid}, payload {room, sub, exp}. */
export function signInvite(
  claims: { room: string; sub: string; exp: number },
  kid: string,
  key: Uint8Array,
): Promise<string> {
  const payload = JSON.stringify({ room: claims.room, sub: claims.sub, exp: claims.exp });
  return new CompactSign(encoder.encode(payload)).setProtectedHeader({ alg: 'HS256', kid }).sign(key);
}

/** Mints the owner's material with the room's signing key and the invite key. */
export async function roomMaterial(
  signing: { bytes: Uint8Array; kid: string },
  inviteKey: Uint8Array,
  owner = 'owner',
): Promise<RoomMaterial> {
  const identity = `header:${owner}`;
  const nowSec = Math.floor(Date.now() / 1000);
  const wrongKey = new Uint8Array(32).fill(7);
  const m: RoomMaterial = {
    owner,
    allow: {},
    wait: {},
    invites: { valid: {}, expired: {}, badSignature: {}, unknownKid: {}, otherSub: {} },
  };
  // The invite's header names the key as KID; the key store holds it as `invite.KID`.
  const kid = INVITE_KID;
  for (const room of GUARDED) {
    const base = { key: signing.bytes, kid: signing.kid, identity };
    m.allow[room] = await mintToken(base, { dec: 'allow', exp: windowBoundary(60, 2), room });
    m.wait[room] = await mintToken(base, { dec: 'wait', exp: windowBoundary(WAIT_SECONDS, -1), room });
    const claims = { room, sub: identity, exp: nowSec + 900 };
    m.invites.valid[room] = await signInvite(claims, kid, inviteKey);
    m.invites.expired[room] = await signInvite({ ...claims, exp: nowSec - 5 }, kid, inviteKey);
    m.invites.badSignature[room] = await signInvite(claims, kid, wrongKey);
    m.invites.unknownKid[room] = await signInvite(claims, 'nope', inviteKey);
    m.invites.otherSub[room] = await signInvite({ ...claims, sub: 'header:someone-else' }, kid, inviteKey);
  }
  return m;
}

export type CrossAttack = Attack & Pick<SentRequest, 'rights'>;

/** One cross-room attack; `attacker` is an identity that is never the owner's. */
export function crossRoomAttack(m: RoomMaterial, attacker: string, rnd: () => number): CrossAttack {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const a = pick(GUARDED);
  const b = pick(GUARDED.filter((r) => r !== a));
  const pathIn = (room: RoomId): string => pick(ROOM_PATHS[room]);
  const method = pick(['GET', 'GET', 'HEAD', 'POST']);
  switch (Math.floor(rnd() * 9)) {
    case 0:
      return {
        kind: `allow token of ${a} as ${b}'s cookie`,
        method,
        path: pathIn(b),
        headers: as(m.owner, cookie([[cookieName(b), m.allow[a]!]])),
        rights: [],
      };
    case 1:
      return {
        kind: `allow token of ${a} on ${b}'s path`,
        method,
        path: pathIn(b),
        headers: as(m.owner, cookie([[cookieName(a), m.allow[a]!]])),
        rights: [a],
      };
    case 2:
      return {
        kind: `due wait token of ${a} as ${b}'s cookie`,
        method,
        path: pathIn(b),
        headers: as(m.owner, cookie([[cookieName(b), m.wait[a]!]])),
        rights: [],
      };
    case 3:
      return everyCookieSwapped(m, method, pathIn(pick(GUARDED)));
    case 4:
      return vipWithToken(m, method, pick(GUARDED.filter((r) => r !== 'vip')), pathIn);
    case 5:
      // A control: the owner's own token in its own room may pass (and must not be counted).
      return {
        kind: 'own allow token in its own room',
        method,
        path: pathIn(a),
        headers: as(m.owner, cookie([[cookieName(a), m.allow[a]!]])),
        rights: [a],
      };
    case 6:
      return bypassLookalike(attacker, method, pick, as);
    default:
      return inviteAttack(m, attacker, a, b, method, pick, pathIn, as);
  }
}

/** The attack's identity headers, with any others it carries. */
const as = (who: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'x-fuzz-id': who,
  'x-fuzz-attack': '1',
  ...extra,
});

const cookie = (pairs: Array<[string, string]>): Record<string, string> => ({
  cookie: pairs.map(([k, v]) => `${k}=${v}`).join('; '),
});

/** Every room's cookie, each holding another room's token. */
function everyCookieSwapped(m: RoomMaterial, method: string, path: string): CrossAttack {
  const pairs = GUARDED.map((r, i): [string, string] => [cookieName(r), m.allow[GUARDED[(i + 1) % GUARDED.length]!]!]);
  return {
    kind: "every cookie with another room's token",
    method,
    path,
    headers: as(m.owner, cookie(pairs)),
    rights: [],
  };
}

/** The vip cookie sends the request to the invite-only vip room: a token of the path's room gives no right there. */
function vipWithToken(m: RoomMaterial, method: string, room: RoomId, pathIn: (room: RoomId) => string): CrossAttack {
  return {
    kind: `vip cookie with ${room}'s token`,
    method,
    path: pathIn(room),
    headers: as(
      m.owner,
      cookie([
        [VIP_COOKIE, '1'],
        [cookieName(room), m.allow[room]!],
      ]),
    ),
    rights: [room],
  };
}

function bypassLookalike(
  attacker: string,
  method: string,
  pick: <T>(xs: readonly T[]) => T,
  as: (who: string, extra?: Record<string, string>) => Record<string, string>,
): CrossAttack {
  const variant = pick([
    '/healthz',
    '/HEALTH',
    '/health',
    '/health/deep',
    '/x/health',
    'header',
    'header-wrong',
    'header-prefix',
  ]);
  if (variant === 'header')
    return {
      kind: 'partner header (a bypass rule)',
      method,
      path: '/drops/a',
      headers: as(attacker, { [PARTNER.name]: PARTNER.value }),
      rights: [],
    };
  if (variant === 'header-wrong')
    return {
      kind: 'partner header, wrong value',
      method,
      path: '/drops/a',
      headers: as(attacker, { [PARTNER.name]: `${PARTNER.value}x` }),
      rights: [],
    };
  if (variant === 'header-prefix')
    return {
      kind: 'partner header, a prefix of the value',
      method,
      path: '/vip',
      headers: as(attacker, { [PARTNER.name]: PARTNER.value.slice(0, -1) }),
      rights: [],
    };
  return { kind: `bypass-looking path ${variant}`, method, path: variant, headers: as(attacker), rights: [] };
}

function inviteAttack(
  m: RoomMaterial,
  attacker: string,
  a: RoomId,
  b: RoomId,
  method: string,
  pick: <T>(xs: readonly T[]) => T,
  pathIn: (room: RoomId) => string,
  as: (who: string, extra?: Record<string, string>) => Record<string, string>,
): CrossAttack {
  const variants: Array<{ what: string; invite: string; who: string; room: RoomId; rights: RoomId[] }> = [
    { what: 'valid invite, its own visitor and room', invite: m.invites.valid[a]!, who: m.owner, room: a, rights: [a] },
    { what: `invite for ${a} on ${b}'s path`, invite: m.invites.valid[a]!, who: m.owner, room: b, rights: [] },
    {
      what: 'valid invite replayed by another identity',
      invite: m.invites.valid[a]!,
      who: attacker,
      room: a,
      rights: [],
    },
    { what: 'invite for another identity', invite: m.invites.otherSub[a]!, who: m.owner, room: a, rights: [] },
    { what: 'expired invite', invite: m.invites.expired[a]!, who: m.owner, room: a, rights: [] },
    { what: 'invite with a bad signature', invite: m.invites.badSignature[a]!, who: m.owner, room: a, rights: [] },
    { what: 'invite with an unknown kid', invite: m.invites.unknownKid[a]!, who: m.owner, room: a, rights: [] },
    {
      what: 'invite with its room rewritten',
      invite: rewriteRoom(m.invites.valid[a]!, b),
      who: m.owner,
      room: b,
      rights: [],
    },
    { what: 'a room token as an invite', invite: m.allow[a]!, who: m.owner, room: a, rights: [] },
    {
      what: 'garbage invite',
      invite: pick(['x', '..', 'a.b.c', '%00', 'eyJ'.repeat(900)]),
      who: m.owner,
      room: a,
      rights: [],
    },
  ];
  const v = pick(variants);
  const path = pathIn(v.room);
  if (rndHeader(pick))
    return {
      kind: `${v.what} (header)`,
      method,
      path,
      headers: as(v.who, { [INVITE_HEADER]: v.invite }),
      rights: v.rights,
    };
  const query = `${INVITE_PARAM}=${encodeURIComponent(v.invite)}`;
  return {
    kind: `${v.what} (query)`,
    method,
    path: `${path}${path.includes('?') ? '&' : '?'}${query}`,
    headers: as(v.who),
    rights: v.rights,
  };
}

const rndHeader = (pick: <T>(xs: readonly T[]) => T): boolean => pick([true, false]);

/** The same header and signature with another room in the payload. */
function rewriteRoom(invite: string, room: string): string {
  const [h, p, s] = invite.split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>;
  return `${h}.${Buffer.from(JSON.stringify({ ...claims, room })).toString('base64url')}.${s}`;
}
