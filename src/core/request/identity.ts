// Who a token belongs to. Binding tokens to an identity is what stops one person holding many
// places, and what makes their draws differ from everyone else's.
import { createLocalJWKSet, jwtVerify } from 'jose';
import { cookieValues } from './cookies.js';
import { encodeBase64url, hmacKey } from '../tokens/index.js';
import type { Config } from '../types.js';

/** How the identity was found; the log line names it (never the identity itself). */
export type IdentityKind = 'ip' | 'ip-fallback' | 'header' | 'jwt' | 'none';

export interface ResolvedIdentity {
  /** Prefixed by kind so a header value can never collide with an address. */
  identity: string;
  kind: IdentityKind;
}

/** Parse IPv6 text into 8 hextets, or null. Handles `::`, zone ids and a dotted IPv4 tail. */
function ipv6Hextets(text: string): number[] | null {
  let s = text.trim().toLowerCase();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  // A dotted IPv4 tail (`::ffff:192.0.2.1`) stands for the last two hextets.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = ipv4Octets(dotted[2]!);
    if (!v4) return null;
    s = `${dotted[1]}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const h of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(h)) return null;
      out.push(parseInt(h, 16));
    }
    return out;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

// One literal pattern: js-compute compiles it into the build, and this runs on every request.
const IPV4 = /^\s*(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\s*$/;

function ipv4Octets(text: string): number[] | null {
  const m = IPV4.exec(text);
  if (m === null) return null;
  const octets = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  return octets[0]! <= 255 && octets[1]! <= 255 && octets[2]! <= 255 && octets[3]! <= 255 ? octets : null;
}

/**
 * The address as the room groups it: IPv4 as is, IPv6 by its /64 (one household or phone usually
 * holds a whole /64, so per-address identities would hand it millions of places), IPv4-mapped
 * IPv6 as the IPv4 it carries. Unparseable text is used as given (still one identity per value).
 */
export function groupAddress(address: string): string {
  const v4 = ipv4Octets(address);
  if (v4) return v4.join('.');
  const h = ipv6Hextets(address);
  if (!h) return address.trim().toLowerCase();
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) {
    return [h[6]! >> 8, h[6]! & 255, h[7]! >> 8, h[7]! & 255].join('.');
  }
  return `${h
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

function ipIdentity(clientIp: string | null, kind: IdentityKind): ResolvedIdentity {
  return { identity: `ip:${clientIp === null ? 'unknown' : groupAddress(clientIp)}`, kind };
}

async function jwtSubject(config: Config, request: Request, name: string, nowMs: number): Promise<string | null> {
  if (config.jwtJwks === null) return null;
  let token = request.headers.get(name)?.trim() ?? cookieValues(request.headers, name)[0];
  if (!token) return null;
  token = token.replace(/^Bearer\s+/i, '');
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(config.jwtJwks as never), {
      ...(config.jwtIssuer !== null ? { issuer: config.jwtIssuer } : {}),
      ...(config.jwtAudience !== null ? { audience: config.jwtAudience } : {}),
      currentDate: new Date(nowMs),
    });
    return typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null;
  } catch {
    // Forged, expired or for another audience: the visitor still queues, by address.
    return null;
  }
}

export async function resolveIdentity(
  config: Config,
  request: Request,
  clientIp: string | null,
  nowMs: number,
): Promise<ResolvedIdentity> {
  const source = config.identity;
  switch (source.kind) {
    case 'ip':
      return ipIdentity(clientIp, 'ip');
    case 'none':
      return { identity: 'none', kind: 'none' };
    case 'header': {
      const value = request.headers.get(source.name)?.trim();
      return value ? { identity: `header:${value}`, kind: 'header' } : ipIdentity(clientIp, 'ip-fallback');
    }
    case 'jwt': {
      const sub = await jwtSubject(config, request, source.name, nowMs);
      return sub !== null ? { identity: `jwt:${sub}`, kind: 'jwt' } : ipIdentity(clientIp, 'ip-fallback');
    }
  }
}

const encoder = new TextEncoder();

/**
 * The token's `sub`: base64url of the first 16 bytes of HMAC-SHA-512(key, "wr-identity:" + identity).
 * Keyed with the token's own key, so only the key holder can tell whose token it is; the same key
 * object as the signature's (keys.ts), so a request sets up one HMAC, not two. `bot`: the `sub` of the
 * infinite queue's tokens (docs/bots.md), under the label "wr-identity-bot:": as random-looking as
 * the other, so nothing in the token tells its holder which queue it is in.
 */
export async function identityHash(key: CryptoKey | Uint8Array, identity: string, bot = false): Promise<string> {
  const hmac = key instanceof Uint8Array ? await hmacKey(key) : key;
  const mac = await crypto.subtle.sign(
    'HMAC',
    hmac,
    encoder.encode(`${bot ? 'wr-identity-bot:' : 'wr-identity:'}${identity}`),
  );
  return encodeBase64url(new Uint8Array(mac, 0, 16));
}
