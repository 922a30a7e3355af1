// What the fuzz run throws at one room. Each attack is a request that carries no right of its own (no
// valid token of its own identity), marked so the origin can tell it arrived: it must not reach the
// origin unless its path is one the routing lets through (fuzz/oracle.ts judges). Pure generators on
// a seeded random source, so a run can be repeated. Attacks across rooms are in fuzz/cross-room.ts.

export interface Attack {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface Material {
  /** A valid allow token of the identity `owner`. */
  allowToken: string;
  /** A valid wait token of `owner`, due now. */
  waitToken: string;
  owner: string;
  /** The cookie of the room the tokens are of (`waiting_room_ID`). */
  cookieName: string;
  /** Paths of that room. */
  paths: readonly string[];
}

/** Deterministic random numbers (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ODD = ['=', '.', ' ', '"', ',', ';', '\t', '%', '\\', 'é', '\u00ff', '+', '/'];

function mutate(token: string, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const i = Math.floor(rnd() * token.length);
  switch (Math.floor(rnd() * 8)) {
    case 0:
      return token.slice(0, i) + pick([...B64]) + token.slice(i + 1);
    case 1:
      return token.slice(0, i) + pick(ODD) + token.slice(i);
    case 2:
      return token.slice(0, i) + token.slice(i + 1);
    case 3:
      return token.slice(0, i);
    case 4: {
      const [h, p, s] = token.split('.');
      return [p, h, s].join('.');
    }
    case 5: {
      // Another spelling of the signature's last character.
      const last = B64.indexOf(token.at(-1)!);
      return token.slice(0, -1) + B64[(last & ~15) | (1 + Math.floor(rnd() * 3))];
    }
    case 6: {
      // A payload claiming more: the same header and signature, a rewritten payload.
      const [h, , s] = token.split('.');
      const payload = Buffer.from(JSON.stringify({ dec: 'allow', exp: 4_000_000_000, sub: 'x' })).toString('base64url');
      return `${h}.${payload}.${s}`;
    }
    default:
      return `${token}${pick([...B64])}`;
  }
}

/** One attack request. `identity` is the attacker's own (never `material.owner`). */
export function attack(material: Material, identity: string, rnd: () => number): Attack {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const base = {
    method: pick(['GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE']),
    path: pick(material.paths),
    headers: { 'x-fuzz-id': identity, 'x-fuzz-attack': '1' } as Record<string, string>,
  };
  const token = rnd() < 0.5 ? material.allowToken : material.waitToken;
  const k = Math.floor(rnd() * 9);
  if (k <= 5) {
    const { kind, cookie } = cookieAttack(k, material, token, rnd);
    return { ...base, kind, headers: { ...base.headers, cookie } };
  }
  if (k === 6) return { ...base, kind: 'odd target', path: pick(ODD_TARGETS) };
  if (k === 7)
    return {
      ...base,
      kind: 'odd headers',
      headers: {
        ...base.headers,
        accept: pick(['application/json', 'text/html, application/json', '*/*', 'x'.repeat(2000)]),
        'x-forwarded-for': '203.0.113.9',
        'fastly-client-ip': '198.51.100.1',
        cookie: `${material.cookieName}=${mutate(material.allowToken, rnd)}`,
      },
    };
  return { ...base, kind: 'no token at all' };
}

const ODD_TARGETS = [
  '/%00',
  '/..%2f..%2fetc',
  `/${'x'.repeat(3000)}`,
  '/?waiting_room_default=1',
  '/%2fhealth',
  '/HEALTH',
  '//',
  '/;a=b',
  '/a?b#c',
];

/** The attacks carried in the room's cookie (`k` from 0 to 5): its kind and the cookie header it sends. */
function cookieAttack(
  k: number,
  material: Material,
  token: string,
  rnd: () => number,
): { kind: string; cookie: string } {
  const COOKIE_NAME = material.cookieName;
  switch (k) {
    case 0:
      return { kind: 'mutated token', cookie: `${COOKIE_NAME}=${mutate(token, rnd)}` };
    case 1:
      return { kind: 'stolen token', cookie: `${COOKIE_NAME}=${material.allowToken}` };
    case 2:
      return {
        kind: 'stolen token among cookies',
        cookie: `a=1, ${COOKIE_NAME}=${mutate(token, rnd)}; ${COOKIE_NAME}=${material.allowToken}; b="2"`,
      };
    case 3:
      return { kind: 'oversized cookie', cookie: `${COOKIE_NAME}=${'A'.repeat(4000 + Math.floor(rnd() * 4000))}` };
    case 4:
      return {
        kind: 'many cookies',
        cookie: Array.from(
          { length: 50 },
          (_, i) => `${i % 7 === 0 ? COOKIE_NAME : `c${i}`}=${mutate(token, rnd)}`,
        ).join('; '),
      };
    default:
      return {
        kind: 'quoted or odd cookie',
        cookie: `${COOKIE_NAME}="${mutate(token, rnd)}"; ${COOKIE_NAME}=; =${token}; ${COOKIE_NAME}`,
      };
  }
}

/** Settings an operator might break the room with, written live. */
export const badSettings: ReadonlyArray<Record<string, string>> = [
  { allow_percentage: '-1' },
  { allow_percentage: 'fifty' },
  { allow_percentage: '1e309' },
  { wait_period_duration: '0' },
  { wait_period_duration: String(2 ** 52) },
  { allow_period_duration: '-3' },
  { cookie_lifetime: '99999999999' },
  { identity: 'header:' },
  { identity: 'jwt:auth' },
  { active_key: 'missing' },
  { allow_schedule: '1=abc,2=300,,,=' },
  { pop_admissions_per_second: '-1' },
  { waiting_status: '302' },
  // Gone (rules replace it): the room must ignore it, not bypass these paths.
  { bypass_paths: '/, /drops, /vip' },
  { invite_only: 'maybe' },
  { enabled: 'no' },
];

/** Key stores an operator might break the room with. */
export const badKeys: ReadonlyArray<Record<string, string>> = [
  {},
  { fuzz1: 'c2hvcnQ=' },
  { fuzz1: '!!! not base64 !!!' },
];
