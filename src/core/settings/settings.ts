// Every setting of `waiting_room_config` with its default and meaning, and the limits they share.
// docs/configuration.md's settings table is checked against `settingsTable`.

/**
 * The most characters one Config Store value holds (Fastly's limit, and Viceroy's): each setting and
 * each base64 page template must fit (the keys live in a Secret Store, which has its own limits).
 */
export const CONFIG_STORE_VALUE_LIMIT = 8000;

/**
 * A value's length as the limit counts it: in characters, that is code points (as Viceroy and the
 * local host count Fastly's 8,000), so an emoji, two UTF-16 units, is one. The one count the edge,
 * `npm run tune` and the host share.
 */
export function configValueChars(value: string): number {
  let n = value.length;
  for (let i = 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const p = value.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}

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

/** The most characters of `message` a page shows. */
export const MAX_MESSAGE_CHARS = 500;

/** Every setting the room reads. docs/configuration.md's settings table is checked against this list. */
export const settingsTable: readonly SettingInfo[] = [
  {
    key: 'enabled',
    default: 'true',
    meaning: '`false`: every request goes to the origin untouched (the room cookie is still stripped)',
  },
  {
    key: 'allow_percentage',
    default: '100',
    meaning:
      'chance (number 0-100, decimals allowed) that an eligible wait token wins its draw; 0 denies everyone, 100 admits everyone; missing, not a number or out of range: 100 (fail open), logged',
  },
  {
    key: 'allow_period_duration',
    default: '3600',
    meaning: 'seconds an admitted session lasts (whole, 1 to 315360000 = ten years)',
  },
  {
    key: 'wait_period_duration',
    default: '30',
    meaning: 'seconds between draws; also the time window that makes tokens deterministic (whole, 1 to 315360000)',
  },
  {
    key: 'cookie_lifetime',
    default: '7200',
    meaning: 'cookie Max-Age, seconds (whole, 1 to 34560000 = 400 days, what browsers keep)',
  },
  {
    key: 'active_key',
    default: 'key1',
    meaning: 'key id in `waiting_room_keys` that signs new tokens; every key in the store verifies',
  },
  { key: 'log_endpoint', default: '', meaning: 'named log endpoint that gets one JSON line per decision' },
  {
    key: 'log_sample_rate',
    default: '1',
    meaning:
      'share (above 0, at most 1) of token ids whose waiting decisions are logged, each such line carrying the weight `w` = 1/rate; admissions, renewals and deny pages are always logged. For crowds of millions (docs/control/log.md)',
  },
  { key: 'identity', default: 'ip', meaning: 'what a token is bound to: `ip`, `header:NAME`, `jwt:NAME` or `none`' },
  { key: 'waiting_status', default: '200', meaning: 'HTTP status of waiting and deny pages: `200`, `429` or `503`' },
  {
    key: 'cookie_secure',
    default: 'auto',
    meaning: '`Secure` cookie attribute: `auto` (when the request is https), `true` or `false`',
  },
  {
    key: 'cookie_samesite',
    default: 'Lax',
    meaning: '`SameSite` cookie attribute: `Lax`, `Strict` or `None` (None forces Secure)',
  },
  {
    key: 'jwt_jwks',
    default: '',
    meaning: 'JSON Web Key Set (JSON text) that verifies the JWT when `identity` is `jwt:NAME`',
  },
  { key: 'jwt_issuer', default: '', meaning: 'required `iss` of that JWT (optional)' },
  { key: 'jwt_audience', default: '', meaning: 'required `aud` of that JWT (optional)' },
  {
    key: 'allow_schedule',
    default: '',
    meaning:
      "chance of each window's draws, published ahead by the controller: `START=PCT,...` (START a window start in epoch seconds, PCT 0-100); a draw of a token expiring at START uses its entry, past the last entry the last one; used only while allow_percentage is between 0 and 100",
  },
  {
    key: 'pop_admissions_per_second',
    default: '',
    meaning:
      "optional ceiling on admissions a second at each POP (a 10-second average, Fastly's edge rate limiter); a winner held back keeps the win",
  },
  {
    key: 'hammer_limit',
    default: '60',
    meaning:
      "checks a wait token may make in a minute at one POP before it is answered 429 until it is due (Fastly's edge rate limiter; keyed by the token, never the address); `0`: off",
  },
  {
    key: 'new_users_per_minute',
    default: '',
    meaning: 'read by the controller (`npm run control`): admissions a minute the origin can take',
  },
  {
    key: 'total_active_users',
    default: '',
    meaning: 'read by the controller: cap on admitted visitors active at once (optional)',
  },
  {
    key: 'session_duration',
    default: '5',
    meaning: 'read by the controller: minutes after their last request that an admitted visitor counts as active',
  },
  {
    key: 'fallback_percentage',
    default: '',
    meaning:
      'read by the controller: the chance (0-100) each schedule it publishes ends on, a lease ahead, so a room whose controller died falls back to it; empty: the lowest chance of its forecast',
  },
  {
    key: 'queueing_method',
    default: 'random',
    meaning:
      "`random` (a draw each window) or `fifo` (first come, first served; needs the controller's `queue_cursor`)",
  },
  {
    key: 'event_prequeue_start',
    default: '',
    meaning: "ISO 8601 time with a zone: a scheduled event's pre-queue opens (docs/events.md)",
  },
  {
    key: 'event_start',
    default: '',
    meaning: 'ISO 8601 time with a zone: the event starts; the pre-queue is shuffled and goes first',
  },
  {
    key: 'event_end',
    default: '',
    meaning: 'ISO 8601 time with a zone: the event ends and `event_end_action` applies',
  },
  {
    key: 'event_end_action',
    default: 'normal',
    meaning:
      'after `event_end`: `normal` (the room as configured), `pass` (everyone in) or `close` (the closed page; those inside finish on their allow token)',
  },
  {
    key: 'queue_all',
    default: 'false',
    meaning: '`true`: admit nobody new; new visitors queue and keep their place, those inside stay inside',
  },
  {
    key: 'message',
    default: '',
    meaning: `text (at most ${500} characters) shown on every waiting page and in the JSON answer`,
  },
  {
    key: 'message.TAG',
    default: '',
    meaning: `the message in one language, TAG a built-in language (\`message.ja-JP\`; at most ${500} characters): an answer in that language shows it instead of \`message\``,
  },
  {
    key: 'languages',
    default: '',
    meaning:
      'the languages the room offers, comma-separated tags in the order its language links list them (`en-US,de-DE,ja-JP`); unknown tags are skipped and reported; empty: every built-in language',
  },
  {
    key: 'default_language',
    default: 'en-US',
    meaning:
      'the language of a visitor who asks for none the room offers; must be one of `languages` (else the first of them)',
  },
  {
    key: 'place_kept_seconds',
    default: '180',
    meaning:
      'a visitor holding a place who stops checking for this long past their due time loses it (whole, 1 to 86400)',
  },
  {
    key: 'queue_cursor',
    default: '',
    meaning:
      "published by the controller: `T:POS:SPEED`, the queue's cursor at epoch second T and its speed (positions a second)",
  },
  {
    key: 'queue_counts',
    default: '',
    meaning:
      'published by the controller: `POS=COUNT,...`, visitors waiting below each position, for the place in line',
  },
  {
    key: 'pages',
    default: '',
    meaning:
      "the room's page set: its pages are read as `PAGES.NAME` from `waiting_room_pages` (`npm run pages -- --room ID` writes them); empty: the shared pages",
  },
  {
    key: 'proof_of_work',
    default: 'off',
    meaning:
      "a proof of work bound to the wait token at its draw (docs/bots.md): `off`, `fixed` (proof_seconds) or `auto` (the controller's proof_schedule, at most proof_seconds)",
  },
  {
    key: 'proof_seconds',
    default: '5',
    meaning:
      "the proof's difficulty: expected seconds on a low-end phone (above 0, at most 60 and at most wait_period_duration); `auto`: the most the controller may set",
  },
  {
    key: 'proof_free_share',
    default: '0.2',
    meaning:
      'the share of the chance a due draw gets without a valid proof while one is asked (above 0, at most 1): 0.2 lets a visitor without JavaScript in about 5 times slower',
  },
  {
    key: 'bot_queue',
    default: 'off',
    meaning:
      '`on`: the infinite queue: visitors a `"then": "bot"` rule marks, or whose proof failed or was skipped, wait and never win (docs/bots.md)',
  },
  {
    key: 'proof_schedule',
    default: '',
    meaning:
      "published by the controller for `proof_of_work = auto`: `START=SECONDS,...`, each window's difficulty (0-60)",
  },
  {
    key: 'invite_only',
    default: 'false',
    meaning: '`true`: only visitors with a valid invitation (docs/invites.md) get in; everyone else sees the deny page',
  },
];
