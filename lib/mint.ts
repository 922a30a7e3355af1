// Tokens as the room would issue them, for tests and benches that need one of a chosen shape
// (expired, foreign key, other identity), and the helpers that read them back out of an answer.
// No page imports and no Room: bench/room.ts loads this under tsx, and the fakes use it too.
import { identityHash } from '../src/core/identity.js';
import { signToken } from '../src/core/token.js';

export interface MintOptions {
  dec: 'wait' | 'allow' | 'won';
  /** Expiry, whole seconds since the epoch. */
  exp: number;
  /** The identity as the core names it (`ip:127.0.0.1`, `header:alice`, `none`). */
  identity?: string;
  kid?: string;
  key?: Uint8Array;
}

/** Mints with `defaults` for whatever `options` leaves out. */
export async function mintToken(
  defaults: { key: Uint8Array; kid: string; identity: string },
  options: MintOptions,
): Promise<string> {
  const key = options.key ?? defaults.key;
  const sub = await identityHash(key, options.identity ?? defaults.identity);
  return signToken({ dec: options.dec, exp: options.exp, sub }, options.kid ?? defaults.kid, key);
}

// Reading tokens back, for the in-process fakes and the room on the host alike.

/** Whole seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** `floor(now / d) * d + steps * d`, the window boundaries tokens expire on. */
export const windowBoundary = (d: number, steps: number, now = nowSeconds()): number => Math.floor(now / d) * d + steps * d;

/** The `waiting_room` Set-Cookie lines of a response. */
export function roomCookies(response: Response): string[] {
  return response.headers.getSetCookie().filter((line) => line.startsWith('waiting_room='));
}

/** The token in a `waiting_room=...` Set-Cookie line. */
export const tokenOf = (setCookie: string): string => setCookie.slice('waiting_room='.length).split(';')[0]!;

/** The token of the first `waiting_room` cookie a response sets, or null. */
export function roomCookieValue(response: Response): string | null {
  const line = roomCookies(response)[0];
  return line === undefined ? null : tokenOf(line);
}

/** A token's claims, read without checking the signature. */
export function claimsOf(token: string): { dec: string; exp: number; sub: string; arr?: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { dec: string; exp: number; sub: string; arr?: number };
}
