// The room's cookie in and out. The origin must never see it (seed pattern step 14) but must see
// every other cookie exactly as the browser sent it; Set-Cookie is always appended, never replaced.
import type { Config } from './types.js';

export const COOKIE_NAME = 'waiting_room';

// Pairs are separated by ';'. Some runtimes join repeated Cookie headers with ', ', so a comma
// followed by whitespace and a `name=` also separates (a JWS never contains either).
const SEPARATOR = /;\s*|,\s+(?=[^\s=;,]+=)/;

function cookieHeaders(headers: Headers): string[] {
  const value = headers.get('cookie');
  return value === null ? [] : [value];
}

function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return (eq < 0 ? '' : pair.slice(0, eq)).trim();
}

/** Every `waiting_room` value in the request, in order, duplicates kept. */
export function roomCookies(headers: Headers): string[] {
  const values: string[] = [];
  for (const header of cookieHeaders(headers)) {
    for (const pair of header.split(SEPARATOR)) {
      if (nameOf(pair) !== COOKIE_NAME) continue;
      let value = pair.slice(pair.indexOf('=') + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      if (value !== '') values.push(value);
    }
  }
  return values;
}

/** The Cookie header without the room's cookie: other pairs keep their exact bytes; null when none is left. */
export function cookieHeaderWithoutRoom(header: string): string | null {
  const kept = header
    .split(SEPARATOR)
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && nameOf(pair) !== COOKIE_NAME);
  return kept.length === 0 ? null : kept.join('; ');
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
