// Tokens as the room would issue them, for tests and benches that need one of a chosen shape
// (expired, foreign key, other identity), and the helpers that read them back out of an answer.
// No page imports and no Room: bench/room.ts loads this under tsx, and the fakes use it too.
import { identityHash, cookieName } from '../src/core/request/index.js';
import { signToken } from '../src/core/tokens/index.js';
import { DEFAULT_ROOM } from '../src/core/settings/index.js';

export interface MintOptions {
  dec: 'wait' | 'allow' | 'won';
  /** Expiry, whole seconds since the epoch. */
  exp: number;
  /** The identity as the core names it (`ip:127.0.0.1`, `header:alice`, `none`). */
  identity?: string;
  /** The room that signs it; `default` (the room of a service without routing) when absent. */
  room?: string;
  kid?: string;
  key?: Uint8Array;
  /** The priority lane the token names (docs/lanes.md); absent: the general lane. */
  lane?: string;
}

/** Mints with `defaults` for whatever `options` leaves out. */
export async function mintToken(
  defaults: { key: Uint8Array; kid: string; identity: string },
  options: MintOptions,
): Promise<string> {
  const key = options.key ?? defaults.key;
  const sub = await identityHash(key, options.identity ?? defaults.identity);
  return signToken(
    {
      dec: options.dec,
      exp: options.exp,
      sub,
      room: options.room ?? DEFAULT_ROOM,
      ...(options.lane === undefined ? {} : { lane: options.lane }),
    },
    options.kid ?? defaults.kid,
    key,
  );
}

// Reading tokens back, for the in-process fakes and the room on the host alike.

/** Whole seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** `floor(now / d) * d + steps * d`, the window boundaries tokens expire on. */
export const windowBoundary = (d: number, steps: number, now = nowSeconds()): number =>
  Math.floor(now / d) * d + steps * d;

/** The Set-Cookie lines of room `room`'s cookie in a response (the room of a service without routing when absent). */
export function roomCookies(response: Response, room: string = DEFAULT_ROOM): string[] {
  const prefix = `${cookieName(room)}=`;
  return response.headers.getSetCookie().filter((line) => line.startsWith(prefix));
}

/** The token in a `waiting_room_ROOM=...` Set-Cookie line. */
export const tokenOf = (setCookie: string): string => setCookie.slice(setCookie.indexOf('=') + 1).split(';')[0]!;

/** The token of the first cookie of room `room` a response sets, or null. */
export function roomCookieValue(response: Response, room: string = DEFAULT_ROOM): string | null {
  const line = roomCookies(response, room)[0];
  return line === undefined ? null : tokenOf(line);
}

/** The claims of a token as `claimsOf` reads them. */
export interface ReadClaims {
  dec: string;
  exp: number;
  sub: string;
  room: string;
  arr?: number;
  lane?: string;
}

/** A token's claims, read without checking the signature. */
export function claimsOf(token: string): ReadClaims {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as ReadClaims;
}
