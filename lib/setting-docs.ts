// Each setting's documentation line: the meaning cell of the settings table in docs/configuration.md,
// which `npm run docs:settings` writes from these lines and the declarations (src/core/settings/declared.ts).
// Only the tools read them, so they stay out of the Wasm; a declared setting without its line fails the
// type-check.
import type { SettingName } from '../src/core/settings/index.js';

/** What each setting does, in Markdown, as the settings table shows it. */
export const settingDocs = {
  enabled: '`false`: every request goes to the origin untouched (the room cookie is still stripped)',
  allow_percentage:
    'chance (a number 0-100, decimals allowed) that an eligible wait token wins its draw; `0` denies everyone and clears their cookie, `100` admits everyone; missing, not a number or out of range (and no usable value in a less specific place): `100` (fail open: a typo such as `-1` never empties the shop), and logged for the room, not for a request no room decides',
  allow_period_duration:
    'seconds an admitted session lasts: whole, 1 to 315,360,000 (ten years, so every time the room computes stays a safe integer)',
  wait_period_duration:
    'seconds between draws; also the time window that makes tokens deterministic: whole, 1 to 315,360,000',
  cookie_lifetime: 'cookie `Max-Age`, seconds: whole, 1 to 34,560,000 (400 days, the most browsers keep)',
  active_key: 'key id in `waiting_room_keys` that signs new tokens; every key in the store verifies',
  log_endpoint:
    "named log endpoint that gets one JSON line per decision ([fields](control/log.md#the-decision-line)); `stdout` prints the lines on the instance's stdout, where `fastly log-tail` shows them",
  log_sample_rate:
    'share of token ids (above 0, at most 1) whose waiting decisions are logged, each such line carrying `w` = 1/rate; admissions, renewals and deny pages are always logged; for crowds of millions ([sampling the log](control/log.md#sampling-the-log)); anything else: `1`, logged',
  identity:
    'what a token is bound to: `ip` (IPv6 grouped by /64), `header:NAME` (a header set by a trusted layer in front), `jwt:NAME` (a JWT in header or cookie NAME), or `none` (everyone shares one token; for tests only); [details](design.md#identity)',
  waiting_status: 'HTTP status of waiting and deny pages: `200`, `429` or `503`',
  cookie_secure: '`Secure` cookie attribute: `auto` (when the request is https), `true` or `false`',
  cookie_samesite: '`SameSite` cookie attribute: `Lax`, `Strict` or `None` (`None` forces `Secure`)',
  jwt_jwks:
    'JSON Web Key Set (JSON text) that verifies the JWT when `identity` is `jwt:NAME`: public ES256 or RS256 keys (the Compute runtime has no EdDSA or PS256; shared-secret keys are refused and reported by `kid`)',
  jwt_issuer: 'required `iss` of that JWT (optional)',
  jwt_audience: 'required `aud` of that JWT (optional)',
  allow_schedule:
    "written by the controller: the chance of each window's draws, published ahead, `START=PCT,...` (START a window start in epoch seconds, PCT 0-100); used only while `allow_percentage` is between 0 and 100; [which entry a draw uses](control/settings.md#settings)",
  pop_admissions_per_second:
    "optional ceiling on admissions a second at each POP (a 10-second average, counted with Fastly's edge rate limiter); a winner held back keeps the win; [details](control/README.md#the-per-pop-ceiling)",
  hammer_limit:
    "checks one wait token may make in a minute at one POP before it is answered 429 until it falls due (counted with Fastly's edge rate limiter, keyed by the token, never the address); `0`: off; a whole number up to 100000, anything else `60`, logged; [details](bots.md#hammering)",
  new_users_per_minute:
    'read only by the controller: admissions a minute the origin can take; unset, the controller only watches',
  total_active_users: 'read only by the controller: cap on admitted visitors active at once (optional)',
  session_duration:
    'read only by the controller: minutes after their last request that an admitted visitor counts as active',
  fallback_percentage:
    'read only by the controller: the chance (0-100) each schedule it publishes ends on, a lease ahead, so a room whose controller died falls back to it; empty: the lowest chance of its forecast ([restarting it safely](control/failover.md#restarting-it-safely))',
  target_mode:
    "read only by the controller: `manual` holds `new_users_per_minute`; `auto` chooses the rate itself, between `auto_floor_per_minute` and `new_users_per_minute`, from the origin's time to headers and errors in the decision log ([the autopilot](control/auto.md))",
  auto_floor_per_minute:
    'read only by the controller, in `auto`: the fewest new visitors a minute it lets in, except while the origin fails (an error storm stops admissions); empty: a tenth of `new_users_per_minute`',
  origin_latency_ms:
    "read only by the controller, in `auto`: the most the origin's time to response headers may take at `origin_latency_percentile` of the requests the room forwards (whole ms)",
  origin_latency_percentile:
    'read only by the controller, in `auto`: which percentile `origin_latency_ms` bounds (50 to 99.9)',
  origin_error_percent:
    'read only by the controller, in `auto`: the most of the forwarded requests that may fail (no answer, 429, or 500 and above), in percent, above 0',
  queueing_method:
    "`random`: a draw each window. `fifo`: first come, first served by arrival time, moved by the controller's `queue_cursor` ([details](events.md))",
  event_prequeue_start:
    "a scheduled event's pre-queue opens: an ISO 8601 time with a zone (`2026-12-01T09:30:00Z`, `2026-12-01T10:30:00+01:00`); from then until the start every new visitor holds a pre-queue place and sees a countdown",
  event_start:
    'the sale starts (same format): the pre-queue gets a random order, fixed by the secret `event-seed`, and goes before everyone who arrives later',
  event_end: 'the event ends (same format) and `event_end_action` applies',
  event_end_action:
    'after `event_end`: `normal` (the room as configured), `pass` (everyone in) or `close` (the closed page; visitors already inside finish on their allow token, which is not renewed)',
  queue_all:
    "`true`: pause admissions; nobody new is admitted, new visitors queue and keep their place, visitors inside stay inside (unlike `allow_percentage = 0`, which clears everyone's cookie)",
  message: 'text of at most 500 characters shown on every waiting page and in the JSON answer; change it live',
  'message.TAG':
    'the message in one language, TAG a built-in language (`message.ja-JP`), at most 500 characters: an answer in that language shows it instead of `message`; a TAG that is not built in is refused by `npm run tune` and ignored (and reported) by the edge',
  languages:
    "the languages the room offers: comma-separated tags (`en-US,de-DE,ja-JP`), in the order its language links list them; an unknown tag is skipped and reported; empty: every built-in language (38). A visitor gets the first of: the `wr_lang` query parameter (the language links set it, and the answer then sets the `wr_lang` cookie for a year), the `wr_lang` cookie, their browser's `Accept-Language` (`pt-PT` gets `pt-BR`, `zh-HK` gets `zh-TW`, `no` and `nn` get `nb-NO`, `fil` gets `tl-PH`, any Serbian gets `sr-BA`; Traditional and Simplified Chinese never stand in for each other), then `default_language`. Both are passed to the origin untouched",
  default_language:
    'the language of a visitor who asks for none the room offers; must be one of `languages` (else the first of them, reported)',
  place_kept_seconds:
    'a visitor holding a place (`fifo`, pre-queue) who stops checking for this long past their due time loses it and goes to the back: whole seconds, 1 to 86,400',
  queue_cursor:
    "written by the controller: `T:POS:SPEED`, where the queue's cursor stood at epoch second T and how fast it moves; the edge keeps it moving at that speed for up to 30 minutes ([details](events.md#the-cursor))",
  queue_counts: 'written by the controller: `POS=COUNT,...`, how many wait below each position, for the place in line',
  pages:
    "the room's page set: its pages are read as `PAGES.NAME` from `waiting_room_pages` (`npm run pages -- --room ID` writes them and sets this to ID); empty: the shared pages",
  page_variants:
    'an A/B test of the waiting page: comma-separated variants, each `NAME` or `NAME:WEIGHT` (`a:50,b:50`; NAME 1-16 lower-case letters and digits, WEIGHT a whole number, 1 when left out), `a` the plain pages and any other NAME the pages `npm run pages` stored from `waiting.NAME.html`; each visitor keeps one variant, by their token, chosen by the weights; the decision line names it and `npm run report` compares them ([pages](../pages/README.md#ab-variants-of-the-waiting-page), [report](report.md#comparing-variants)); empty: no test',
  invite_only: '`true`: only visitors with a valid invitation get in; everyone else sees the deny page',
  proof_of_work:
    "a proof of work bound to the wait token, at its draw ([bots.md](bots.md#proof-of-work)): `off`, `fixed` (`proof_seconds` for every token) or `auto` (the controller's `proof_schedule`, at most `proof_seconds`)",
  proof_seconds:
    "the proof's difficulty, in expected seconds on a low-end phone: above 0, at most 60; a value above `wait_period_duration` is clamped to it (and reported), so a solve fits the token's window; `auto`: the most the controller may set",
  proof_free_share:
    'the share of the chance a due draw gets without a valid proof while one is asked: above 0 (0 would lock out visitors without JavaScript, and is refused), at most 1; 0.2: a visitor without JavaScript waits about 5 times as long',
  bot_queue:
    '`on`: the infinite queue: visitors a `"then": "bot"` rule marks, or whose proof failed or was skipped, wait like everyone and are never let in ([bots.md](bots.md#the-infinite-queue))',
  lanes:
    "priority lanes ([lanes.md](lanes.md)): `LANE:SHARE,...`, each lane's share of the room's admissions in percent (`members:30,presale:20`), the rest the `general` lane's; a lane invitation puts its visitor in a lane, and the controller gives each lane its share while it has the visitors, unused share going to the others. At most 5 lanes, shares adding up to at most 100; not with `queueing_method = fifo` or `event_prequeue_start` (refused: no lanes)",
  lane_names:
    'the name the waiting page and the JSON answer show for each lane: `LANE:NAME,...` (`members:Club members`), 1 to 40 characters without `,` or `:`; the id when none',
  lane_schedule:
    "written by the controller beside `allow_schedule` for a room with `lanes`: `LANE@START=PCT,...`, each lane's chance by window (the `general` lane too), found as a draw finds its `allow_schedule` entry; a lane without an entry for a window draws at the room's chance",
  proof_schedule:
    "written by the controller beside `allow_schedule` for `proof_of_work = auto`: `START=SECONDS,...`, each window's difficulty (0-60, decimals allowed), found as a draw finds its `allow_schedule` entry; no entry: no proof",
  status_basis:
    'written by the controller and `npm run tune`, in `room.ID.live` only: `{"at":EPOCH_S,"settings":{...}}`, the settings the [room status](status.md) needs, copied from `settings` and `room.ID`, so a status request reads two values',
} as const satisfies Record<SettingName, string>;
