// One virtual browser's cookie jar: what it stores from Set-Cookie and sends back in Cookie. Enough of
// RFC 6265 for one site on one origin: name, value, Max-Age and Expires (a removal is Max-Age=0 or a
// date in the past); Path, Domain and the flags are ignored, since every request goes to one host.
import { COOKIE_PREFIX } from '../src/core/request/index.js';

interface Stored {
  value: string;
  /** ms since the epoch; Infinity for a session cookie. */
  expiresMs: number;
}

export class CookieJar {
  private readonly cookies = new Map<string, Stored>();

  /** Takes every Set-Cookie line of an answer, in order. */
  store(setCookies: readonly string[], nowMs: number): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let expiresMs = Number.POSITIVE_INFINITY;
      let maxAgeSeen = false;
      for (const attribute of attributes) {
        const [key = '', ...rest] = attribute.split('=');
        const k = key.trim().toLowerCase();
        const v = rest.join('=').trim();
        // Max-Age wins over Expires whatever their order.
        if (k === 'max-age' && /^-?\d+$/.test(v)) {
          expiresMs = nowMs + Number(v) * 1000;
          maxAgeSeen = true;
        } else if (k === 'expires' && !maxAgeSeen) {
          const at = Date.parse(v);
          if (Number.isFinite(at)) expiresMs = at;
        }
      }
      if (expiresMs <= nowMs || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, expiresMs });
    }
  }

  /** The Cookie header for a request now, or null when the jar holds nothing current. */
  header(nowMs: number): string | null {
    const pairs: string[] = [];
    for (const [name, c] of this.cookies) {
      if (c.expiresMs <= nowMs) this.cookies.delete(name);
      else pairs.push(`${name}=${c.value}`);
    }
    return pairs.length === 0 ? null : pairs.join('; ');
  }

  get(name: string, nowMs: number): string | null {
    const c = this.cookies.get(name);
    return c !== undefined && c.expiresMs > nowMs ? c.value : null;
  }

  /**
   * A room's token in the jar (a cookie `waiting_room_ID`: a load run's browsers visit one room, so
   * the first one found), or null.
   */
  roomToken(nowMs: number): string | null {
    for (const [name, c] of this.cookies) {
      if (name.startsWith(`${COOKIE_PREFIX}_`) && c.expiresMs > nowMs && c.value !== '') return c.value;
    }
    return null;
  }

  /**
   * The kind of the room's token in the jar (`wait`, `allow`, `won`), read from its payload without
   * checking the signature (the generator holds no key); null without one or when it cannot be read.
   */
  roomTokenKind(nowMs: number): string | null {
    const token = this.roomToken(nowMs);
    if (token === null) return null;
    try {
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
        dec?: unknown;
      };
      return typeof claims.dec === 'string' ? claims.dec : null;
    } catch {
      return null;
    }
  }
}
