// INTERIM (replaced by the routing branch before this lands).
import type { EdgeLookups } from './types.js';

export interface RequestFacts {
  host: string;
  path: string;
  method: string;
  query(name: string): string | null;
  header(name: string): string | null;
  hasCookie(name: string): boolean;
  clientIp: string | null;
  edge: EdgeLookups | null;
  note(message: string): void;
}

export function requestFacts(request: Request, url: URL, cookieHeader: string | null, clientIp: string | null, edge: EdgeLookups | null, note: (m: string) => void): RequestFacts {
  return {
    host: url.hostname.toLowerCase(),
    path: url.pathname,
    method: request.method.toUpperCase(),
    query: (name) => url.searchParams.get(name),
    header: (name) => request.headers.get(name),
    hasCookie: (name) => (cookieHeader ?? '').split(';').some((p) => p.trim().startsWith(`${name}=`)),
    clientIp,
    edge,
    note,
  };
}
