// `waiting_room_config` holds strings an operator typed by hand. Each one is parsed here, once per
// request, into a strict Config; anything unusable falls back to a safe value and becomes a problem
// that names its key, so a typo shows up in the logs instead of as a SyntaxError or a silent default.
// The common forms are read as declared (declared.ts, config-reader.ts); the settings below need more.
import { parseCounts, parseCursor, parseEvent, parseMessage } from './config-events.js';
import { parseLanguageSettings } from './config-language.js';
import { parseLaneSettings } from './config-lanes.js';
import { parsePaceSettings } from './config-pace.js';
import { parseProofSettings } from './config-proof.js';
import { checkStatusBasis } from './config-status.js';
import { parsePageVariants } from './config-variants.js';
import { type Get, Reader } from './config-reader.js';
import { declared, defaultOf } from './declared.js';
import { DEFAULT_ROOM, percentageKey, ROOM_ID, roomKey } from './layout.js';
import type { SettingProblem } from './problem.js';
import type { Config, IdentitySource, ScheduleEntry, WaitingStatus } from '../types.js';

function parseAllowPercentage(r: Reader, room: string | null): number {
  const key = 'allow_percentage';
  const value = r.raw(key);
  // Fail open: an unreadable setting must not close the site. Said only for a room: a request no room
  // decides goes to the origin whatever the chance, and reads the service-wide settings for its log line.
  if (value === null) {
    if (room !== null)
      r.problem(
        key,
        '',
        `is missing, and room ${room} has none of its own (${percentageKey(room)}, ${roomKey(room)})`,
        `room ${room} admits everyone (100)`,
      );
    return 100;
  }
  const n = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) {
    r.problem(key, value, 'is not a number', 'admitting everyone (100)');
    return 100;
  }
  // The one rule for numbers: out of range means unusable, and unusable means the default. Clamping
  // -1 to 0 would deny everyone and clear the cookie of every visitor inside, for a typo.
  if (n < 0 || n > 100) {
    r.problem(key, value, 'must be between 0 and 100', 'admitting everyone (100)');
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
  r.problem(key, value, 'must be ip, none, header:NAME or jwt:NAME', 'using ip');
  return { kind: 'ip' };
}

/** A page set's name goes into store keys (`PAGES.startwaiting`): the room ids' alphabet. */
function parsePages(r: Reader): string | null {
  const value = r.raw('pages');
  if (value === null) return null;
  if (ROOM_ID.test(value)) return value;
  r.problem(
    'pages',
    value,
    'must be a page set name (lower case, digits, - and _, at most 32 characters)',
    'using the shared pages',
  );
  return null;
}

/**
 * Keys jose and Fastly's runtime can verify with: RSA (RS*) and EC (ES*) public keys. jose never takes
 * shared secrets from a key set, and js-compute's crypto.subtle lacks EdDSA and RSA-PSS (measured on
 * js-compute 3.46), so such keys would fail on every request at the edge while passing in Node.
 */
function unusableJwk(jwk: Record<string, unknown>): string | null {
  if (jwk.kty === 'oct') return 'is a shared secret (kty "oct"); a key set must hold public keys';
  if (jwk.kty === 'OKP' || jwk.alg === 'EdDSA' || jwk.alg === 'Ed25519')
    return 'is EdDSA, which Fastly Compute cannot verify; use ES256 or RS256';
  if (typeof jwk.alg === 'string' && jwk.alg.startsWith('PS'))
    return 'is RSA-PSS, which Fastly Compute cannot verify; use RS256 or ES256';
  if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') return `has an unknown kty ${JSON.stringify(jwk.kty)}`;
  return null;
}

function parseJwks(r: Reader, identity: IdentitySource): Config['jwtJwks'] {
  const key = 'jwt_jwks';
  const value = r.raw(key);
  if (value === null) {
    if (identity.kind === 'jwt')
      r.problem(key, '', 'is missing, so no JWT can be verified', 'identities fall back to ip');
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(value);
    const keys = (parsed as { keys?: unknown })?.keys;
    if (Array.isArray(keys) && keys.every((k) => typeof k === 'object' && k !== null)) {
      const usable = (keys as Record<string, unknown>[]).filter((k) => {
        const why = unusableJwk(k);
        if (why !== null) r.problem(key, String(k.kid ?? k.kty ?? '?'), `key ${why}`, 'it is ignored');
        return why === null;
      });
      if (usable.length > 0) return { keys: usable };
      r.problem(key, value.slice(0, 60), 'holds no usable key', 'no JWT can be verified');
      return null;
    }
    r.problem(key, value.slice(0, 60), 'must be a JSON object with a "keys" array', 'no JWT can be verified');
  } catch {
    r.problem(key, value.slice(0, 60), 'is not valid JSON', 'no JWT can be verified');
  }
  return null;
}

/** Entries past this many are ignored: the controller publishes a few windows back and a short forecast. */
export const MAX_SCHEDULE_ENTRIES = 200;

function parseSchedule(r: Reader): ScheduleEntry[] {
  const key = 'allow_schedule';
  const entries = r.windowValues(key, 100, 'PCT').map(([start, pct]) => ({ start, pct }));
  if (entries.length > MAX_SCHEDULE_ENTRIES) {
    r.problem(
      key,
      `${entries.length} entries`,
      `holds more than ${MAX_SCHEDULE_ENTRIES} entries`,
      `using the last ${MAX_SCHEDULE_ENTRIES}`,
    );
    return entries.slice(-MAX_SCHEDULE_ENTRIES);
  }
  return entries;
}

/** `hammer_limit`: a whole number from 0 (off) to the declared most; anything else is the default, logged. */
function parseHammerLimit(r: Reader): number {
  const key = 'hammer_limit';
  const d = declared[key];
  const max = d.form.max;
  const fallback = Number(d.default);
  const value = r.raw(key);
  if (value === null) return fallback;
  if (/^\d{1,6}$/.test(value) && Number(value) <= max) return Number(value);
  r.problem(key, value, `must be a whole number of checks a minute from 0 (off) to ${max}`, `using ${fallback}`);
  return fallback;
}

/** `log_sample_rate`: a share above 0 and at most 1 (decimals, no exponent); anything else is 1, logged. */
function parseSampleRate(r: Reader): number {
  const key = 'log_sample_rate';
  const value = r.raw(key);
  if (value === null) return 1;
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (n > 0 && n <= 1) return n;
  r.problem(key, value, 'must be a number above 0 and at most 1', 'logging every waiting decision (1)');
  return 1;
}

/** `fallback_percentage`: the chance a room falls back to when the controller's lease runs out (0..100), or null. */
function parseFallback(r: Reader): number | null {
  const key = 'fallback_percentage';
  const value = r.raw(key);
  if (value === null) return null;
  const n = /^\d{1,3}(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 100)) {
    r.problem(
      key,
      value,
      'must be a number from 0 to 100',
      "ignoring it (the controller falls back to its forecast's lowest chance)",
    );
    return null;
  }
  return n;
}

/** The settings of room `room` (null: no room, the service-wide settings alone) from one flat set of values. */
export function parseConfig(
  get: Get,
  room: string | null = DEFAULT_ROOM,
): { config: Config; problems: SettingProblem[] } {
  const r = new Reader(get);
  const identity = parseIdentity(r);
  const waitingStatus = Number(r.oneOf('waiting_status')) as WaitingStatus;
  const waitPeriodSeconds = r.seconds('wait_period_duration');
  const newUsersPerMinute = r.positive('new_users_per_minute');
  const queueingMethod = r.oneOf('queueing_method');
  const event = parseEvent(r);
  const config: Config = {
    room,
    enabled: r.boolean('enabled'),
    allowPercentage: parseAllowPercentage(r, room),
    allowPeriodSeconds: r.seconds('allow_period_duration'),
    waitPeriodSeconds,
    cookieLifetimeSeconds: r.seconds('cookie_lifetime'),
    activeKey: r.raw('active_key') ?? defaultOf('active_key'),
    logEndpoint: r.raw('log_endpoint'),
    logSampleRate: parseSampleRate(r),
    identity,
    waitingStatus,
    cookieSecure: r.oneOf('cookie_secure'),
    cookieSameSite: r.oneOf('cookie_samesite'),
    jwtJwks: parseJwks(r, identity),
    jwtIssuer: r.raw('jwt_issuer'),
    jwtAudience: r.raw('jwt_audience'),
    allowSchedule: parseSchedule(r),
    popAdmissionsPerSecond: r.positive('pop_admissions_per_second'),
    hammerLimit: parseHammerLimit(r),
    control: {
      newUsersPerMinute,
      totalActiveUsers: r.positive('total_active_users'),
      sessionDurationMinutes: r.positive('session_duration') ?? Number(defaultOf('session_duration')),
      fallbackPercentage: parseFallback(r),
      pace: parsePaceSettings(r, newUsersPerMinute),
    },
    queueingMethod,
    event,
    queueAll: r.boolean('queue_all'),
    message: parseMessage(r),
    placeKeptSeconds: r.seconds('place_kept_seconds'),
    queueCursor: parseCursor(r),
    queueCounts: parseCounts(r, MAX_SCHEDULE_ENTRIES),
    pages: parsePages(r),
    pageVariants: parsePageVariants(r),
    inviteOnly: r.boolean('invite_only'),
    ...parseLaneSettings(r, queueingMethod === 'fifo', event?.prequeueStart != null, MAX_SCHEDULE_ENTRIES),
    ...parseProofSettings(r, waitPeriodSeconds, MAX_SCHEDULE_ENTRIES),
    ...parseLanguageSettings(r),
  };
  // Read for the status alone (handler/status.ts reads it from room.ID.live itself): checked here, so a
  // value the status cannot use is reported like any other, and tune refuses one.
  checkStatusBasis(r);
  return { config, problems: r.problems };
}
