// `waiting_room_config` holds strings an operator typed by hand. Each one is parsed here, once per
// request, into a strict Config; anything unusable falls back to a safe value and becomes a problem
// that names its key, so a typo shows up in the logs instead of as a SyntaxError or a silent default.
import { parseCounts, parseCursor, parseEvent, parseMessage, parseQueueAll } from './config-events.js';
import { parseLanguageSettings } from './config-language.js';
import { parseProofSettings } from './config-proof.js';
import { defaults, Reader, type Get } from './config-reader.js';
import { parseHammerLimit } from '../hammer.js';
import {
  DEFAULT_ROOM,
  mergeRoomSettings,
  percentageKey,
  ROOM_ID,
  roomKey,
  SETTINGS_KEY,
  valueAt,
  type MergedSettings,
  type RoomRaws,
} from './layout.js';
import { MAX_COOKIE_LIFETIME_SECONDS, MAX_PERIOD_SECONDS } from './settings.js';
import type { Config, ConfigProblem, IdentitySource, ParsedSettings, ScheduleEntry, WaitingStatus } from '../types.js';

export {
  CONFIG_STORE_VALUE_LIMIT,
  MAX_COOKIE_LIFETIME_SECONDS,
  MAX_MESSAGE_CHARS,
  MAX_PERIOD_SECONDS,
  settingsTable,
  type SettingInfo,
} from './settings.js';

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
        `is missing, and room ${room} has none of its own (${percentageKey(room)}, ${roomKey(room)}); room ${room} admits everyone (100)`,
      );
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

function parseBoolean(r: Reader, key: string): boolean {
  const fallback = defaults[key] === 'true';
  const value = r.raw(key);
  if (value === null) return fallback;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  r.problem(key, value, `must be true or false; using ${fallback}`);
  return fallback;
}

/** A page set's name goes into store keys (`PAGES.startwaiting`): the room ids' alphabet. */
function parsePages(r: Reader): string | null {
  const value = r.raw('pages');
  if (value === null) return null;
  if (ROOM_ID.test(value)) return value;
  r.problem(
    'pages',
    value,
    'must be a page set name (lower case, digits, - and _, at most 32 characters); using the shared pages',
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
      r.problem(key, '', 'is missing, so no JWT can be verified; identities fall back to ip');
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
  const entries = r.windowValues(key, 100, 'PCT').map(([start, pct]) => ({ start, pct }));
  if (entries.length > MAX_SCHEDULE_ENTRIES) {
    r.problem(
      key,
      `${entries.length} entries`,
      `holds more than ${MAX_SCHEDULE_ENTRIES} entries; using the last ${MAX_SCHEDULE_ENTRIES}`,
    );
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

/** `log_sample_rate`: a share above 0 and at most 1 (decimals, no exponent); anything else is 1, logged. */
function parseSampleRate(r: Reader): number {
  const key = 'log_sample_rate';
  const value = r.raw(key);
  if (value === null) return 1;
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (n > 0 && n <= 1) return n;
  r.problem(key, value, 'must be a number above 0 and at most 1; logging every waiting decision (1)');
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
      "must be a number from 0 to 100; ignoring it (the controller falls back to its forecast's lowest chance)",
    );
    return null;
  }
  return n;
}

/** The settings of room `room` (null: no room, the service-wide settings alone) from one flat set of values. */
export function parseConfig(
  get: Get,
  room: string | null = DEFAULT_ROOM,
): { config: Config; problems: ConfigProblem[] } {
  const r = new Reader(get);
  const identity = parseIdentity(r);
  const waitingStatus = Number(r.oneOf('waiting_status', ['200', '429', '503'])) as WaitingStatus;
  const waitPeriodSeconds = r.seconds('wait_period_duration', MAX_PERIOD_SECONDS);
  const config: Config = {
    room,
    enabled: parseBoolean(r, 'enabled'),
    allowPercentage: parseAllowPercentage(r, room),
    allowPeriodSeconds: r.seconds('allow_period_duration', MAX_PERIOD_SECONDS),
    waitPeriodSeconds,
    cookieLifetimeSeconds: r.seconds('cookie_lifetime', MAX_COOKIE_LIFETIME_SECONDS),
    activeKey: r.raw('active_key') ?? defaults.active_key!,
    logEndpoint: r.raw('log_endpoint'),
    logSampleRate: parseSampleRate(r),
    identity,
    waitingStatus,
    cookieSecure: r.oneOf('cookie_secure', ['auto', 'true', 'false']),
    cookieSameSite: r.oneOf('cookie_samesite', ['Lax', 'Strict', 'None']),
    jwtJwks: parseJwks(r, identity),
    jwtIssuer: r.raw('jwt_issuer'),
    jwtAudience: r.raw('jwt_audience'),
    allowSchedule: parseSchedule(r),
    popAdmissionsPerSecond: positive(r, 'pop_admissions_per_second', false, 1_000_000),
    hammerLimit: parseHammerLimit(r),
    control: {
      newUsersPerMinute: positive(r, 'new_users_per_minute', false, 100_000_000),
      totalActiveUsers: positive(r, 'total_active_users', true, 1_000_000_000),
      sessionDurationMinutes: positive(r, 'session_duration', false, 24 * 60) ?? 5,
      fallbackPercentage: parseFallback(r),
    },
    queueingMethod: r.oneOf('queueing_method', ['random', 'fifo']),
    event: parseEvent(r),
    queueAll: parseQueueAll(r),
    message: parseMessage(r),
    placeKeptSeconds: r.seconds('place_kept_seconds', 86_400),
    queueCursor: parseCursor(r),
    queueCounts: parseCounts(r, MAX_SCHEDULE_ENTRIES),
    pages: parsePages(r),
    inviteOnly: parseBoolean(r, 'invite_only'),
    ...parseProofSettings(r, waitPeriodSeconds, MAX_SCHEDULE_ENTRIES),
    ...parseLanguageSettings(r),
  };
  return { config, problems: r.problems };
}

/**
 * Settings whose value the room takes in part or bends to another setting (a schedule's good entries,
 * the known tags of `languages`, a message cut to length, a proof clamped to the wait period, the
 * default language among those offered): a problem with one of them is not a refusal of its value.
 */
export const TAKEN_IN_PART: ReadonlySet<string> = new Set([
  'allow_schedule',
  'proof_schedule',
  'queue_counts',
  'languages',
  'default_language',
  'message',
  'jwt_jwks',
  'proof_seconds',
]);

/** The part of a problem's message before its last `; `: what the value must be (after it: what the room does instead). */
const needOf = (message: string): string => message.slice(0, Math.max(0, message.lastIndexOf('; '))) || message;

/**
 * One room's settings as a request reads them (layout.ts): each problem names the store key its
 * setting was read from, so an operator knows which value to fix. A value the room cannot use counts
 * as unset where it is written: when a less specific place holds the setting, that value applies
 * (a room's `allow_percentage` of "5%" never opens a room the service-wide 1 holds back); else the
 * setting's default, as documented.
 */
export function parseRoomConfig(room: string | null, raws: RoomRaws): ParsedSettings {
  const { config, problems } = settle(room, raws);
  return { config, problems };
}

/**
 * One room's settings as written, with the values parseRoomConfig passes over left out: what the
 * tools and the controller read, so they see the value the edge uses. `problems` gets those of the
 * store's values themselves and of each value passed over, not those of the settings' parse.
 */
export function usableRoomSettings(
  room: string | null,
  raws: RoomRaws,
  problems: ConfigProblem[] = [],
): MergedSettings {
  const settled = settle(room, raws);
  problems.push(...settled.written);
  return settled.merged;
}

function settle(
  room: string | null,
  raws: RoomRaws,
): ParsedSettings & { merged: MergedSettings; written: ConfigProblem[] } {
  const skipped = new Map<string, ConfigProblem>();
  for (;;) {
    const problems: ConfigProblem[] = [];
    const merged = mergeRoomSettings(room, raws, problems, new Set(skipped.keys()));
    const parsed = parseConfig((key) => merged.values[key] ?? null, room);
    const refused = parsed.problems.filter((p) => canFallThrough(p, merged));
    if (refused.length === 0) {
      const written = [...problems, ...fellThrough(skipped, merged, parsed.problems)];
      return { config: parsed.config, problems: [...written, ...placed(parsed.problems, merged)], merged, written };
    }
    for (const p of refused) skipped.set(valueAt(merged.from[p.key]!, p.key), p);
  }
}

/** A refusal of a whole value that a less specific place also holds: that place's value is tried. */
function canFallThrough(p: ConfigProblem, merged: MergedSettings): boolean {
  const setting = p.key;
  if (TAKEN_IN_PART.has(setting) || setting.startsWith('message.') || p.value === '') return false;
  return (merged.held[setting]?.length ?? 0) > 1;
}

/** The values passed over, each named where it is written, with the value the room uses instead. */
function fellThrough(
  skipped: ReadonlyMap<string, ConfigProblem>,
  merged: MergedSettings,
  last: readonly ConfigProblem[],
): ConfigProblem[] {
  return [...skipped].map(([at, p]) => {
    const from = merged.from[p.key]!;
    const usable = !last.some((q) => q.key === p.key);
    const instead = usable
      ? `using the value in ${from} (${merged.values[p.key]})`
      : `using the one in ${from}, which is no better`;
    return { key: at, value: p.value, message: `${needOf(p.message)}; ${instead}` };
  });
}

/** The parse's problems, each named by the store key its setting was read from. */
function placed(problems: readonly ConfigProblem[], merged: MergedSettings): ConfigProblem[] {
  return problems.map((p) => ({ ...p, key: valueAt(merged.from[p.key] ?? SETTINGS_KEY, p.key) }));
}

/** One line per problem, for deps.diag. */
export function describeProblem(p: ConfigProblem): string {
  return `waiting_room_config: ${p.key}${p.value === '' ? '' : ` = "${p.value}"`} ${p.message}`;
}
