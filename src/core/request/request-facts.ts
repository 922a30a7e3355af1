// What routing rules and routes read of a request (routing.ts), each part read only when asked and
// then kept: a request that no rule asks about a header never reads its headers, nor its cookies,
// nor its query. Routes and rules see the path and host in one canonical spelling (canonicalPath
// below, docs/routing.md), so another spelling of a room's path or host does not take a request
// out of its room.
import { cookieNames } from './cookies.js';
import type { EdgeLookups } from '../types.js';

export interface RequestFacts {
  /** Lower case, no port, no trailing dot (from url.hostname). */
  readonly host: string;
  /** The URL's path in canonical form (canonicalPath), without the query. */
  readonly path: string;
  /** `path` lower-cased, worked out on first use. */
  readonly lowerPath: string;
  /** The URL's path as sent (percent-encoded as it came): see holdsEncodedSeparator, lenientPath. */
  readonly rawPath: string;
  /** Upper case. */
  readonly method: string;
  /** The first value of query parameter `name`, or null. */
  query(name: string): string | null;
  /** The header's value (several joined by `, `), or null; `name` is lower case. */
  header(name: string): string | null;
  /** Those of `names` (lower case) the request has headers of, in that order. */
  presentHeaders(names: readonly string[]): readonly string[];
  /** Whether the Cookie header holds a cookie of that name. */
  hasCookie(name: string): boolean;
  /** The names of the cookies in the Cookie header (cookies.ts splits it), read once. */
  cookieNames(): readonly string[];
  /**
   * The names of the request's headers, lower case, read once: one walk over the headers costs about
   * what two single reads do in the runtime, and spares a rule on a header the request lacks its read.
   */
  headerNames(): readonly string[];
  /** The names of the query's parameters, read once; none without a query. */
  queryNames(): readonly string[];
  /** The Cookie header as the caller read it, or null. */
  cookieHeader: string | null;
  clientIp: string | null;
  /** Null: no geo/device/bot/acl available (tests, simulator): such conditions cannot be evaluated. */
  edge: EdgeLookups | null;
  /** A diagnostic, said once per sandbox by the caller. */
  note(message: string): void;
}

const HEX = '0123456789ABCDEF';

function hexValue(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
}

/** RFC 3986 unreserved: ALPHA DIGIT - . _ ~ */
function unreserved(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 46 ||
    c === 95 ||
    c === 126
  );
}

/**
 * Percent-escapes of unreserved characters decoded (`%63` -> `c`), every other escape kept with
 * its hex upper-cased (`%2f` -> `%2F`); a `%` not followed by two hex digits stays as it is.
 */
export function decodeUnreserved(text: string): string {
  if (text.indexOf('%') < 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const hi = c === 37 ? hexValue(text.charCodeAt(i + 1)) : -1;
    const lo = hi < 0 ? -1 : hexValue(text.charCodeAt(i + 2));
    if (lo < 0) {
      out += text[i];
      continue;
    }
    const byte = hi * 16 + lo;
    out += unreserved(byte) ? String.fromCharCode(byte) : `%${HEX[hi]}${HEX[lo]}`;
    i += 2;
  }
  return out;
}

/**
 * The path routes and rules compare (docs/routing.md): unreserved escapes decoded and the hex of the
 * others upper-cased, runs of `/` made one, `;params` dropped from each segment, and `.` and `..`
 * segments resolved again where dropping params made them (`/shop/..;/checkout` is `/checkout`).
 * The URL parser has resolved `.`, `..` and their %2e spellings already. A path with no `%`, `;` or
 * `//` is canonical as it is, and is returned without building anything.
 */
export function canonicalPath(path: string): string {
  if (path.indexOf('%') < 0 && path.indexOf(';') < 0 && path.indexOf('//') < 0) return path;
  return rebuild(path);
}

function rebuild(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  const last = segments.length - 1;
  // segments[0] is what precedes the leading '/': '' for every path the URL parser gives.
  for (let i = 1; i <= last; i++) {
    let s = segments[i]!;
    const semi = s.indexOf(';');
    if (semi >= 0) s = s.slice(0, semi);
    s = decodeUnreserved(s);
    if (s === '..') out.pop();
    if (s === '.' || s === '..' || s === '') {
      // A trailing dot segment or '/' leaves the path ending in '/'.
      if (i === last) out.push('');
      continue;
    }
    out.push(s);
  }
  return `/${out.join('/')}`;
}

/**
 * The path as an origin that decodes `%2F`, `%5C` and `%2E` before resolving `..` reads it:
 * `/webhooks/..%2Fcheckout` is `/checkout` there. Worked out only for a path that holds one.
 */
export function lenientPath(path: string): string {
  return rebuild(path.replace(/%2f|%5c|\\/gi, '/').replace(/%2e/gi, '.'));
}

/**
 * Whether a path as sent holds an encoded slash, backslash or dot (`%2F`, `%5C`, `%2E`, any case)
 * or a raw backslash: an origin may read it as another path, so no bypass rule applies (routing.ts).
 */
export function holdsEncodedSeparator(path: string): boolean {
  if (path.indexOf('%') < 0 && path.indexOf('\\') < 0) return false;
  return /%2[fe]|%5c|\\/i.test(path);
}

/**
 * A class, not an object literal of closures and getters: the runtime interprets, and a literal
 * builds each closure and accessor anew per request, where a class's methods are made once.
 */
class Facts implements RequestFacts {
  // Declared, and set in the constructor: a class field (even one without a value) compiles to an
  // initializer the runtime runs as one more interpreted function for each object made.
  declare readonly host: string;
  declare readonly path: string;
  declare readonly rawPath: string;
  declare readonly cookieHeader: string | null;
  declare readonly clientIp: string | null;
  declare readonly edge: EdgeLookups | null;
  declare readonly note: (m: string) => void;
  declare private readonly request: Request;
  declare private readonly url: URL;
  declare private lower: string | undefined;
  declare private upperMethod: string | undefined;
  declare private params: URLSearchParams | undefined;
  declare private cookies: string[] | undefined;
  declare private headers: string[] | undefined;
  declare private queries: string[] | undefined;

  constructor(
    request: Request,
    url: URL,
    cookieHeader: string | null,
    clientIp: string | null,
    edge: EdgeLookups | null,
    note: (m: string) => void,
  ) {
    this.request = request;
    this.url = url;
    this.cookieHeader = cookieHeader;
    this.clientIp = clientIp;
    this.edge = edge;
    this.note = note;
    const hostname = url.hostname.toLowerCase();
    // `pay.example.com.` is `pay.example.com` to DNS and to most origins.
    this.host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
    const rawPath = url.pathname;
    this.rawPath = rawPath;
    // Worked out here, not by a getter: routes read it once per route tried, and a getter is an
    // interpreted call each time. A plain path costs three searches and builds nothing.
    this.path = canonicalPath(rawPath);
    // Every object of the class gets the same properties in the same order (one shape).
    this.lower = undefined;
    this.upperMethod = undefined;
    this.params = undefined;
    this.cookies = undefined;
    this.headers = undefined;
    this.queries = undefined;
  }

  get lowerPath(): string {
    return (this.lower ??= this.path.toLowerCase());
  }

  get method(): string {
    return (this.upperMethod ??= this.request.method.toUpperCase());
  }

  query(name: string): string | null {
    return (this.params ??= this.url.searchParams).get(name);
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  presentHeaders(names: readonly string[]): readonly string[] {
    const headers = this.request.headers;
    const present: string[] = [];
    for (let i = 0; i < names.length; i++) if (headers.has(names[i]!)) present.push(names[i]!);
    return present;
  }

  hasCookie(name: string): boolean {
    // A cookie's name is a piece of the header as sent: a header without it is not split.
    const header = this.cookieHeader;
    return header !== null && header.indexOf(name) >= 0 && this.cookieNames().includes(name);
  }

  cookieNames(): readonly string[] {
    return (this.cookies ??= this.cookieHeader === null ? [] : cookieNames(this.cookieHeader));
  }

  headerNames(): readonly string[] {
    return (this.headers ??= [...this.request.headers.keys()]);
  }

  queryNames(): readonly string[] {
    return (this.queries ??= this.url.search.length <= 1 ? [] : [...(this.params ??= this.url.searchParams).keys()]);
  }
}

export function requestFacts(
  request: Request,
  url: URL,
  cookieHeader: string | null,
  clientIp: string | null,
  edge: EdgeLookups | null,
  note: (m: string) => void,
): RequestFacts {
  return new Facts(request, url, cookieHeader, clientIp, edge, note);
}
