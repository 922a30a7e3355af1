// `waiting_room_config` holds strings an operator typed by hand. Each one is parsed here, once per
// request, into a strict Config; anything unusable falls back to a safe value and becomes a problem
// that names its key, so a typo shows up in the logs instead of as a SyntaxError or a silent default.
import type { Config, ConfigProblem, IdentitySource, ScheduleEntry, WaitingStatus } from './types.js';

/**
 * The most characters one Config Store value holds (Fastly's limit, and Viceroy's): each setting and
 * each base64 page template must fit (the keys live in a Secret Store, which has its own limits).
 */
export const CONFIG_STORE_VALUE_LIMIT = 8000;

/** Ten years: periods past this are typos, and every time computed from them stays a safe integer. */
export const MAX_PERIOD_SECONDS = 315_360_000;
/** 400 days: what browsers keep a cookie at most (RFC 6265bis). */
export const MAX_COOKIE_LIFETIME_SECONDS = 34_560_000;

export interface SettingInfo {
  key: string;
  /** The default as an operator would write it; '' means "none". */
  default: string;
  meaning: string;
}

/** Every setting the room reads. The README's configuration table is checked against this list. */
export const settingsTable: readonly SettingInfo[] = [
  { key: 'enabled', default: 'true', meaning: '`false`: every request goes to the origin untouched (the room cookie is still stripped)' },
  {
    key: 'allow_percentage',
    default: '100',
    meaning: 'chance (number 0-100, decimals allowed) that an eligible wait token wins its draw; 0 denies everyone, 100 admits everyone; missing, not a number or out of range: 100 (fail open), logged',
  },
  { key: 'allow_period_duration', default: '3600', meaning: 'seconds an admitted session lasts (whole, 1 to 315360000 = ten years)' },
  { key: 'wait_period_duration', default: '30', meaning: 'seconds between draws; also the time window that makes tokens deterministic (whole, 1 to 315360000)' },
  { key: 'cookie_lifetime', default: '7200', meaning: 'cookie Max-Age, seconds (whole, 1 to 34560000 = 400 days, what browsers keep)' },
  { key: 'active_key', default: 'key1', meaning: 'key id in `waiting_room_keys` that signs new tokens; every key in the store verifies' },
  { key: 'log_endpoint', default: '', meaning: 'named log endpoint that gets one JSON line per decision' },
  { key: 'identity', default: 'ip', meaning: 'what a token is bound to: `ip`, `header:NAME`, `jwt:NAME` or `none`' },
  { key: 'bypass_paths', default: '', meaning: 'comma-separated path prefixes (each starting with `/`) that never queue' },
  { key: 'waiting_status', default: '200', meaning: 'HTTP status of waiting and deny pages: `200`, `429` or `503`' },
  { key: 'cookie_secure', default: 'auto', meaning: '`Secure` cookie attribute: `auto` (when the request is https), `true` or `false`' },
  { key: 'cookie_samesite', default: 'Lax', meaning: '`SameSite` cookie attribute: `Lax`, `Strict` or `None` (None forces Secure)' },
  { key: 'jwt_jwks', default: '', meaning: 'JSON Web Key Set (JSON text) that verifies the JWT when `identity` is `jwt:NAME`' },
  { key: 'jwt_issuer', default: '', meaning: 'required `iss` of that JWT (optional)' },
  { key: 'jwt_audience', default: '', meaning: 'required `aud` of that JWT (optional)' },
  {
    key: 'allow_schedule',
    default: '',
    meaning:
      'chance of each window\'s draws, published ahead by the controller: `START=PCT,...` (START a window start in epoch seconds, PCT 0-100); a draw of a token expiring at START uses its entry, past the last entry the last one; used only while allow_percentage is between 0 and 100',
  },
  {
    key: 'pop_admissions_per_second',
    default: '',
    meaning: 'optional ceiling on admissions a second at each POP (a 10-second average, Fastly\'s edge rate limiter); a winner held back keeps the win',
  },
  { key: 'new_users_per_minute', default: '', meaning: 'read by the controller (`npm run control`): admissions a minute the origin can take' },
  { key: 'total_active_users', default: '', meaning: 'read by the controller: cap on admitted visitors active at once (optional)' },
  { key: 'session_duration', default: '5', meaning: 'read by the controller: minutes after their last request that an admitted visitor counts as active' },
];

const defaults = Object.fromEntries(settingsTable.map((s) => [s.key, s.default])) as Record<string, string>;

type Get = (key: string) => string | null;

/** A reader that trims values and records problems against the key they came from. */
class Reader {
  readonly problems: ConfigProblem[] = [];
  constructor(private readonly get: Get) {}

  raw(key: string): string | null {
    let value: string | null;
    try {
      value = this.get(key);
    } catch (error) {
      this.problems.push({ key, value: '', message: `could not be read (${String(error)}); using the default` });
      return null;
    }
    if (value === null || value === undefined) return null;
    const trimmed = String(value).trim();
    return trimmed === '' ? null : trimmed;
  }

  problem(key: string, value: string, message: string): void {
    this.problems.push({ key, value, message });
  }

  /**
   * Whole seconds from 1 to `max`: a window of 0 would divide by zero, a fraction would break the
   * windows, and the bound keeps every time the room computes (expiries, due times, stale times, each
   * a few periods past now) a safe integer. Anything else is unusable and gives the default.
   */
  seconds(key: string, max: number): number {
    const fallback = Number(defaults[key]);
    const value = this.raw(key);
    if (value === null) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      this.problem(key, value, `must be a whole number of seconds from 1 to ${max}; using ${fallback}`);
      return fallback;
    }
    return Number(value);
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], caseInsensitive = true): T {
    const fallback = defaults[key] as T;
    const value = this.raw(key);
    if (value === null) return fallback;
    const found = allowed.find((a) => (caseInsensitive ? a.toLowerCase() === value.toLowerCase() : a === value));
    if (found === undefined) {
      this.problem(key, value, `must be one of ${allowed.join(', ')}; using ${fallback}`);
      return fallback;
    }
    return found;
  }
}

function parseAllowPercentage(r: Reader): number {
  const key = 'allow_percentage';
  const value = r.raw(key);
  // Fail open: an unreadable setting must not close the site.
  if (value === null) {
    r.problem(key, '', 'is missing; admitting everyone (100)');
    return 100;
  }
  const n = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) {
    r.problem(key, value, 'is not a number; admitting everyone (100)');
    return 100;
  }
  // The one rule for numbers: out of range means unusable, and unusable means the default. Clamping
  // -1 to 0 would deny everyone and clear the cookie of every visitor inside, for a typo.
  if (n < 0 || n > 100) {
    r.problem(key, value, 'must be between 0 and 100; admitting everyone (100)');
    return 100;
  }
  return n;
}

// RFC 7230 token characters: what a header or cookie name may contain.
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseIdentity(r: Reader): IdentitySource {
  const key = 'identity';
  const value = r.raw(key);
  if (value === null) return { kind: 'ip' };
  const lower = value.toLowerCase();
  if (lower === 'ip') return { kind: 'ip' };
  if (lower === 'none') return { kind: 'none' };
  const m = /^(header|jwt):(.*)$/i.exec(value);
  if (m && NAME.test(m[2]!.trim())) {
    const kind = m[1]!.toLowerCase() as 'header' | 'jwt';
    return { kind, name: m[2]!.trim() };
  }
  r.problem(key, value, 'must be ip, none, header:NAME or jwt:NAME; using ip');
  return { kind: 'ip' };
}

function parseBypassPaths(r: Reader): string[] {
  const key = 'bypass_paths';
  const value = r.raw(key);
  if (value === null) return [];
  const paths: string[] = [];
  for (const part of value.split(',')) {
    const p = part.trim();
    if (p === '') continue;
    if (!p.startsWith('/')) {
      r.problem(key, p, 'each prefix must start with "/"; ignoring this one');
      continue;
    }
    paths.push(p);
  }
  return paths;
}

function parseEnabled(r: Reader): boolean {
  const value = r.raw('enabled');
  if (value === null) return true;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  r.problem('enabled', value, 'must be true or false; using true');
  return true;
}

/**
 * Keys jose and Fastly's runtime can verify with: RSA (RS*) and EC (ES*) public keys. jose never takes
 * shared secrets from a key set, and js-compute's crypto.subtle lacks EdDSA and RSA-PSS (measured on
 * js-compute 3.46), so such keys would fail on every request at the edge while passing in Node.
 */
function unusableJwk(jwk: Record<string, unknown>): string | null {
  if (jwk.kty === 'oct') return 'is a shared secret (kty "oct"); a key set must hold public keys';
  if (jwk.kty === 'OKP' || jwk.alg === 'EdDSA' || jwk.alg === 'Ed25519') return 'is EdDSA, which Fastly Compute cannot verify; use ES256 or RS256';
  if (typeof jwk.alg === 'string' && jwk.alg.startsWith('PS')) return 'is RSA-PSS, which Fastly Compute cannot verify; use RS256 or ES256';
  if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') return `has an unknown kty ${JSON.stringify(jwk.kty)}`;
  return null;
}

function parseJwks(r: Reader, identity: IdentitySource): Config['jwtJwks'] {
  const key = 'jwt_jwks';
  const value = r.raw(key);
  if (value === null) {
    if (identity.kind === 'jwt') r.problem(key, '', 'is missing, so no JWT can be verified; identities fall back to ip');
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(value);
    const keys = (parsed as { keys?: unknown })?.keys;
    if (Array.isArray(keys) && keys.every((k) => typeof k === 'object' && k !== null)) {
      const usable = (keys as Record<string, unknown>[]).filter((k) => {
        const why = unusableJwk(k);
        if (why !== null) r.problem(key, String(k.kid ?? k.kty ?? '?'), `key ${why}; it is ignored`);
        return why === null;
      });
      if (usable.length > 0) return { keys: usable };
      r.problem(key, value.slice(0, 60), 'holds no usable key; no JWT can be verified');
      return null;
    }
    r.problem(key, value.slice(0, 60), 'must be a JSON object with a "keys" array; no JWT can be verified');
  } catch {
    r.problem(key, value.slice(0, 60), 'is not valid JSON; no JWT can be verified');
  }
  return null;
}

/** Entries past this many are ignored: the controller publishes a few windows back and a short forecast. */
export const MAX_SCHEDULE_ENTRIES = 200;

function parseSchedule(r: Reader): ScheduleEntry[] {
  const key = 'allow_schedule';
  const value = r.raw(key);
  if (value === null) return [];
  const entries: ScheduleEntry[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const m = /^(\d{1,15})=(\d{1,3}(?:\.\d+)?)$/.exec(item);
    const start = m ? Number(m[1]) : Number.NaN;
    const pct = m ? Number(m[2]) : Number.NaN;
    if (!Number.isSafeInteger(start) || !(pct >= 0 && pct <= 100)) {
      r.problem(key, item.slice(0, 40), 'each entry must be START=PCT (epoch seconds = 0..100); ignoring this one');
      continue;
    }
    entries.push({ start, pct });
  }
  entries.sort((a, b) => a.start - b.start);
  if (entries.length > MAX_SCHEDULE_ENTRIES) {
    r.problem(key, `${entries.length} entries`, `holds more than ${MAX_SCHEDULE_ENTRIES} entries; using the last ${MAX_SCHEDULE_ENTRIES}`);
    return entries.slice(-MAX_SCHEDULE_ENTRIES);
  }
  return entries;
}

/** A positive number (decimals allowed), or null when unset; anything else is a problem and null. */
function positive(r: Reader, key: string, integer: boolean, max: number): number | null {
  const value = r.raw(key);
  if (value === null) return null;
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0 && n <= max) || (integer && !Number.isInteger(n))) {
    r.problem(key, value, `must be a ${integer ? 'whole ' : ''}number above 0 and at most ${max}; ignoring it`);
    return null;
  }
  return n;
}

export function parseConfig(get: Get): { config: Config; problems: ConfigProblem[] } {
  const r = new Reader(get);
  const identity = parseIdentity(r);
  const waitingStatus = Number(r.oneOf('waiting_status', ['200', '429', '503'])) as WaitingStatus;
  const config: Config = {
    enabled: parseEnabled(r),
    allowPercentage: parseAllowPercentage(r),
    allowPeriodSeconds: r.seconds('allow_period_duration', MAX_PERIOD_SECONDS),
    waitPeriodSeconds: r.seconds('wait_period_duration', MAX_PERIOD_SECONDS),
    cookieLifetimeSeconds: r.seconds('cookie_lifetime', MAX_COOKIE_LIFETIME_SECONDS),
    activeKey: r.raw('active_key') ?? defaults['active_key']!,
    logEndpoint: r.raw('log_endpoint'),
    identity,
    bypassPaths: parseBypassPaths(r),
    waitingStatus,
    cookieSecure: r.oneOf('cookie_secure', ['auto', 'true', 'false']),
    cookieSameSite: r.oneOf('cookie_samesite', ['Lax', 'Strict', 'None']),
    jwtJwks: parseJwks(r, identity),
    jwtIssuer: r.raw('jwt_issuer'),
    jwtAudience: r.raw('jwt_audience'),
    allowSchedule: parseSchedule(r),
    popAdmissionsPerSecond: positive(r, 'pop_admissions_per_second', false, 1_000_000),
    control: {
      newUsersPerMinute: positive(r, 'new_users_per_minute', false, 100_000_000),
      totalActiveUsers: positive(r, 'total_active_users', true, 1_000_000_000),
      sessionDurationMinutes: positive(r, 'session_duration', false, 24 * 60) ?? 5,
    },
  };
  return { config, problems: r.problems };
}

/** One line per problem, for deps.diag. */
export function describeProblem(p: ConfigProblem): string {
  return `waiting_room_config: setting "${p.key}"${p.value === '' ? '' : ` = "${p.value}"`} ${p.message}`;
}
