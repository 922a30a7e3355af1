// The rooms the fuzz run attacks: a routing with four rooms and three rules, written through the
// store layout (src/core/settings/layout.ts), and the fuzz's own reading of it (where a request must go, as
// docs/routing.md says), which the oracle judges by. The model is written for this one routing, on
// purpose apart from src/core/routing/routing.ts: a routing bug must not be able to agree with itself.
import { percentageKey, roomKey, ROUTING_KEY } from '../src/core/settings/index.js';

/** Seconds of a wait window (short, so wait tokens come due within a phase). */
export const WAIT_SECONDS = 10;

/**
 * The room that asks every due draw for a proof of work (fuzz/proof-attacks.ts): its chance, the share
 * of it a draw gets without a valid proof, and the difficulty (tiny: the run solves its own controls).
 */
export const PROOF_ROOM = 'proof';
export const PROOF_CHANCE = 50;
export const PROOF_FREE_SHARE = 0.2;
export const PROOF_SECONDS = 0.01;

/** Service-wide settings: every room starts from them. */
export const SETTINGS = {
  allow_percentage: '30',
  wait_period_duration: String(WAIT_SECONDS),
  allow_period_duration: '60',
  identity: 'header:x-fuzz-id',
};

/**
 * The rooms. `free` admits everyone (allow_percentage 100): the origin may see anything on its paths.
 * `proof` asks every due draw for a proof of work (fuzz/proof-attacks.ts).
 */
export const ROOMS = ['shop', 'drops', 'vip', 'free', 'proof'] as const;
export type RoomId = (typeof ROOMS)[number];
/** Rooms whose tokens the attacks carry (free issues none worth stealing). */
export const GUARDED: readonly RoomId[] = ['shop', 'drops', 'vip'];

/** A path of each room, and paths that look like one but are not (whole segments, case). */
export const ROOM_PATHS: Record<RoomId, readonly string[]> = {
  shop: ['/', '/a', '/cart', '/DROPS', '/VIP/x', '/Free'],
  drops: ['/drops', '/drops/', '/drops/a', '/drops/a/b?x=1'],
  vip: ['/vip', '/vip/', '/vip/lounge'],
  free: ['/free', '/free/a'],
  proof: ['/proof', '/proof/a'],
};

/** The request header and value of the bypass-by-header rule. */
export const PARTNER = { name: 'x-partner', value: 'fuzz-partner-7' } as const;
/** The cookie that sends a request to the vip room, whatever its path. */
export const VIP_COOKIE = 'vip';

const ROUTING = {
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'drops', routes: ['/drops'] },
    { id: 'vip', routes: ['/vip'] },
    { id: 'free', routes: ['/free'] },
    { id: 'proof', routes: ['/proof'] },
  ],
  default_room: 'shop',
  rules: [
    { id: 'health', if: { path: { prefix: '/health' } }, then: 'bypass' },
    { id: 'partner', if: { header: { name: PARTNER.name, equals: PARTNER.value } }, then: 'bypass' },
    { id: 'vip-cookie', if: { cookie: VIP_COOKIE }, then: 'room:vip' },
  ],
};

/** The routing value as written. */
export const ROUTING_VALUE = JSON.stringify(ROUTING);

/**
 * The store values besides the settings: the routing, vip invite-only, drops at its own 50 %, free
 * open, and proof asking a proof of work (a tiny one: the run solves its own controls) at its own chance.
 */
export function roomStore(routing: string = ROUTING_VALUE): Record<string, string> {
  return {
    [ROUTING_KEY]: routing,
    [roomKey('vip')]: JSON.stringify({ invite_only: 'true' }),
    [percentageKey('drops')]: '50',
    [percentageKey('free')]: '100',
    [roomKey('proof')]: JSON.stringify({
      proof_of_work: 'fixed',
      proof_seconds: String(PROOF_SECONDS),
      proof_free_share: String(PROOF_FREE_SHARE),
    }),
    [percentageKey('proof')]: String(PROOF_CHANCE),
  };
}

/** Rooms that let everyone in under the good configuration. */
export const OPEN_ROOMS: readonly RoomId[] = ['free'];

/**
 * Routing values an operator might write, live. `failsOpen`: the routing cannot be used at all, and the
 * edge sends every request to the origin (docs: routing_unusable), so only ordinary traffic runs while
 * it is in force. The others stay usable: a rule that cannot be read is skipped, and the attack phase
 * runs on them as on the good routing (a broken rule must open nothing).
 */
export const badRoutings: ReadonlyArray<{ what: string; value: string; failsOpen: boolean }> = [
  { what: 'garbage JSON', value: '{"rooms": [{"id": "shop", "routes": ["/"]', failsOpen: true },
  { what: 'not an object', value: '["shop"]', failsOpen: true },
  // Fastly (and the local host) refuse a value over 8,000 characters, so the largest one that can be written.
  { what: 'a value at the size limit (many rules that never match)', value: atTheLimit(), failsOpen: false },
  {
    what: 'a rule naming an unknown room',
    value: withRules([{ id: 'ghost', if: { cookie: 'ghost' }, then: 'room:nowhere' }]),
    failsOpen: false,
  },
  {
    what: 'a bypass-everything rule with an unknown condition key',
    value: withRules([{ id: 'all', if: { paht: { prefix: '/' } }, then: 'bypass' }]),
    failsOpen: false,
  },
  {
    what: 'a bypass-everything rule with a misspelled action',
    value: withRules([{ id: 'all', if: { path: { prefix: '/' } }, then: 'bypas' }]),
    failsOpen: false,
  },
  {
    what: 'a bypass-everything rule with a bad id',
    value: withRules([{ id: 'All Of It', if: { path: { prefix: '/' } }, then: 'bypass' }]),
    failsOpen: false,
  },
  {
    what: 'a bypass rule with a number for a path',
    value: withRules([{ id: 'num', if: { path: { prefix: 5 } }, then: 'bypass' }]),
    failsOpen: false,
  },
  {
    what: 'an empty condition bypassing everything',
    value: withRules([{ id: 'empty', if: {}, then: 'bypass' }]),
    failsOpen: false,
  },
  {
    what: 'an empty "all" bypassing everything',
    value: withRules([{ id: 'all', if: { all: [] }, then: 'bypass' }]),
    failsOpen: false,
  },
  {
    what: 'a later rule reusing an id, bypassing everything',
    value: withRules(
      [],
      [{ id: 'health', if: { method: ['GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'] }, then: 'bypass' }],
    ),
    failsOpen: false,
  },
];

/** The good routing with `first` rules before its own (where they would win) and `last` after them. */
function withRules(first: unknown[], last: unknown[] = []): string {
  return JSON.stringify({ ...ROUTING, rules: [...first, ...ROUTING.rules, ...last] });
}

/** The good routing followed by rules that never match, up to 8,000 characters. */
function atTheLimit(): string {
  const filler: unknown[] = [];
  for (let i = 0; ; i++) {
    const next = withRules(
      [],
      [...filler, { id: `filler-${i}`, if: { cookie: `never-sent-${i}` }, then: 'room:drops' }],
    );
    if (next.length > 8000) return withRules([], filler);
    filler.push({ id: `filler-${i}`, if: { cookie: `never-sent-${i}` }, then: 'room:drops' });
  }
}

/** What the oracle needs of a request to place it. */
export interface RequestShape {
  path: string;
  headers: Record<string, string>;
}

export type Placement = { kind: 'bypass'; rule: string } | { kind: 'room'; room: RoomId };

const underPrefix = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

function hasCookie(cookieHeader: string | undefined, name: string): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${name}=`));
}

/**
 * Where the good routing sends a request: rules in order, then the longest route. `rules` false
 * leaves the rules out (a build whose routing does not apply rules yet: the run says so).
 */
export function placeRequest(request: RequestShape, rules = true): Placement {
  const path = request.path.split('?')[0]!;
  const header = (name: string): string | undefined =>
    Object.entries(request.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  if (rules) {
    if (underPrefix(path, '/health')) return { kind: 'bypass', rule: 'health' };
    if (header(PARTNER.name) === PARTNER.value) return { kind: 'bypass', rule: 'partner' };
    if (hasCookie(header('cookie'), VIP_COOKIE)) return { kind: 'room', room: 'vip' };
  }
  for (const room of ['drops', 'vip', 'free', 'proof'] as const)
    if (underPrefix(path, `/${room}`)) return { kind: 'room', room };
  return { kind: 'room', room: 'shop' };
}
