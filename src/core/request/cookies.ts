// The rooms' cookies in and out. Each room has its own cookie, `waiting_room_ID`, so several rooms'
// tokens live side by side in one browser. The origin must never see any of them but must see every
// other cookie exactly as the browser sent it; Set-Cookie is always appended, never replaced.
import { DEFAULT_ROOM } from '../settings/index.js';
import type { Config } from '../types.js';

/** Every room cookie's name starts with this; any cookie named so is cut out of what the origin gets. */
export const COOKIE_PREFIX = 'waiting_room';

/** The cookie of room `room`. */
export function cookieName(room: string | null): string {
  return `${COOKIE_PREFIX}_${room ?? DEFAULT_ROOM}`;
}

/** A room's cookie, of any room (and the bare `waiting_room` of older builds). */
export function isRoomCookie(name: string): boolean {
  return (
    name.startsWith(COOKIE_PREFIX) &&
    (name.length === COOKIE_PREFIX.length || name.charCodeAt(COOKIE_PREFIX.length) === 95) /* _ */
  );
}

// Pairs are separated by ';'. Some runtimes join repeated Cookie headers with ', ', so a comma
// followed by whitespace and a `name=` also separates (a JWS never contains either). A bare comma
// separates only before a room cookie's name and '=' (`vip=1,waiting_room_shop=...`), so a room
// cookie is always cut out, while a bare comma inside another cookie's value (`list=a,b=c`) stays
// as sent. Global, for the walk in pairs(); split() ignores that flag. A literal: js-compute
// compiles those into the build, while a RegExp made at run time is compiled again on every request.
// The one splitter of Cookie headers: routing rules (request-facts.ts, rule-index.ts) use it too.
const SEPARATOR = /;\s*|,\s+(?=[^\s=;,]+=)|,(?=waiting_room(?:=|_[^\s=;,]*=))/g;

/**
 * The pairs of a Cookie header (`name=value` as sent, the separators left out; a pair may keep
 * whitespace before its name, which nameOf trims). A header without a comma is split on ';' alone:
 * splitting on a regular expression runs as interpreted code in js-compute, many times slower.
 */
export function cookiePairs(header: string): string[] {
  return header.indexOf(',') < 0 ? header.split(';') : header.split(SEPARATOR);
}

/** A pair's name, trimmed ('' when it has no '='). */
export function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return (eq < 0 ? '' : pair.slice(0, eq)).trim();
}

/** The names of the cookies in a Cookie header, in order, repeats kept (`a=1; b=2` holds a and b). */
export function cookieNames(header: string): string[] {
  const pairs = cookiePairs(header);
  const names: string[] = [];
  for (let i = 0; i < pairs.length; i++) {
    const name = nameOf(pairs[i]!);
    if (name !== '') names.push(name);
  }
  return names;
}

/** A pair's value, trimmed, without its quotes. */
function valueOf(pair: string): string {
  const value = pair.slice(pair.indexOf('=') + 1).trim();
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** Every value of the cookie `name` in the request, in order, duplicates kept, quotes removed. */
export function cookieValues(headers: Headers, name: string): string[] {
  // Runtimes hand repeated Cookie headers over as one joined value (js-compute joins with ", ").
  const header = headers.get('cookie');
  const values: string[] = [];
  for (const pair of header === null ? [] : cookiePairs(header)) {
    if (nameOf(pair) !== name) continue;
    const value = valueOf(pair);
    if (value !== '') values.push(value);
  }
  return values;
}

/** Every value of room `room`'s cookie in the request, in order, duplicates kept. */
export function roomCookies(headers: Headers, room: string | null): string[] {
  return splitRoomCookie(headers.get('cookie'), room).tokens;
}

/** Each pair with where it starts and where the next one starts (so its separator goes with it). */
function pairs(header: string): Array<{ text: string; start: number; next: number }> {
  const out: Array<{ text: string; start: number; next: number }> = [];
  SEPARATOR.lastIndex = 0;
  let start = 0;
  for (let m = SEPARATOR.exec(header); m !== null; m = SEPARATOR.exec(header)) {
    out.push({ text: header.slice(start, m.index), start, next: m.index + m[0].length });
    start = m.index + m[0].length;
  }
  out.push({ text: header.slice(start), start, next: header.length });
  return out;
}

/**
 * The Cookie header without any room's cookie, null when nothing else is left. Only the rooms' pairs
 * are cut out, and a ", " that joined two Cookie headers becomes "; " (RFC 9113 8.2.3: an origin splits
 * on ";", and would read "a=1, b=2" as one cookie); every other byte stays as the browser sent it.
 * RFC 6265 keeps commas and spaces out of cookie values, so ", name=" always starts a new pair.
 */
export function cookieHeaderWithoutRoom(header: string): string | null {
  return cut(header, null).rest;
}

/** Room `room`'s values and the header without any room's cookie, in one walk over the pairs. */
function cut(header: string, room: string | null): RoomCookieSplit {
  const tokens: string[] = [];
  const own = room === null ? null : cookieName(room);
  let out = '';
  // The separator written after the last pair kept: dropped when no pair follows it.
  let dangling = 0;
  // An index, not for...of: this runs on every request, in a runtime without a JIT.
  const all = pairs(header);
  for (let i = 0; i < all.length; i++) {
    const pair = all[i]!;
    const name = nameOf(pair.text);
    if (isRoomCookie(name)) {
      const value = valueOf(pair.text);
      if (value !== '' && name === own) tokens.push(value);
      continue;
    }
    const raw = header.slice(pair.start + pair.text.length, pair.next);
    const separator = raw.startsWith(',') ? '; ' : raw;
    out += pair.text + separator;
    dangling = separator.length;
  }
  out = out.slice(0, out.length - dangling);
  return { tokens, rest: out.trim() === '' ? null : out };
}

export interface RoomCookieSplit {
  /** Every value of the deciding room's cookie, in order, duplicates kept, quotes removed. */
  tokens: string[];
  /** The Cookie header the origin gets: null when none is left; the very header when nothing changes. */
  rest: string | null;
}

/**
 * A request's Cookie header read once: room `room`'s tokens (none when `room` is null), and what the
 * origin gets instead (every room's pairs cut out, repeated Cookie headers that the runtime joined
 * with ", " joined with "; "). A header with neither is passed on exactly as it is.
 */
export function splitRoomCookie(header: string | null, room: string | null): RoomCookieSplit {
  if (header === null) return { tokens: [], rest: null };
  if (!header.includes(COOKIE_PREFIX) && !header.includes(', ')) return { tokens: [], rest: header };
  return cut(header, room);
}

/**
 * Gives these headers the Cookie header of `split` (made from their own), in place: the origin must
 * never see the room's cookie. Headers that need no change are not touched (in js-compute a write
 * to a request's headers costs a copy of them all).
 */
export function applyCookieSplit(headers: Headers, header: string | null, split: RoomCookieSplit): void {
  if (split.rest === header) return;
  if (split.rest === null) headers.delete('cookie');
  else headers.set('cookie', split.rest);
}

/** Takes every room's cookie out of these headers, in place (see splitRoomCookie). */
export function removeRoomCookie(headers: Headers): void {
  const header = headers.get('cookie');
  applyCookieSplit(headers, header, splitRoomCookie(header, null));
}

/** Whether the room's cookie is `Secure` on this request. */
function secureCookie(config: Config, https: boolean): boolean {
  return (
    config.cookieSameSite === 'None' || config.cookieSecure === 'true' || (config.cookieSecure === 'auto' && https)
  );
}

function attributes(config: Config, https: boolean): string {
  return `Path=/; HttpOnly; SameSite=${config.cookieSameSite}${secureCookie(config, https) ? '; Secure' : ''}`;
}

/**
 * The visitor's language (i18n/negotiate.ts), set when they pick one with the language links. Not a
 * room cookie: the origin gets it as sent, and the site may read it.
 */
export const LANGUAGE_COOKIE = 'wr_lang';
/** A year: a language chosen is kept, not a session's worth. */
const LANGUAGE_COOKIE_SECONDS = 31_536_000;

/** The first value of cookie `name` in a Cookie header, null when it has none. */
export function cookieValue(header: string | null, name: string): string | null {
  if (header === null || !header.includes(name)) return null;
  for (const pair of cookiePairs(header)) if (nameOf(pair) === name) return valueOf(pair);
  return null;
}

/** The Set-Cookie of the visitor's language: readable by the page, `Secure` as the room's cookie would be. */
export function setLanguageCookie(tag: string, config: Config, https: boolean): string {
  return `${LANGUAGE_COOKIE}=${tag}; Path=/; Max-Age=${LANGUAGE_COOKIE_SECONDS}; SameSite=Lax${secureCookie(config, https) ? '; Secure' : ''}`;
}

export function setRoomCookie(token: string, config: Config, https: boolean): string {
  return `${cookieName(config.room)}=${token}; Max-Age=${config.cookieLifetimeSeconds}; ${attributes(config, https)}`;
}

export function clearRoomCookie(config: Config, https: boolean): string {
  return `${cookieName(config.room)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(config, https)}`;
}
