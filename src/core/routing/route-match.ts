// Routes: which room a request belongs to by its host and path (docs/routing.md). Parsed once with
// the routing value into a table ordered by specificity, so the first route that matches is the most
// specific one; routes without a host are also filed by first segment, wildcard ones by last label,
// so a request tries only those its path and host can match.
import { canonicalPath } from '../request/index.js';

/** A host pattern: exact (`shop.example.com`) or `*.suffix` (any subdomain, not the bare domain). */
export type HostPattern = { kind: 'exact'; name: string } | { kind: 'wildcard'; suffix: string };

/** A path prefix matched on whole segments; `path` has no trailing `/` ('' for `/`, which matches all). */
export interface PathPrefix {
  path: string;
  /** `path` + '/': what a longer path must start with. */
  slashed: string;
  ignoreCase: boolean;
  segments: number;
}

export interface Route {
  host: HostPattern | null;
  prefix: PathPrefix;
  room: string;
  /** The route as written, for messages. */
  text: string;
}

const HOST_LABELS = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** `shop.example.com` or `*.example.com`, lower-cased; else what is wrong. */
export function parseHost(text: string): HostPattern | string {
  const lower = text.toLowerCase();
  if (lower.includes(':')) return `host "${text}" has a port: routes match any port, write the host alone`;
  if (lower.startsWith('*.')) {
    const rest = lower.slice(2);
    if (rest.length > 253 || !HOST_LABELS.test(rest)) return `host "${text}" is not *. followed by a host name`;
    return { kind: 'wildcard', suffix: `.${rest}` };
  }
  if (lower.length > 253 || !HOST_LABELS.test(lower)) return `host "${text}" is not a host name (or *.suffix)`;
  return { kind: 'exact', name: lower };
}

/** Whether a lower-case host (no port) matches the pattern. */
export function hostMatches(pattern: HostPattern, host: string): boolean {
  return pattern.kind === 'exact'
    ? host === pattern.name
    : host.length > pattern.suffix.length && host.endsWith(pattern.suffix);
}

export function hostText(pattern: HostPattern): string {
  return pattern.kind === 'exact' ? pattern.name : `*${pattern.suffix}`;
}

/** A path prefix starting with `/`; a trailing `/` is dropped (except for `/` itself, all paths). */
export function parsePathPrefix(text: string, ignoreCase: boolean): PathPrefix | string {
  if (!text.startsWith('/')) return `path "${text}" does not start with /`;
  if (/[\s?#]/.test(text)) return `path "${text}" holds a space, ? or #: a path is matched without its query`;
  // Compared with a request's canonical path (request-facts.ts), so written the same way.
  let path = canonicalPath(text).replace(/\/+$/, '');
  if (ignoreCase) path = path.toLowerCase();
  return { path, slashed: `${path}/`, ignoreCase, segments: path === '' ? 0 : path.split('/').length - 1 };
}

/** A request's path, and the same lower-cased (worked out only when asked: a getter). */
export interface PathFacts {
  readonly path: string;
  readonly lowerPath: string;
}

/** Whether the request's path starts with the prefix on whole segments. */
export function prefixMatches(prefix: PathPrefix, f: PathFacts): boolean {
  if (prefix.path === '') return true;
  const p = prefix.ignoreCase ? f.lowerPath : f.path;
  return p === prefix.path || p.startsWith(prefix.slashed);
}

const ROUTE_KEYS = new Set(['host', 'path', 'ignore_case']);

/**
 * A route as written in a room's `routes`: `PATH`, `HOST`, `HOST/PATH`, or `{host?, path?, ignore_case?}`.
 */
export function parseRoute(raw: unknown, room: string): Route | string {
  let hostRaw: string | null;
  let pathRaw: string;
  let ignoreCase = false;
  let text: string;
  if (typeof raw === 'string') {
    text = raw;
    if (raw === '') return 'a route is empty';
    const slash = raw.indexOf('/');
    hostRaw = slash === 0 ? null : slash < 0 ? raw : raw.slice(0, slash);
    pathRaw = slash < 0 ? '/' : raw.slice(slash);
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    const unknown = Object.keys(o).filter((k) => !ROUTE_KEYS.has(k));
    if (unknown.length > 0)
      return `a route has unknown key "${unknown[0]}" (a route object has host, path, ignore_case)`;
    if (o.host !== undefined && typeof o.host !== 'string') return 'a route\'s "host" is not a string';
    if (o.path !== undefined && typeof o.path !== 'string') return 'a route\'s "path" is not a string';
    if (o.ignore_case !== undefined && typeof o.ignore_case !== 'boolean')
      return 'a route\'s "ignore_case" is not true or false';
    if (o.host === undefined && o.path === undefined) return 'a route object has neither host nor path';
    hostRaw = (o.host as string | undefined) ?? null;
    pathRaw = (o.path as string | undefined) ?? '/';
    ignoreCase = o.ignore_case === true;
    text = `${hostRaw ?? ''}${pathRaw}${ignoreCase ? ' (ignore case)' : ''}`;
  } else {
    return 'a route is neither a string nor an object';
  }
  const host = hostRaw === null ? null : parseHost(hostRaw);
  if (typeof host === 'string') return host;
  const prefix = parsePathPrefix(pathRaw, ignoreCase);
  if (typeof prefix === 'string') return prefix;
  return { host, prefix, room, text };
}

/** Two routes with the same key match exactly the same requests. */
export function routeKey(route: Route): string {
  const host = route.host === null ? '' : hostText(route.host);
  return `${host}|${route.prefix.ignoreCase ? 'i' : 's'}|${route.prefix.path}`;
}

/** How specific a route is, as a tuple compared in order (higher first). */
function rank(route: Route): [number, number, number, number] {
  const h = route.host;
  const hostClass = h === null ? 0 : h.kind === 'wildcard' ? 1 : 2;
  const suffix = h !== null && h.kind === 'wildcard' ? h.suffix.length : 0;
  // Tie: a case-sensitive route before an ignore_case one; then the order written (the sort is stable).
  return [hostClass, suffix, route.prefix.segments, route.prefix.ignoreCase ? 0 : 1];
}

/** The routes, most specific first: exact host, wildcard host (longer suffix first), no host; then more segments. */
export interface RouteTable {
  readonly exact: ReadonlyMap<string, readonly Route[]>;
  readonly wildcard: readonly Route[];
  /**
   * The wildcard routes by the last label of their suffix (`*.tickets.example` under `example`), in
   * table order: a host whose last label has none is not compared with any of them.
   */
  readonly wildcardByLabel: ReadonlyMap<string, readonly Route[]>;
  readonly any: readonly Route[];
  /**
   * The no-host routes a path whose first segment is the key can match, in table order: the
   * case-sensitive ones of that segment, the ignore_case ones of it lower-cased, and the ones of `/`.
   */
  readonly anyBySegment: ReadonlyMap<string, readonly Route[]>;
  /** The same for a segment no case-sensitive route has, keyed by the segment lower-cased. */
  readonly anyByLowerSegment: ReadonlyMap<string, readonly Route[]>;
  /** The no-host routes of `/`: all a path of any other segment can match. */
  readonly anyRoot: readonly Route[];
  /** Every route in the order it is tried for a host that has all kinds. */
  readonly ordered: readonly Route[];
}

/** A path's first segment ('' for `/`): `/Shop/a` -> `Shop`. */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

function lastLabel(host: string): string {
  return host.slice(host.lastIndexOf('.') + 1);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The no-host routes filed by first segment. A route of a path other than `/` matches only paths of
 * its own first segment (of the path lower-cased for ignore_case), so the routes a path can match are
 * those filed under its segment plus the ones of `/`, kept in table order (the most specific first).
 */
function fileBySegment(any: readonly Route[]): Pick<RouteTable, 'anyBySegment' | 'anyByLowerSegment' | 'anyRoot'> {
  const sensitive = new Set<string>();
  const lower = new Set<string>();
  for (const r of any) {
    if (r.prefix.path === '') continue;
    (r.prefix.ignoreCase ? lower : sensitive).add(firstSegment(r.prefix.path));
  }
  const anyRoot = any.filter((r) => r.prefix.path === '');
  const matchable = (segment: string | null, lowered: string) =>
    any.filter(
      (r) => r.prefix.path === '' || firstSegment(r.prefix.path) === (r.prefix.ignoreCase ? lowered : segment),
    );
  const anyBySegment = new Map<string, Route[]>();
  for (const s of sensitive) anyBySegment.set(s, matchable(s, s.toLowerCase()));
  // Reached only by a segment no case-sensitive route has: the ignore_case routes alone can match it.
  const anyByLowerSegment = new Map<string, Route[]>();
  for (const s of lower) anyByLowerSegment.set(s, matchable(null, s));
  return { anyBySegment, anyByLowerSegment, anyRoot };
}

export function buildRouteTable(routes: readonly Route[]): RouteTable {
  const ordered = [...routes].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
    return 0;
  });
  const exact = new Map<string, Route[]>();
  const wildcard: Route[] = [];
  const wildcardByLabel = new Map<string, Route[]>();
  const any: Route[] = [];
  for (const r of ordered) {
    if (r.host === null) any.push(r);
    else if (r.host.kind === 'wildcard') {
      wildcard.push(r);
      push(wildcardByLabel, lastLabel(r.host.suffix), r);
    } else push(exact, r.host.name, r);
  }
  return { exact, wildcard, wildcardByLabel, any, ...fileBySegment(any), ordered };
}

function firstPath(routes: readonly Route[], f: PathFacts): Route | null {
  for (let i = 0; i < routes.length; i++) if (prefixMatches(routes[i]!.prefix, f)) return routes[i]!;
  return null;
}

/** The most specific route for a lower-case host (no port) and a path, or null. */
export function matchRoute(table: RouteTable, host: string, f: PathFacts): Route | null {
  const exact = table.exact.get(host);
  const hit = exact ? firstPath(exact, f) : null;
  if (hit) return hit;
  if (table.wildcard.length > 0) {
    const wildcard = table.wildcardByLabel.get(lastLabel(host));
    if (wildcard) {
      for (let i = 0; i < wildcard.length; i++) {
        const r = wildcard[i]!;
        if (hostMatches(r.host!, host) && prefixMatches(r.prefix, f)) return r;
      }
    }
  }
  // Indexed: every request walks this, and most of its routes cannot match the request's segment.
  const segment = firstSegment(f.path);
  let any = table.anyBySegment.get(segment);
  if (any === undefined && table.anyByLowerSegment.size > 0) any = table.anyByLowerSegment.get(segment.toLowerCase());
  return firstPath(any ?? table.anyRoot, f);
}
