// One visitor request against the room on the host, with everything a test checks about it:
// the answer, the cookie it set, and the log line the room wrote for it.
import { expect } from 'vitest';
import { roomCookies } from '../../lib/mint.js';
import { waitFor, type Room } from '../../lib/room-host.js';

export interface Visited {
  response: Response;
  body: string;
  /** True when the answer came from the echo origin. */
  fromOrigin: boolean;
  /** The `waiting_room` Set-Cookie lines. */
  roomCookies: string[];
  /** The room's log line for this request. */
  log: Record<string, unknown>;
}

export interface VisitInit {
  path?: string;
  cookie?: string;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}

/** Sends one request and waits (bounded) for the room's decision line. Tests in a file run one at a time. */
export async function visit(room: Room, init: VisitInit = {}): Promise<Visited> {
  const seen = room.decisions().length;
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie !== undefined) headers.cookie = init.cookie;
  const response = await fetch(`${room.url}${init.path ?? '/'}`, {
    method: init.method ?? 'GET',
    headers,
    redirect: 'manual',
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const body = await response.text();
  const log = await waitFor(() => room.decisions()[seen], 5_000).catch(() => {
    throw new Error(`no log line for ${init.path ?? '/'}; host output:\n${room.logs().slice(-20).join('\n')}`);
  });
  return {
    response,
    body,
    fromOrigin: response.headers.get('x-echo') === '1',
    roomCookies: roomCookies(response),
    log,
  };
}

/** The cookie's attributes, lower-cased names. */
export function cookieAttributes(setCookie: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const part of setCookie.split(';').slice(1)) {
    const [name, ...value] = part.trim().split('=');
    attributes.set(name!.toLowerCase(), value.join('='));
  }
  return attributes;
}

/** What the design asks of every cookie the room sets on plain http. */
export function expectRoomCookie(setCookie: string, maxAge: string): void {
  const attributes = cookieAttributes(setCookie);
  expect(attributes.get('path')).toBe('/');
  expect(attributes.get('max-age')).toBe(maxAge);
  expect(attributes.has('httponly')).toBe(true);
  expect(attributes.get('samesite')?.toLowerCase()).toBe('lax');
  // Secure would make the browser drop the cookie on http://127.0.0.1 (cookie_secure=auto).
  expect(attributes.has('secure')).toBe(false);
}

/** A page made at the edge: never cached, and tells the visitor when to come back. */
export function expectEdgePage(visited: Pick<Visited, 'response' | 'fromOrigin'>): number {
  expect(visited.fromOrigin).toBe(false);
  const cacheControl = visited.response.headers.get('cache-control') ?? '';
  expect(cacheControl).toContain('no-store');
  expect(cacheControl).toContain('private');
  const retryAfter = Number(visited.response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  return retryAfter;
}
