// Which rules a request could match, found without testing each one. The room runs in an interpreter
// (js-compute has no JIT): testing 50 rules one by one costs about 0.5 ms a request there, far over
// the room's budget. So each rule is filed at parse time under an ANCHOR, a cheap fact that every
// request it matches must have: the path's first segment, the path's last character, the host, the
// client address's first byte, a cookie name or the method. A request then tests only the rules filed under its own facts, plus the
// rules that have no anchor (an ACL alone, a country...), in the order they are written.
import type { Cidr } from './cidr.js';
import { firstSegment } from './route-match.js';
import type { Condition } from './rule-parse.js';
import type { RequestFacts } from '../request/index.js';

export { firstSegment };

type AnchorKind =
  | 'segment'
  | 'segmentAnyCase'
  | 'last'
  | 'lastTwo'
  | 'host'
  | 'query'
  | 'ip'
  | 'cookie'
  | 'method'
  | 'header';

/**
 * Better anchors first: the ones fewest requests have, and cheapest to read (a header's presence
 * costs the walk over the request's headers, so it comes last).
 */
const PREFERENCE: Record<AnchorKind, number> = {
  segment: 0,
  segmentAnyCase: 0,
  last: 1,
  lastTwo: 1,
  host: 2,
  query: 2,
  ip: 3,
  cookie: 4,
  method: 5,
  header: 6,
};

/**
 * The key of an address's first byte (IPv4: 0-255) or group (IPv6: 256 + the group), from its text
 * without parsing it whole: 192 for 192.0.2.1 and for ::ffff:192.0.2.1 (which the ip condition takes
 * as IPv4), 256 + 0x2001 for 2001:db8::1. Text that is no address gives a key no block has, or a wrong one: either way the
 * rule is not tested, and an address that does not parse never matches a block anyway.
 */
export function ipKey(ip: string): number {
  // By character codes: each string method called is a native call, costly in the interpreted runtime.
  let i = 0;
  let n = 0;
  let c = ip.charCodeAt(0);
  for (; c >= 48 && c <= 57; c = ip.charCodeAt(++i)) n = n * 10 + c - 48;
  if (c === 46) return n; // digits then '.': IPv4
  if (ip.includes('.')) return ipKey(ip.slice(ip.lastIndexOf(':') + 1));
  i = 0;
  n = 0;
  for (c = ip.charCodeAt(0); i < 4; c = ip.charCodeAt(++i)) {
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) break;
    n = n * 16 + d;
  }
  return 256 + n;
}

/** The ipKey of every address in the block, or null when they have several. */
function blockKey(b: Cidr): number | null {
  if (b.v === 4) return b.bits >= 8 ? Math.floor(b.n / 2 ** 24) : null;
  return b.bits >= 16 ? 256 + b.g[0]! : null;
}

/** Facts of which every request matching a condition has at least one. */
type Anchors = Array<{ kind: AnchorKind; key: string | number }>;

const of = (kind: AnchorKind, keys: ReadonlyArray<string | number>): Anchors => keys.map((key) => ({ kind, key }));

/** How good anchors are: by their worst kind, then by how many keys. Lower is better. */
function cost(a: Anchors): number {
  return Math.max(...a.map((x) => PREFERENCE[x.kind])) * 1000 + a.length;
}

/** The text in every mix of upper and lower case (a request's path is ASCII: the URL parser escapes the rest). */
function anyCase(text: string): string[] {
  let out = [''];
  for (const ch of text) out = out.flatMap((head) => [...new Set([head + ch.toLowerCase(), head + ch.toUpperCase()])]);
  return out;
}

/** Facts every request matching `c` has at least one of, or null when there is none to file it by. */
export function anchorOf(c: Condition): Anchors | null {
  switch (c.k) {
    case 'path':
      if (c.mode === 'prefix') {
        // `/` (every path) has no first segment to file by.
        if (c.prefixes.some((p) => p.path === '')) return null;
        return of(
          c.prefixes[0]!.ignoreCase ? 'segmentAnyCase' : 'segment',
          c.prefixes.map((p) => firstSegment(p.path)),
        );
      }
      if (c.mode === 'exact') return of(c.ignoreCase ? 'segmentAnyCase' : 'segment', c.values.map(firstSegment));
      // Under the last two characters (one for a one-character suffix) in every mix of cases: the
      // request's are then looked up as they are. One character would file `.png`, `.webp` and
      // `.map` together, and test them for every path ending in `g` or `p`.
      return c.values.flatMap((v) => (v.length >= 2 ? of('lastTwo', anyCase(v.slice(-2))) : of('last', anyCase(v))));
    case 'host':
      return c.hosts.every((h) => h.kind === 'exact')
        ? of(
            'host',
            c.hosts.map((h) => (h.kind === 'exact' ? h.name : '')),
          )
        : null;
    case 'ip': {
      const keys = c.blocks.map(blockKey);
      return keys.every((k) => k !== null) ? of('ip', keys as number[]) : null;
    }
    case 'cookie':
      return of('cookie', [c.name]);
    // Present, equal to or starting with a value: either way the request has the parameter or header.
    case 'query':
      return of('query', [c.name]);
    case 'header':
      return of('header', [c.name]);
    case 'method':
      return of('method', [...c.methods]);
    case 'all':
      // Any one part's anchors will do: the best of them.
      return c.cs.reduce<Anchors | null>((best, part) => {
        const a = anchorOf(part);
        return a === null ? best : best === null || cost(a) < cost(best) ? a : best;
      }, null);
    case 'any': {
      // Filed under every part's anchors, so each part needs some.
      const parts = c.cs.map(anchorOf);
      return parts.every((p) => p !== null) ? (parts.flat() as Anchors) : null;
    }
    default:
      return null;
  }
}

export interface RuleIndex {
  /** Rules with no anchor: tested for every request. */
  readonly always: readonly number[];
  readonly byKind: { readonly [K in AnchorKind]: ReadonlyMap<string | number, readonly number[]> };
  /**
   * Whether a Cookie header could hold a cookie rules are filed under (`vip=` anywhere): one search,
   * so a header holding none is not split. Only a hint: the header is then split as the room splits
   * it (cookies.ts), and only the names found so count.
   */
  readonly cookieHint: RegExp | null;
  /**
   * The header names rules are filed under, when there are few enough to ask the request about one
   * by one; null when there are more, and the request's names are walked. Measured in the bench pair
   * (the fixture's 10 names, a request of 4 headers): +0.081 and +0.083 ms over one room asking by
   * name, +0.092 and +0.093 walking, though a loop timing the two alone finds them about equal (a
   * first walk over a request's headers costs more than a repeated one).
   */
  readonly headerProbes: readonly string[] | null;
}

/** Up to this many header names, the request is asked about each rather than walked. */
export const HEADER_PROBES = 16;

export function buildRuleIndex(conditions: readonly Condition[]): RuleIndex {
  const always: number[] = [];
  const byKind: { [K in AnchorKind]: Map<string | number, number[]> } = {
    segment: new Map(),
    segmentAnyCase: new Map(),
    last: new Map(),
    lastTwo: new Map(),
    host: new Map(),
    query: new Map(),
    ip: new Map(),
    cookie: new Map(),
    method: new Map(),
    header: new Map(),
  };
  conditions.forEach((c, i) => {
    const anchors = anchorOf(c);
    if (anchors === null) {
      always.push(i);
      return;
    }
    for (const { kind, key } of anchors) {
      const list = byKind[kind].get(key);
      if (!list) byKind[kind].set(key, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const names = [...byKind.cookie.keys()].map((n) => String(n).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const cookieHint = names.length === 0 ? null : new RegExp(`(?:${names.join('|')})=`);
  const headers = [...byKind.header.keys()].map(String);
  return { always, byKind, cookieHint, headerProbes: headers.length <= HEADER_PROBES ? headers : null };
}

/**
 * The ascending lists as one ascending list without repeats: a plain merge (Array.flat and sort are
 * themselves interpreted code in the runtime, and slower for these few short lists).
 */
function merge2(a: readonly number[], b: readonly number[]): readonly number[] {
  // Most often one list's rules all come before the other's: joined natively.
  if (a[a.length - 1]! < b[0]!) return a.concat(b);
  if (b[b.length - 1]! < a[0]!) return b.concat(a);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    if (x <= y) i++;
    if (y <= x) j++;
    out.push(Math.min(x, y));
  }
  return out;
}

function merge(lists: Array<readonly number[]>): number[] {
  const at = new Array<number>(lists.length).fill(0);
  const out: number[] = [];
  for (;;) {
    let min = Infinity;
    for (let l = 0; l < lists.length; l++) {
      const v = lists[l]![at[l]!];
      if (v !== undefined && v < min) min = v;
    }
    if (min === Infinity) return out;
    out.push(min);
    for (let l = 0; l < lists.length; l++) if (lists[l]![at[l]!] === min) at[l]!++;
  }
}

/** The rules filed under each of `names`, added to `found`. */
function filed(
  byName: ReadonlyMap<string | number, readonly number[]>,
  names: readonly string[],
  found: Array<readonly number[]>,
): void {
  for (let i = 0; i < names.length; i++) {
    const hit = byName.get(names[i]!);
    if (hit) found.push(hit);
  }
}

/** The rules `facts` could match, ascending (the order they are written), each once. */
export function candidateRules(index: RuleIndex, facts: RequestFacts): readonly number[] {
  const found: Array<readonly number[]> = [];
  if (index.always.length > 0) found.push(index.always);
  const { segment, segmentAnyCase, last, lastTwo, host, query, ip, cookie, method, header } = index.byKind;
  const path = facts.path;
  if (segment.size > 0 || segmentAnyCase.size > 0) {
    const first = firstSegment(path);
    const hit = segment.get(first);
    if (hit) found.push(hit);
    const anyCase = segmentAnyCase.size > 0 ? segmentAnyCase.get(first.toLowerCase()) : undefined;
    if (anyCase) found.push(anyCase);
  }
  if (last.size > 0) {
    const hit = last.get(path[path.length - 1] ?? '');
    if (hit) found.push(hit);
  }
  if (lastTwo.size > 0) {
    const hit = lastTwo.get(path.slice(path.length - 2));
    if (hit) found.push(hit);
  }
  if (host.size > 0) {
    const hit = host.get(facts.host);
    if (hit) found.push(hit);
  }
  if (ip.size > 0 && facts.clientIp !== null) {
    const hit = ip.get(ipKey(facts.clientIp));
    if (hit) found.push(hit);
  }
  if (index.cookieHint !== null && facts.cookieHeader !== null && index.cookieHint.test(facts.cookieHeader)) {
    // The header split once, as the room splits it (cookies.ts), and kept for the rules' own tests.
    const names = facts.cookieNames();
    for (let i = 0; i < names.length; i++) {
      const hit = cookie.get(names[i]!);
      if (hit) found.push(hit);
    }
  }
  if (method.size > 0) {
    const hit = method.get(facts.method);
    if (hit) found.push(hit);
  }
  if (query.size > 0) filed(query, facts.queryNames(), found);
  if (header.size > 0) {
    const probes = index.headerProbes;
    filed(header, probes === null ? facts.headerNames() : facts.presentHeaders(probes), found);
  }
  if (found.length === 0) return [];
  if (found.length === 1) return found[0]!;
  return found.length === 2 ? merge2(found[0]!, found[1]!) : merge(found);
}
