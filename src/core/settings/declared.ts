// Every setting of `waiting_room_config`, declared once: its default as an operator writes it, the
// places a value of it may be written (layout.ts) and the form a usable value takes. The edge's
// readers take defaults, ranges and choices from here (config-reader.ts), `npm run tune` checks with
// the same readers, and the tools make the settings table of docs/configuration.md and the JSON
// Schemas of docs/schema/ from it (lib/setting-docs.ts holds each setting's documentation line,
// which stays out of the Wasm).

/**
 * Where a value of a setting may be written: the service-wide `settings`, a room's own `room.ID`,
 * the room's plain `room.ID.allow_percentage` item, and what the controller publishes, `room.ID.live`.
 */
export type Place = 'settings' | 'room' | 'percentage' | 'live';

/**
 * The form of a usable value, written as text (a JSON number or boolean is taken as its text):
 * `boolean` true or false, any case; `choice` one of `values`, any case; `whole` a whole number from
 * `min` to `max`; `number` decimals allowed, from `min` (above it when `above`) to `max`; `text` any
 * text (at most `maxLength` characters); `pattern` text matching the JSON Schema `pattern`; `list`
 * comma-separated entries each matching `entry`; `time` an ISO 8601 time with a zone; `json` JSON text.
 */
export type Form =
  | { type: 'boolean' }
  | { type: 'choice'; values: readonly string[] }
  | { type: 'whole'; min: number; max: number }
  | { type: 'number'; min: number; max: number; above: boolean }
  | { type: 'text'; maxLength: number | null }
  | { type: 'pattern'; pattern: string }
  | { type: 'list'; entry: string }
  | { type: 'time' }
  | { type: 'json' };

export interface Declaration {
  /** The default as an operator would write it; '' means "none". */
  default: string;
  places: readonly Place[];
  form: Form;
}

/** Ten years: periods past this are typos, and every time computed from them stays a safe integer. */
export const MAX_PERIOD_SECONDS = 315_360_000;
/** 400 days: what browsers keep a cookie at most (RFC 6265bis). */
export const MAX_COOKIE_LIFETIME_SECONDS = 34_560_000;
/** The most characters of `message` a page shows. */
export const MAX_MESSAGE_CHARS = 500;
/** The most checks a minute `hammer_limit` may allow. */
export const MAX_HAMMER_LIMIT = 100_000;

type Of<T extends Form['type']> = Extract<Form, { type: T }>;
const boolean = (): Of<'boolean'> => ({ type: 'boolean' });
const choice = <const V extends readonly string[]>(...values: V): { type: 'choice'; values: V } => ({
  type: 'choice',
  values,
});
const whole = (min: number, max: number): Of<'whole'> => ({ type: 'whole', min, max });
/** A number from `min` to `max`, decimals allowed. */
const number = (min: number, max: number): Of<'number'> => ({ type: 'number', min, max, above: false });
/** A number above 0 and at most `max`, decimals allowed. */
const positive = (max: number): Of<'number'> => ({ type: 'number', min: 0, max, above: true });
const text = (maxLength: number | null = null): Of<'text'> => ({ type: 'text', maxLength });
const pattern = (source: string): Of<'pattern'> => ({ type: 'pattern', pattern: source });
const list = (entry: string): Of<'list'> => ({ type: 'list', entry });
const time = (): Of<'time'> => ({ type: 'time' });
const json = (): Of<'json'> => ({ type: 'json' });

// The places: every setting may be written service-wide and for one room; allow_percentage also in
// the room's own item, the controller's settings also in what it publishes for the room.
const ANY: readonly Place[] = ['settings', 'room'];
const PERCENTAGE: readonly Place[] = ['settings', 'room', 'percentage'];
const LIVE: readonly Place[] = ['settings', 'room', 'live'];
/** Written only where the status reads it, beside the controller's values (config-status.ts). */
const ONLY_LIVE: readonly Place[] = ['live'];

/** `START=VALUE`: a window start in epoch seconds and its value (allow_schedule, proof_schedule). */
const WINDOW_ENTRY = '\\d{1,15}=\\d{1,3}(\\.\\d+)?';
const NAME = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const IDENTITY = `[Ii][Pp]|[Nn][Oo][Nn][Ee]|([Hh][Ee][Aa][Dd][Ee][Rr]|[Jj][Ww][Tt]):\\s*${NAME}`;
const LANGUAGE_TAG = '[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*';
const DECIMAL = '\\d{1,15}(\\.\\d{1,9})?';
const PAGE_SET = '[a-z0-9]([a-z0-9_-]{0,30}[a-z0-9])?';
/** A lane's id (docs/lanes.md): a room id's alphabet. */
const LANE_ID = PAGE_SET;
/** `NAME` or `NAME:WEIGHT`: a variant of the waiting page (config-variants.ts) and its share. */
const VARIANT_ENTRY = '[a-z0-9]{1,16}(:\\d{1,5})?';

/** Every setting the room reads, in the order docs/configuration.md lists them. */
export const declared = {
  enabled: { default: 'true', places: ANY, form: boolean() },
  allow_percentage: { default: '100', places: PERCENTAGE, form: number(0, 100) },
  allow_period_duration: { default: '3600', places: ANY, form: whole(1, MAX_PERIOD_SECONDS) },
  wait_period_duration: { default: '30', places: ANY, form: whole(1, MAX_PERIOD_SECONDS) },
  cookie_lifetime: { default: '7200', places: ANY, form: whole(1, MAX_COOKIE_LIFETIME_SECONDS) },
  active_key: { default: 'key1', places: ANY, form: text() },
  log_endpoint: { default: '', places: ANY, form: text() },
  log_sample_rate: { default: '1', places: ANY, form: positive(1) },
  identity: { default: 'ip', places: ANY, form: pattern(IDENTITY) },
  waiting_status: { default: '200', places: ANY, form: choice('200', '429', '503') },
  cookie_secure: { default: 'auto', places: ANY, form: choice('auto', 'true', 'false') },
  cookie_samesite: { default: 'Lax', places: ANY, form: choice('Lax', 'Strict', 'None') },
  jwt_jwks: { default: '', places: ANY, form: json() },
  jwt_issuer: { default: '', places: ANY, form: text() },
  jwt_audience: { default: '', places: ANY, form: text() },
  allow_schedule: { default: '', places: LIVE, form: list(WINDOW_ENTRY) },
  pop_admissions_per_second: { default: '', places: ANY, form: positive(1_000_000) },
  hammer_limit: { default: '60', places: ANY, form: whole(0, MAX_HAMMER_LIMIT) },
  new_users_per_minute: { default: '', places: ANY, form: positive(100_000_000) },
  total_active_users: { default: '', places: ANY, form: whole(1, 1_000_000_000) },
  session_duration: { default: '5', places: ANY, form: positive(24 * 60) },
  fallback_percentage: { default: '', places: ANY, form: number(0, 100) },
  target_mode: { default: 'manual', places: ANY, form: choice('manual', 'auto') },
  auto_floor_per_minute: { default: '', places: ANY, form: positive(100_000_000) },
  origin_latency_ms: { default: '800', places: ANY, form: whole(1, 600_000) },
  origin_latency_percentile: { default: '90', places: ANY, form: number(50, 99.9) },
  origin_error_percent: { default: '1', places: ANY, form: positive(100) },
  queueing_method: { default: 'random', places: ANY, form: choice('random', 'fifo') },
  event_prequeue_start: { default: '', places: ANY, form: time() },
  event_start: { default: '', places: ANY, form: time() },
  event_end: { default: '', places: ANY, form: time() },
  event_end_action: { default: 'normal', places: ANY, form: choice('normal', 'pass', 'close') },
  queue_all: { default: 'false', places: ANY, form: boolean() },
  message: { default: '', places: ANY, form: text(MAX_MESSAGE_CHARS) },
  'message.TAG': { default: '', places: ANY, form: text(MAX_MESSAGE_CHARS) },
  languages: { default: '', places: ANY, form: list(LANGUAGE_TAG) },
  default_language: { default: 'en-US', places: ANY, form: pattern(LANGUAGE_TAG) },
  place_kept_seconds: { default: '180', places: ANY, form: whole(1, 86_400) },
  queue_cursor: { default: '', places: LIVE, form: pattern(`\\d{1,15}:${DECIMAL}:${DECIMAL}`) },
  queue_counts: { default: '', places: LIVE, form: list(`${DECIMAL}=\\d{1,12}`) },
  pages: { default: '', places: ANY, form: pattern(PAGE_SET) },
  page_variants: { default: '', places: ANY, form: list(VARIANT_ENTRY) },
  proof_of_work: { default: 'off', places: ANY, form: choice('off', 'fixed', 'auto') },
  proof_seconds: { default: '5', places: ANY, form: positive(60) },
  proof_free_share: { default: '0.2', places: ANY, form: positive(1) },
  bot_queue: { default: 'off', places: ANY, form: choice('off', 'on') },
  proof_schedule: { default: '', places: LIVE, form: list(WINDOW_ENTRY) },
  invite_only: { default: 'false', places: ANY, form: boolean() },
  status_basis: { default: '', places: ONLY_LIVE, form: json() },
  lanes: { default: '', places: ANY, form: list(`${LANE_ID}:\\d{1,3}(\\.\\d{1,2})?`) },
  lane_names: { default: '', places: ANY, form: list(`${LANE_ID}:[^,:]{1,40}`) },
  lane_schedule: { default: '', places: LIVE, form: list(`(${LANE_ID})@${WINDOW_ENTRY}`) },
} as const satisfies Record<string, Declaration>;

/** The name of a declared setting; `message.TAG` stands for each built-in language's `message.ja-JP`. */
export type SettingName = keyof typeof declared;

/** The declared settings' names, in the table's order. */
export const SETTING_NAMES = Object.keys(declared) as SettingName[];

/** The settings declared with a form of type `T`: a reader of that form takes only them. */
export type SettingOf<T extends Form['type']> = {
  [K in SettingName]: (typeof declared)[K]['form'] extends { type: T } ? K : never;
}[SettingName];
/** The settings whose form is a choice, and the values each may take. */
export type ChoiceSetting = SettingOf<'choice'>;
export type ChoiceOf<K extends ChoiceSetting> = (typeof declared)[K]['form']['values'][number];

/** The default of `setting` as an operator writes it ('' for none). */
export const defaultOf = (setting: SettingName): string => declared[setting].default;
