// What routing rules and routes read of a request (routing.ts), each part read only when asked and
// then kept: a request that no rule asks about a header never reads its headers, nor its cookies,
// nor its query.
import type { EdgeLookups } from './types.js';

export interface RequestFacts {
  /** Lower case, no port (from url.hostname). */
  readonly host: string;
  /** The URL's path as sent (percent-encoded as it came), without the query. */
  readonly path: string;
  /** `path` lower-cased, worked out on first use. */
  readonly lowerPath: string;
  /** Upper case. */
  readonly method: string;
  /** The first value of query parameter `name`, or null. */
  query(name: string): string | null;
  /** The header's value (several joined by `, `), or null; `name` is lower case. */
  header(name: string): string | null;
  /** Whether the Cookie header holds a cookie of that name. */
  hasCookie(name: string): boolean;
  /** The Cookie header as the caller read it, or null. */
  cookieHeader: string | null;
  clientIp: string | null;
  /** Null: no geo/device/bot/acl available (tests, simulator): such conditions cannot be evaluated. */
  edge: EdgeLookups | null;
  /** A diagnostic, said once per sandbox by the caller. */
  note(message: string): void;
}

/** The names of the cookies in a Cookie header (`a=1; b=2` holds a and b). */
export function cookieNames(header: string): string[] {
  const names: string[] = [];
  const parts = header.split(';');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const eq = part.indexOf('=');
    if (eq > 0) names.push(part.slice(0, eq).trim());
  }
  return names;
}

export function requestFacts(
  request: Request,
  url: URL,
  cookieHeader: string | null,
  clientIp: string | null,
  edge: EdgeLookups | null,
  note: (m: string) => void,
): RequestFacts {
  let method: string | undefined;
  let lowerPath: string | undefined;
  let params: URLSearchParams | undefined;
  let cookies: string[] | undefined;
  return {
    host: url.hostname.toLowerCase(),
    path: url.pathname,
    get lowerPath() {
      return (lowerPath ??= url.pathname.toLowerCase());
    },
    get method() {
      return (method ??= request.method.toUpperCase());
    },
    query: (name) => (params ??= url.searchParams).get(name),
    header: (name) => request.headers.get(name),
    hasCookie: (name) => (cookies ??= cookieHeader === null ? [] : cookieNames(cookieHeader)).includes(name),
    cookieHeader,
    clientIp,
    edge,
    note,
  };
}
