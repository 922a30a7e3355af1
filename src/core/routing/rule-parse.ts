// The conditions of routing rules (docs/routing.md), parsed once with the routing value into a tree
// the evaluator (rule-eval.ts) walks without building anything per request: names lower-cased,
// lists made sets, CIDR blocks parsed, and within each `all` the cheap tests first.
import { parseCidr, type Cidr } from './cidr.js';
import { canonicalPath, decodeUnreserved } from '../request/index.js';
import { parseHost, parsePathPrefix, type HostPattern, type PathPrefix } from './route-match.js';
import type { DeviceClass } from '../types.js';

export type Condition =
  | { k: 'host'; hosts: readonly HostPattern[] }
  | { k: 'path'; mode: 'prefix'; prefixes: readonly PathPrefix[] }
  | { k: 'path'; mode: 'exact' | 'suffix'; values: readonly string[]; ignoreCase: boolean }
  | { k: 'method'; methods: ReadonlySet<string> }
  | { k: 'query'; name: string; equals: string | null }
  | { k: 'header'; name: string; equals: string | null; prefix: string | null }
  | { k: 'cookie'; name: string }
  | ({ k: 'ip'; blocks: readonly Cidr[] } & Noted)
  | ({ k: 'country' | 'continent'; codes: ReadonlySet<string> } & Noted)
  | ({ k: 'asn'; numbers: ReadonlySet<number> } & Noted)
  | ({ k: 'device'; classes: ReadonlySet<DeviceClass> } & Noted)
  | ({ k: 'verified_bot'; categories: ReadonlySet<string> | null } & Noted)
  | ({ k: 'acl'; name: string } & Noted)
  | { k: 'not'; c: Condition }
  | { k: 'all' | 'any'; cs: readonly Condition[] };

/**
 * On the conditions the edge may be unable to answer: the reasons (bits, rule-eval.ts) already said
 * for this node. The one mutable part of a parse, kept with it for as long as the sandbox keeps the
 * parse, so a reused sandbox builds no message for them again.
 */
export interface Noted {
  noted: number;
}

export const DEVICE_CLASSES: readonly DeviceClass[] = [
  'desktop',
  'mobile',
  'tablet',
  'smarttv',
  'gameconsole',
  'mediaplayer',
  'bot',
];
const CONTINENTS = new Set(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);
/** Bot Management's categories, as js-compute names them (both spellings of two it has renamed). */
export const BOT_CATEGORIES = new Set([
  'suspected',
  'accessibility',
  'ai-crawler',
  'ai-fetcher',
  'content-fetcher',
  'monitoring-site-tools',
  'online-marketing',
  'page-preview',
  'platform-integrations',
  'platform-integration',
  'research',
  'search-engine-crawler',
  'search-engine-optimization',
  'search-engine-specialization',
  'security-tools',
  'headless',
]);
export const MAX_IP_BLOCKS = 32;
const MAX_DEPTH = 8;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ACL_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

/** What it costs to test, cheapest first: `all` tests the cheap ones before the lookups. */
const COST: Record<Condition['k'], number> = {
  method: 0,
  host: 0,
  path: 1,
  cookie: 2,
  query: 3,
  header: 3,
  ip: 4,
  not: 5,
  all: 5,
  any: 5,
  verified_bot: 6,
  country: 7,
  continent: 7,
  asn: 7,
  device: 8,
  acl: 9,
};

type Parsed = Condition | string;

function strings(v: unknown, what: string): string[] | string {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== 'string' || x === ''))
    return `${what} is not a non-empty string or list of strings`;
  return list as string[];
}

function objectOf(v: unknown, what: string, keys: readonly string[]): Record<string, unknown> | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${what} is not an object`;
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).find((k) => !keys.includes(k));
  return extra === undefined ? o : `${what} has unknown key "${extra}" (it takes ${keys.join(', ')})`;
}

function optionalString(o: Record<string, unknown>, key: string, what: string): string | null | { error: string } {
  const v = o[key];
  if (v === undefined) return null;
  return typeof v === 'string' ? v : { error: `${what}'s "${key}" is not a string` };
}

function parsePath(v: unknown): Parsed {
  const o = objectOf(v, 'path', ['prefix', 'exact', 'suffix', 'ignore_case']);
  if (typeof o === 'string') return o;
  const modes = (['prefix', 'exact', 'suffix'] as const).filter((m) => o[m] !== undefined);
  if (modes.length !== 1) return 'path takes exactly one of prefix, exact, suffix';
  const mode = modes[0]!;
  if (o.ignore_case !== undefined && typeof o.ignore_case !== 'boolean')
    return 'path\'s "ignore_case" is not true or false';
  const ignoreCase = o.ignore_case === true;
  const list = strings(o[mode], `path ${mode}`);
  if (typeof list === 'string') return list;
  if (mode === 'prefix') {
    const prefixes: PathPrefix[] = [];
    for (const s of list) {
      const p = parsePathPrefix(s, ignoreCase);
      if (typeof p === 'string') return p;
      prefixes.push(p);
    }
    return { k: 'path', mode, prefixes };
  }
  if (mode === 'exact' && list.some((s) => !s.startsWith('/'))) return 'path exact values start with /';
  // Compared with a request's canonical path (request-facts.ts), so written the same way.
  const values = list.map((s) => (mode === 'exact' ? canonicalPath(s) : decodeUnreserved(s)));
  return { k: 'path', mode, values: ignoreCase ? values.map((s) => s.toLowerCase()) : values, ignoreCase };
}

function parseHeader(v: unknown): Parsed {
  const o = objectOf(v, 'header', ['name', 'equals', 'prefix']);
  if (typeof o === 'string') return o;
  if (typeof o.name !== 'string' || !TOKEN.test(o.name)) return 'header\'s "name" is not a header name';
  const equals = optionalString(o, 'equals', 'header');
  const prefix = optionalString(o, 'prefix', 'header');
  if (typeof equals === 'object' && equals !== null) return equals.error;
  if (typeof prefix === 'object' && prefix !== null) return prefix.error;
  if (equals !== null && prefix !== null) return 'header takes equals or prefix, not both';
  return { k: 'header', name: o.name.toLowerCase(), equals, prefix };
}

function parseQuery(v: unknown): Parsed {
  const o = objectOf(v, 'query', ['name', 'equals']);
  if (typeof o === 'string') return o;
  if (typeof o.name !== 'string' || o.name === '') return 'query\'s "name" is not a non-empty string';
  const equals = optionalString(o, 'equals', 'query');
  if (typeof equals === 'object' && equals !== null) return equals.error;
  return { k: 'query', name: o.name, equals };
}

function parseCodes(v: unknown, k: 'country' | 'continent'): Parsed {
  const list = strings(v, k);
  if (typeof list === 'string') return list;
  const codes = list.map((s) => s.toUpperCase());
  const bad = codes.find((c) => (k === 'country' ? !/^[A-Z]{2}$/.test(c) : !CONTINENTS.has(c)));
  if (bad !== undefined)
    return k === 'country'
      ? `country "${bad}" is not a two-letter ISO 3166-1 code`
      : `continent "${bad}" is not one of ${[...CONTINENTS].join(' ')}`;
  return { k, codes: new Set(codes), noted: 0 };
}

function parseHosts(v: unknown): Parsed {
  const list = strings(v, 'host');
  if (typeof list === 'string') return list;
  const hosts: HostPattern[] = [];
  for (const s of list) {
    const h = parseHost(s);
    if (typeof h === 'string') return h;
    hosts.push(h);
  }
  return { k: 'host', hosts };
}

function parseMethod(v: unknown): Parsed {
  const list = strings(v, 'method');
  if (typeof list === 'string') return list;
  const bad = list.find((m) => !TOKEN.test(m));
  return bad !== undefined
    ? `method "${bad}" is not a method name`
    : { k: 'method', methods: new Set(list.map((m) => m.toUpperCase())) };
}

function parseIp(v: unknown): Parsed {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_IP_BLOCKS)
    return `ip is not a list of 1 to ${MAX_IP_BLOCKS} CIDR blocks`;
  const blocks: Cidr[] = [];
  for (const s of v) {
    if (typeof s !== 'string') return 'ip holds something other than a string';
    const b = parseCidr(s);
    if (typeof b === 'string') return `ip: ${b}`;
    blocks.push(b);
  }
  return { k: 'ip', blocks, noted: 0 };
}

function parseAsn(v: unknown): Parsed {
  if (
    !Array.isArray(v) ||
    v.length === 0 ||
    v.some((n) => !Number.isInteger(n) || (n as number) < 0 || (n as number) > 4294967295)
  )
    return 'asn is not a list of AS numbers';
  return { k: 'asn', numbers: new Set(v as number[]), noted: 0 };
}

function parseDevice(v: unknown): Parsed {
  const list = strings(v, 'device');
  if (typeof list === 'string') return list;
  const bad = list.find((d) => !(DEVICE_CLASSES as readonly string[]).includes(d));
  return bad !== undefined
    ? `device "${bad}" is not one of ${DEVICE_CLASSES.join(', ')}`
    : { k: 'device', classes: new Set(list as DeviceClass[]), noted: 0 };
}

function parseVerifiedBot(v: unknown): Parsed {
  if (v === true) return { k: 'verified_bot', categories: null, noted: 0 };
  const list = strings(v, 'verified_bot');
  if (typeof list === 'string') return 'verified_bot is not true or a list of bot categories';
  const bad = list.find((c) => !BOT_CATEGORIES.has(c));
  return bad !== undefined
    ? `verified_bot "${bad}" is not a bot category`
    : { k: 'verified_bot', categories: new Set(list), noted: 0 };
}

/** `all` or `any`: a non-empty list of conditions, one level deeper. */
function parseList(key: 'all' | 'any', v: unknown, depth: number): Parsed {
  if (!Array.isArray(v) || v.length === 0) return `${key} is not a non-empty list of conditions`;
  const cs: Condition[] = [];
  for (const item of v) {
    const c = parseCondition(item, depth + 1);
    if (typeof c === 'string') return c;
    cs.push(c);
  }
  return key === 'all' ? { k: 'all', cs: byCost(cs) } : { k: 'any', cs: byCost(cs) };
}

/** Each condition's parser, by its key (docs/routing.md's table). */
const LEAVES: Readonly<Record<string, (v: unknown, depth: number) => Parsed>> = {
  host: parseHosts,
  path: parsePath,
  method: parseMethod,
  query: parseQuery,
  header: parseHeader,
  cookie: (v) => (typeof v === 'string' && TOKEN.test(v) ? { k: 'cookie', name: v } : 'cookie is not a cookie name'),
  acl: (v) => (typeof v === 'string' && ACL_NAME.test(v) ? { k: 'acl', name: v, noted: 0 } : 'acl is not an ACL name'),
  ip: parseIp,
  country: (v) => parseCodes(v, 'country'),
  continent: (v) => parseCodes(v, 'continent'),
  asn: parseAsn,
  device: parseDevice,
  verified_bot: parseVerifiedBot,
  not: (v, depth) => {
    const c = parseCondition(v, depth + 1);
    return typeof c === 'string' ? c : { k: 'not', c };
  },
  all: (v, depth) => parseList('all', v, depth),
  any: (v, depth) => parseList('any', v, depth),
};

/** The condition names a rule's `if` takes (docs/routing.md), for the tools that describe them. */
export const CONDITION_KEYS: readonly string[] = Object.keys(LEAVES);

function parseLeaf(key: string, v: unknown, depth: number): Parsed {
  const parse = Object.hasOwn(LEAVES, key) ? LEAVES[key] : undefined;
  return parse === undefined ? `unknown condition "${key}"` : parse(v, depth);
}

function byCost(cs: Condition[]): Condition[] {
  return cs
    .map((c, i) => [c, i] as const)
    .sort((a, b) => COST[a[0].k] - COST[b[0].k] || a[1] - b[1])
    .map(([c]) => c);
}

/** A condition object (several keys: all must hold); else what is wrong with it. */
export function parseCondition(raw: unknown, depth = 0): Condition | string {
  if (depth >= MAX_DEPTH) return `conditions nest deeper than ${MAX_DEPTH}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'a condition is not an object';
  const keys = Object.keys(raw);
  if (keys.length === 0) return 'a condition is empty (it would hold for every request)';
  const cs: Condition[] = [];
  for (const key of keys) {
    const c = parseLeaf(key, (raw as Record<string, unknown>)[key], depth);
    if (typeof c === 'string') return c;
    cs.push(c);
  }
  return cs.length === 1 ? cs[0]! : { k: 'all', cs: byCost(cs) };
}

/** Whether the condition needs anything but the request itself (and so may not apply where that is missing). */
export function needsEdge(c: Condition): boolean {
  switch (c.k) {
    case 'not':
      return needsEdge(c.c);
    case 'all':
    case 'any':
      return c.cs.some(needsEdge);
    default:
      return COST[c.k] >= 6;
  }
}
