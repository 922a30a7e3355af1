// The room's cookie in and out. The origin must never see it but must see
// every other cookie exactly as the browser sent it; Set-Cookie is always appended, never replaced.
import type { Config } from './types.js';

export const COOKIE_NAME = 'waiting_room';

// Pairs are separated by ';'. Some runtimes join repeated Cookie headers with ', ', so a comma
// followed by whitespace and a `name=` also separates (a JWS never contains either). Global, for the
// walk in pairs(); split() ignores that flag. A literal: js-compute compiles those into the build,
// while a RegExp made at run time is compiled again on every request.
const SEPARATOR = /;\s*|,\s+(?=[^\s=;,]+=)/g;

function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return (eq < 0 ? '' : pair.slice(0, eq)).trim();
}

/** Every value of the cookie `name` in the request, in order, duplicates kept, quotes removed. */
export function cookieValues(headers: Headers, name: string): string[] {
  // Runtimes hand repeated Cookie headers over as one joined value (js-compute joins with ", ").
  const header = headers.get('cookie');
  const values: string[] = [];
  for (const pair of header === null ? [] : header.split(SEPARATOR)) {
    if (nameOf(pair) !== name) continue;
    let value = pair.slice(pair.indexOf('=') + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value !== '') values.push(value);
  }
  return values;
}

/** Every `waiting_room` value in the request, in order, duplicates kept. */
export function roomCookies(headers: Headers): string[] {
  return cookieValues(headers, COOKIE_NAME);
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
 * The Cookie header without the room's cookie, null when nothing else is left. Only the room's pairs
 * are cut out, and a ", " that joined two Cookie headers becomes "; " (RFC 9113 8.2.3: an origin splits
 * on ";", and would read "a=1, b=2" as one cookie); every other byte stays as the browser sent it.
 * RFC 6265 keeps commas and spaces out of cookie values, so ", name=" always starts a new pair.
 */
export function cookieHeaderWithoutRoom(header: string): string | null {
  let out = '';
  for (const pair of pairs(header)) {
    if (nameOf(pair.text) === COOKIE_NAME) continue;
    const separator = header.slice(pair.start + pair.text.length, pair.next);
    out += pair.text + (separator.startsWith(',') ? '; ' : separator);
  }
  // A cut at the end leaves the previous pair's separator dangling.
  out = out.replace(/(;\s*|,\s+)$/, '');
  return out.trim() === '' ? null : out;
}

/**
 * Takes the room's cookie out of these headers, in place: the origin must never see it, and gets
 * repeated Cookie headers (which the runtime joins with ", ") joined with "; ". Headers with neither
 * are not touched (in js-compute a write to a request's headers costs a copy of them all).
 */
export function removeRoomCookie(headers: Headers): void {
  const header = headers.get('cookie');
  if (header === null || (!header.includes(COOKIE_NAME) && !header.includes(', '))) return;
  const rest = cookieHeaderWithoutRoom(header);
  if (rest === null) headers.delete('cookie');
  else if (rest !== header) headers.set('cookie', rest);
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
