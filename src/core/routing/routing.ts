// The `routing` value of `waiting_room_config` (docs/routing.md): the rooms and their routes, the
// rules tried before them, the default room. Parsed once per raw value; what cannot be used is
// skipped and named in `problems` (the edge logs them, `npm run tune` refuses them).
import {
  buildRouteTable,
  matchRoute,
  parseRoute,
  routeKey,
  type Route,
  type RouteTable,
  type PathFacts,
} from './route-match.js';
import { RuleContext, TRUE } from './rule-eval.js';
import { buildRuleIndex, candidateRules, type RuleIndex } from './rule-index.js';
import { parseCondition, type Condition } from './rule-parse.js';
import { holdsEncodedSeparator, lenientPath, type RequestFacts } from '../request/index.js';
import { CONFIG_STORE_VALUE_LIMIT, configValueChars, DEFAULT_ROOM, ROOM_ID } from '../settings/index.js';

export interface RoutingProblem {
  key: 'routing';
  rule?: string;
  room?: string;
  value: string;
  message: string;
}

export type Target =
  | { kind: 'bypass'; rule: string }
  | { kind: 'room'; room: string; rule: string | null; bot?: true }
  | { kind: 'none' }; // no rule, no route, no default room: origin untouched

export interface Rule {
  id: string;
  condition: Condition;
  then: { kind: 'bypass' } | { kind: 'room'; room: string } | { kind: 'bot' };
  /** The rule as written, for `npm run tune`. */
  source: unknown;
}

export interface RoomRoutes {
  id: string;
  routes: readonly Route[];
}

export interface Routing {
  readonly roomIds: readonly string[];
  readonly defaultRoom: string | null;
  readonly rooms: readonly RoomRoutes[];
  readonly rules: readonly Rule[];
  readonly table: RouteTable;
  /** Which rules a request could match (rule-index.ts): the rest are not tested. */
  readonly index: RuleIndex;
  /** ACLs found missing on this service (rule-eval.ts), kept as long as this parse is. */
  readonly missingAcls: Set<string>;
}

export const RULE_ID = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;

const TOP_KEYS = new Set(['rooms', 'default_room', 'rules']);
const ROOM_KEYS = new Set(['id', 'routes']);
const RULE_KEYS = new Set(['id', 'if', 'then']);
const SHOWN = 200;

function shown(v: unknown): string {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

/** A routing value without rules: one room per id, each covering the routes given. */
function routingOf(rooms: RoomRoutes[], rules: Rule[], defaultRoom: string | null): Routing {
  return {
    roomIds: rooms.map((r) => r.id),
    defaultRoom,
    rooms,
    rules,
    table: buildRouteTable(rooms.flatMap((r) => r.routes)),
    index: buildRuleIndex(rules.map((r) => r.condition)),
    missingAcls: new Set(),
  };
}

/** No `routing` value: the room `default` covers every request. */
export function singleRoom(): Routing {
  const route = parseRoute('/', DEFAULT_ROOM) as Route;
  return routingOf([{ id: DEFAULT_ROOM, routes: [route] }], [], null);
}

function parseRooms(raw: unknown[], problems: RoutingProblem[]): RoomRoutes[] {
  const rooms: RoomRoutes[] = [];
  const owner = new Map<string, string>();
  raw.forEach((r, index) => {
    const at = `rooms[${index}]`;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      problems.push({
        key: 'routing',
        room: at,
        value: shown(r),
        message: `room ${at}: not an object: the room is skipped`,
      });
      return;
    }
    const o = r as Record<string, unknown>;
    const id = typeof o.id === 'string' && ROOM_ID.test(o.id) ? o.id : null;
    const name = id ?? at;
    const skip = (message: string) =>
      problems.push({
        key: 'routing',
        room: name,
        value: shown(r),
        message: `room ${name}: ${message}: the room is skipped`,
      });
    if (id === null) return skip('"id" is not a room id (lower case letters, digits, - and _, at most 32 characters)');
    if (rooms.some((x) => x.id === id)) return skip('a room of that id is listed before');
    // An unknown key is ignored, not the room: skipping it would send its traffic past every room.
    for (const extra of Object.keys(o).filter((k) => !ROOM_KEYS.has(k))) {
      problems.push({
        key: 'routing',
        room: id,
        value: shown(o[extra]),
        message: `room ${id}: unknown key "${extra}" (a room has id and routes): ignored`,
      });
    }
    if (o.routes !== undefined && !Array.isArray(o.routes)) return skip('"routes" is not a list');
    const routes: Route[] = [];
    for (const rr of (o.routes as unknown[] | undefined) ?? []) {
      const route = parseRoute(rr, id);
      if (typeof route === 'string') {
        problems.push({
          key: 'routing',
          room: id,
          value: shown(rr),
          message: `room ${id}: ${route}: the route is skipped`,
        });
        continue;
      }
      const key = routeKey(route);
      const first = owner.get(key);
      if (first !== undefined) {
        const message =
          first === id
            ? `route ${route.text} is listed twice`
            : `route ${route.text} is room ${first}'s already: it stays room ${first}'s`;
        problems.push({ key: 'routing', room: id, value: route.text, message: `room ${id}: ${message}` });
        continue;
      }
      owner.set(key, id);
      routes.push(route);
    }
    rooms.push({ id, routes });
  });
  return rooms;
}

function parseRule(
  r: unknown,
  index: number,
  roomIds: readonly string[],
  seen: Set<string>,
  problems: RoutingProblem[],
): Rule | RoutingProblem {
  const at = `rules[${index}]`;
  const o = typeof r === 'object' && r !== null && !Array.isArray(r) ? (r as Record<string, unknown>) : null;
  const id = o !== null && typeof o.id === 'string' && RULE_ID.test(o.id) && !seen.has(o.id) ? o.id : null;
  const name = id ?? (o !== null && typeof o.id === 'string' && o.id.length <= 64 ? `${at} ("${o.id}")` : at);
  const fail = (message: string): RoutingProblem => ({
    key: 'routing',
    rule: name,
    value: shown(r),
    message: `rule ${name}: ${message}: the rule is skipped`,
  });
  if (o === null) return fail('not an object');
  if (id === null)
    return fail(
      typeof o.id === 'string' && seen.has(o.id)
        ? 'a rule of that id is listed before'
        : '"id" is not a rule id (lower case letters, digits, - and _, at most 64 characters)',
    );
  if (o.if === undefined) return fail('no "if"');
  const condition = parseCondition(o.if);
  if (typeof condition === 'string') return fail(condition);
  let then: Rule['then'];
  if (o.then === 'bypass') then = { kind: 'bypass' };
  else if (o.then === 'bot') then = { kind: 'bot' };
  else if (typeof o.then === 'string' && o.then.startsWith('room:')) {
    const room = o.then.slice('room:'.length);
    if (!roomIds.includes(room)) return fail(`"then" names room "${room}", which is not among the rooms`);
    then = { kind: 'room', room };
  } else return fail('"then" is not "bypass", "bot" or "room:ID"');
  // A key beside id, if and then (a "comment") is ignored and reported; the rule still applies. An
  // unknown key inside "if" is a condition the rule cannot evaluate: that skips the rule (above).
  for (const extra of Object.keys(o).filter((k) => !RULE_KEYS.has(k))) {
    problems.push({
      key: 'routing',
      rule: id,
      value: shown(o[extra]),
      message: `rule ${id}: unknown key "${extra}" (a rule has id, if, then): ignored`,
    });
  }
  return { id, condition, then, source: r };
}

/**
 * The routing value, or null when it cannot be used at all (the edge then fails open: every request
 * to the origin). Parts that cannot be used are skipped, each named in `problems`.
 */
export function parseRouting(raw: string | null): { routing: Routing | null; problems: RoutingProblem[] } {
  if (raw === null) return { routing: singleRoom(), problems: [] };
  const unusable = (message: string) => ({
    routing: null,
    problems: [{ key: 'routing' as const, value: shown(raw), message }],
  });
  // Code points never outnumber UTF-16 units: only a long value is counted.
  const chars = raw.length > CONFIG_STORE_VALUE_LIMIT ? configValueChars(raw) : raw.length;
  if (chars > CONFIG_STORE_VALUE_LIMIT)
    return unusable(
      `routing is ${chars} characters, more than a Config Store value holds (${CONFIG_STORE_VALUE_LIMIT})`,
    );
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return unusable(`routing is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return unusable('routing is not a JSON object');
  const top = value as Record<string, unknown>;
  if (!Array.isArray(top.rooms)) return unusable('routing has no "rooms" list');
  const problems: RoutingProblem[] = [];
  for (const k of Object.keys(top)) {
    if (!TOP_KEYS.has(k))
      problems.push({
        key: 'routing',
        value: shown(top[k]),
        message: `routing has unknown key "${k}" (it has rooms, default_room, rules): ignored`,
      });
  }
  const rooms = parseRooms(top.rooms, problems);
  const roomIds = rooms.map((r) => r.id);
  let defaultRoom: string | null = null;
  if (top.default_room !== undefined && top.default_room !== null) {
    if (typeof top.default_room === 'string' && roomIds.includes(top.default_room)) defaultRoom = top.default_room;
    else
      problems.push({
        key: 'routing',
        value: shown(top.default_room),
        message: 'default_room is not one of the rooms: requests matching no route go to the origin',
      });
  }
  const rules: Rule[] = [];
  if (top.rules !== undefined && !Array.isArray(top.rules)) {
    problems.push({ key: 'routing', value: shown(top.rules), message: 'rules is not a list: no rule applies' });
  } else {
    const seen = new Set<string>();
    ((top.rules as unknown[] | undefined) ?? []).forEach((r, i) => {
      const rule = parseRule(r, i, roomIds, seen, problems);
      if ('key' in rule) problems.push(rule);
      else {
        seen.add(rule.id);
        rules.push(rule);
      }
    });
  }
  return { routing: routingOf(rooms, rules, defaultRoom), problems };
}

function lenientFacts(rawPath: string): PathFacts {
  const path = lenientPath(rawPath);
  return { path, lowerPath: path.toLowerCase() };
}

/**
 * Where a request goes: the first rule that applies, else the most specific route, else the default
 * room. A promise only when a rule needs an ACL looked up: an async function costs a promise and a
 * resumption per request in the interpreted runtime, which most requests (no ACL rule among their
 * candidates) need not pay.
 */
export function routeRequest(routing: Routing, facts: RequestFacts): Target | Promise<Target> {
  const candidates = routing.rules.length > 0 ? candidateRules(routing.index, facts) : NO_CANDIDATES;
  if (candidates.length === 0) return routeOf(routing, facts, holdsEncodedSeparator(facts.rawPath));
  return testRules(routing, facts, candidates, new RuleContext(facts, routing.missingAcls), 0, undefined);
}

const NO_CANDIDATES: readonly number[] = [];

/** The rules from candidate `from` on, then the routes; async from the first rule that needs an ACL. */
function testRules(
  routing: Routing,
  facts: RequestFacts,
  candidates: readonly number[],
  ctx: RuleContext,
  from: number,
  unsafeSoFar: boolean | undefined,
): Target | Promise<Target> {
  let unsafe = unsafeSoFar;
  for (let n = from; n < candidates.length; n++) {
    const rule = routing.rules[candidates[n]!]!;
    // Fail closed: an origin that decodes %2F before resolving `..` may serve `/webhooks/..%2Fcheckout`
    // as /checkout, so a path holding an encoded separator is never sent past the rooms (silently:
    // a line per request would let anyone fill the log).
    if (rule.then.kind === 'bypass' && (unsafe ??= holdsEncodedSeparator(facts.rawPath))) continue;
    ctx.rule = rule.id;
    const r = ctx.test(rule.condition);
    if (typeof r !== 'number') return afterAcl(routing, facts, candidates, ctx, n, r, unsafe);
    if (r === TRUE) return ruleTarget(routing, facts, rule, unsafe);
  }
  return routeOf(routing, facts, unsafe ?? holdsEncodedSeparator(facts.rawPath));
}

async function afterAcl(
  routing: Routing,
  facts: RequestFacts,
  candidates: readonly number[],
  ctx: RuleContext,
  n: number,
  pending: Promise<number>,
  unsafe: boolean | undefined,
): Promise<Target> {
  if ((await pending) === TRUE) return ruleTarget(routing, facts, routing.rules[candidates[n]!]!, unsafe);
  return testRules(routing, facts, candidates, ctx, n + 1, unsafe);
}

function ruleTarget(routing: Routing, facts: RequestFacts, rule: Rule, unsafe: boolean | undefined): Target {
  if (rule.then.kind === 'bypass') return { kind: 'bypass', rule: rule.id };
  if (rule.then.kind === 'room') return { kind: 'room', room: rule.then.room, rule: rule.id };
  // A bot: where the routes send it, marked (docs/bots.md); no room there, nothing to mark.
  const routed = routeOf(routing, facts, unsafe ?? holdsEncodedSeparator(facts.rawPath));
  return routed.kind === 'room' ? { kind: 'room', room: routed.room, rule: rule.id, bot: true } : routed;
}

function routeOf(routing: Routing, facts: RequestFacts, unsafe: boolean): Target {
  // Fail closed again: a path an origin may read as another one is placed by the room of that other
  // one first (`/shop/..%2Fcheckout` waits at the checkout), else by its own.
  const route =
    (unsafe ? matchRoute(routing.table, facts.host, lenientFacts(facts.rawPath)) : null) ??
    matchRoute(routing.table, facts.host, facts);
  if (route !== null) return { kind: 'room', room: route.room, rule: null };
  return routing.defaultRoom === null ? { kind: 'none' } : { kind: 'room', room: routing.defaultRoom, rule: null };
}
