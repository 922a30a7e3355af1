// The room's cookie in and out. The origin must never see it (seed pattern step 14) but must see
// every other cookie exactly as the browser sent it; Set-Cookie is always appended, never replaced.
import type { Config } from './types.js';

export const COOKIE_NAME = 'waiting_room';

// Pairs are separated by ';'. Some runtimes join repeated Cookie headers with ', ', so a comma
// followed by whitespace and a `name=` also separates (a JWS never contains either).
const SEPARATOR = /;\s*|,\s+(?=[^\s=;,]+=)/;

// The same pattern, global, for walking a header. A literal rather than `new RegExp(SEPARATOR.source)`:
// js-compute compiles regex literals at build time, a RegExp made per call is compiled per request.
const SEPARATORS = /;\s*|,\s+(?=[^\s=;,]+=)/g;

function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return (eq < 0 ? '' : pair.slice(0, eq)).trim();
}

/** Every `waiting_room` value in the request, in order, duplicates kept. */
export function roomCookies(headers: Headers): string[] {
  // Runtimes hand repeated Cookie headers over as one joined value (js-compute joins with ", ").
  const header = headers.get('cookie');
  const values: string[] = [];
  for (const pair of header === null ? [] : header.split(SEPARATOR)) {
    if (nameOf(pair) !== COOKIE_NAME) continue;
    let value = pair.slice(pair.indexOf('=') + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value !== '') values.push(value);
  }
  return values;
}

/** Each pair with where it starts and where the next one starts (so its separator goes with it). */
function pairs(header: string): Array<{ text: string; start: number; next: number }> {
  const out: Array<{ text: string; start: number; next: number }> = [];
  const separator = SEPARATORS;
  separator.lastIndex = 0;
  let start = 0;
  for (let m = separator.exec(header); m !== null; m = separator.exec(header)) {
    out.push({ text: header.slice(start, m.index), start, next: m.index + m[0].length });
    start = m.index + m[0].length;
  }
  out.push({ text: header.slice(start), start, next: header.length });
  return out;
}

/**
 * The Cookie header without the room's cookie, null when nothing else is left. Only the room's pairs
 * are cut out; every other byte, separators included, stays as the browser sent it.
 */
export function cookieHeaderWithoutRoom(header: string): string | null {
  let out = '';
  for (const pair of pairs(header)) {
    if (nameOf(pair.text) !== COOKIE_NAME) out += header.slice(pair.start, pair.next);
  }
  // A cut at the end leaves the previous pair's separator dangling.
  out = out.replace(/(;\s*|,\s+)$/, '');
  return out.trim() === '' ? null : out;
}

/** Headers for the origin: same as the visitor's, minus the room's cookie. */
export function stripRoomCookie(headers: Headers): Headers {
  const out = new Headers(headers);
  const header = headers.get('cookie');
  if (header === null) return out;
  if (!header.split(SEPARATOR).some((pair) => nameOf(pair) === COOKIE_NAME)) return out;
  const rest = cookieHeaderWithoutRoom(header);
  if (rest === null) out.delete('cookie');
  else out.set('cookie', rest);
  return out;
}

function attributes(config: Config, https: boolean): string {
  const secure = config.cookieSameSite === 'None' || config.cookieSecure === 'true' || (config.cookieSecure === 'auto' && https);
  return `Path=/; HttpOnly; SameSite=${config.cookieSameSite}${secure ? '; Secure' : ''}`;
}

export function setRoomCookie(token: string, config: Config, https: boolean): string {
  return `${COOKIE_NAME}=${token}; Max-Age=${config.cookieLifetimeSeconds}; ${attributes(config, https)}`;
}

export function clearRoomCookie(config: Config, https: boolean): string {
  return `${COOKIE_NAME}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(config, https)}`;
}
