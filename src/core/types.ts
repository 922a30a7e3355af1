// The shapes every part of the room agrees on. The core (everything under src/core) is pure:
// it never imports `fastly:*`; the runtime hands it what it needs through RoomDeps. The settings'
// shapes are in settings-shapes.ts and passed on from here, so the core imports every shape from this
// one file, which imports nothing else: every other file of the core stands on it.
export type {
  Config,
  ConfigProblem,
  ControlTargets,
  EventSchedule,
  IdentitySource,
  Lane,
  PaceSettings,
  PageVariant,
  ParsedSettings,
  ProofScheduleEntry,
  QueueCount,
  QueueCursor,
  ScheduleEntry,
  SettingProblem,
  StatusBasis,
  WaitingStatus,
} from './settings-shapes.js';

/**
 * What a request ends up as, in the decision line. `start`: the visitor starts waiting on a new token
 * (they had none usable, lost a draw or lost their place; `no_signing_key` and `internal_error`: none
 * could be set). `wait`: they keep waiting on the token or place they hold.
 */
export type Decision = 'allow' | 'wait' | 'start' | 'deny';

/** Where a request goes once decided. */
export type Outcome =
  | 'origin' // forwarded to the backend
  | 'startwaiting' // waiting page, new wait token
  | 'keepwaiting' // waiting page, token kept
  | 'prequeue' // countdown page before a scheduled start, pre-queue token set or kept
  | 'deny'; // deny page, cookie cleared

export type PageName = 'startwaiting' | 'keepwaiting' | 'prequeue' | 'deny';

/**
 * The line a place is in (docs/events.md): a sale's pre-queue, shuffled at the start and let in by
 * that order, or the first-come line, let in by arrival.
 */
export type PlaceQueue = 'prequeue' | 'fifo';

/** Why a decision was taken; the log line names it. Stable strings: dashboards match on them. */
export type ReasonCode =
  | 'rule_bypass'
  | 'no_room'
  | 'routing_unusable'
  | 'token_other_room'
  | 'invite'
  | 'invite_only'
  | 'invite_malformed'
  | 'invite_forged'
  | 'invite_expired'
  | 'invite_other_room'
  | 'invite_other_identity'
  | 'invite_unknown_lane'
  // A valid lane invitation on a visitor whose wait token is of another lane: a new token in its lane (docs/lanes.md).
  | 'lane_joined'
  | 'disabled'
  | 'allow_all'
  | 'deny_all'
  | 'no_token'
  | 'token_malformed'
  | 'token_noncanonical'
  | 'token_bad_signature'
  | 'token_unknown_kid'
  | 'token_other_identity'
  | 'token_expired_allow'
  | 'token_duplicated'
  | 'token_oversized'
  | 'wait_not_due'
  | 'token_stale'
  | 'draw_won'
  | 'draw_lost'
  | 'allow_valid'
  | 'allow_renewed'
  | 'no_signing_key'
  | 'identity_missing'
  | 'revoked'
  | 'ceiling_held'
  | 'won_admitted'
  | 'prequeue_joined'
  | 'prequeue_waiting'
  | 'cursor_passed'
  | 'queue_waiting'
  | 'behind_prequeue'
  | 'queue_all'
  | 'event_closed'
  | 'event_passed'
  | 'token_other_event'
  | 'bot_queued'
  | 'bot_waiting'
  // A page request with no proof header at its due time, in its token's own window: drawn later (docs/bots.md).
  | 'proof_pending'
  | 'internal_error'
  // hammer_limit (hammer.ts): a wait token checking too often, answered 429 before it is due.
  | 'hammering';

/**
 * A preview link's line (docs/operating.md, "Previewing a page"): decision and outcome `preview`, and
 * the reason `preview` for a page shown or why the link was refused (a 403). Never a visitor's.
 */
export type PreviewReason =
  | 'preview'
  | 'preview_malformed'
  | 'preview_unknown_key'
  | 'preview_forged'
  | 'preview_expired'
  | 'preview_unknown_room';

/** A token's claims (token.ts signs and verifies them; docs/design.md fixes their order). */
export interface TokenClaims {
  /**
   * `won`: a draw won but held back by the POP's ceiling; admitted as soon as the ceiling allows.
   * `pre`: a place in a scheduled event's pre-queue (docs/events.md).
   */
  dec: 'wait' | 'allow' | 'won' | 'pre';
  /** Whole seconds since the epoch, on a window boundary. */
  exp: number;
  /** Keyed identity hash (identity.ts). */
  sub: string;
  /** The room that issued the token: it counts in no other room. */
  room: string;
  /**
   * A place in line: the arrival second of a `fifo` wait token, or the event start of a `pre` token.
   * Absent on the draw's tokens, so their bytes are what they always were.
   */
  arr?: number;
  /** The priority lane a lane invitation put the visitor in (docs/lanes.md); absent in the general lane. */
  lane?: string;
}

/**
 * Raw access to the three Fastly stores. Values are returned exactly as stored (strings). Never
 * throws: a store that cannot be opened or read is the implementation's to report (src/fastly/stores.ts),
 * and reads as absent, so the room trusts what it gets here.
 */
export interface Stores {
  /** `waiting_room_config`: a setting, or null when absent. */
  setting(key: string): string | null;
  /**
   * Why a read of `waiting_room_config` failed in this request (the store could not be opened, or a
   * read threw), null when none did; absent: its reads never fail. Only the status asks (a 503).
   */
  settingFailure?(): string | null;
  /** `waiting_room_keys`: base64 of the key bytes, or null when the store has no such key. */
  key(kid: string): Promise<string | null>;
  /** `waiting_room_pages`: base64 HTML template under `key` (a page name, or `PAGES.NAME`), or null when absent. */
  page(key: string): string | null;
}

/** Everything the handler needs from its runtime. Tests pass fakes; src/fastly passes the real thing. */
export interface RoomDeps {
  stores: Stores;
  /**
   * What this sandbox keeps between requests when Fastly reuses it (SandboxMemory, src/core/memory/):
   * parsed settings, imported keys, verified tokens, each checked against what the stores say now.
   * Absent (tests, the simulator), every request works everything out afresh.
   */
  memory?: SandboxCache;
  /** The client's address as the edge saw it (IPv4 or IPv6 text), null when unknown. */
  clientIp: string | null;
  /** Current time in milliseconds since the epoch (a fake clock in tests and the simulator). */
  now(): number;
  /** One line to the named log endpoint (setting `log_endpoint`). */
  log(endpoint: string, line: string): void;
  /** A diagnostic for the operator (bad settings, weak keys): stderr on the host, a log on Fastly. */
  diag(message: string): void;
  /** Send the request to the `origin` backend. May reject (dead origin). */
  origin(request: Request): Promise<Response>;
  /** Uniform [0, 1) for the refresh jitter; Math.random when absent (tests pass a fixed one). */
  random?(): number;
  /** The POP deciding (FASTLY_POP), for the decision line; "local" when unknown. */
  pop?: string | null;
  /**
   * This POP's admissions counter for `pop_admissions_per_second` (Fastly's edge rate limiter); null or
   * absent when the runtime has none, and then the ceiling is skipped.
   */
  rateCounter?: AdmissionCounter | null;
  /**
   * This POP's penalty box for `hammer_limit` (Fastly's edge rate limiter, hammer.ts), beside the
   * rate counter; null or absent when the runtime has none (the limit then counts alone).
   */
  penaltyBox?: PenaltyBox | null;
  /**
   * Fastly's geolocation, device detection, Bot Management and ACLs, for the routing rules
   * (routing.ts). Null or absent (tests, the simulator): rules that need them never apply.
   */
  edge?: EdgeLookups | null;
}

/** The device classes a routing rule can name (Fastly device detection; edge-lookups.ts picks one). */
export type DeviceClass = 'desktop' | 'mobile' | 'tablet' | 'smarttv' | 'gameconsole' | 'mediaplayer' | 'bot';

/**
 * What the edge knows about a request beyond its bytes. Every call is made only when a rule needs it,
 * and never throws: what the service lacks answers null (or 'missing' for an ACL).
 */
export interface EdgeLookups {
  /** Fastly geolocation of `ip`; null when there is no data for it. */
  geo(ip: string): { country: string | null; continent: string | null; asn: number | null } | null;
  /** The device class of a user agent; null when unknown. */
  device(userAgent: string): DeviceClass | null;
  /** The Bot Management verdict of this request; null when the service has no Bot Management (or it did not run). */
  bot(): { verified: boolean; category: string | null } | null;
  /** The action of the entry of ACL `name` that holds `ip`: 'none' when no entry does, 'missing' when the service has no such ACL. */
  acl(name: string, ip: string): Promise<'allow' | 'block' | 'none' | 'missing'>;
}

/**
 * The part of a rate counter the ceiling uses (Fastly's `RateCounter`): counts of an entry over the
 * last `seconds` seconds, per POP, with no network round trip. Calls may throw; the room then skips
 * the ceiling for that request rather than hold or admit on a guess.
 */
export interface AdmissionCounter {
  increment(entry: string, delta: number): void;
  count(entry: string, seconds: 10 | 20 | 30 | 40 | 50 | 60): number;
}

/**
 * The part of a penalty box the hammering limit uses (Fastly's `PenaltyBox`): entries held for whole
 * minutes, per POP, with no network round trip. Calls may throw; the limit is then skipped.
 */
export interface PenaltyBox {
  has(entry: string): boolean;
  /** Holds `entry` for `minutes` (1 to 60). */
  add(entry: string, minutes: number): void;
}

/** A token verified earlier, with the key object that verified it. */
export interface RememberedToken {
  claims: TokenClaims;
  kid: string;
  key: CryptoKey;
  signature: Uint8Array;
}

/**
 * What a reused sandbox keeps between its requests (SandboxMemory, src/core/memory/): the
 * handler asks it for the settings, the key ring for imported keys, verifyToken for tokens it
 * verified, decide for identity hashes. Each answer is what recomputing it would give.
 */
export interface SandboxCache {
  /**
   * What `parse` made from the raw values `raws` under `slot` (the routing, one room's settings): the
   * last parse of that slot while its raw values read the same, else a new one.
   */
  parsed<T>(slot: string, raws: readonly (string | null)[], parse: () => T): T;
  /** The key imported for `kid` when its stored text is still `raw`, else null. */
  keptKey(kid: string, raw: string): Promise<CryptoKey> | null;
  /** Imports `kid` from its stored text `raw` and keeps it for the next request. */
  importedKey(kid: string, raw: string, importKey: () => Promise<CryptoKey>): Promise<CryptoKey>;
  /** A token verified before under the key object `kid` names now, unexpired; else null. */
  verifiedToken(
    token: string,
    nowSec: number,
    currentKey: (kid: string) => Promise<CryptoKey | null>,
  ): Promise<RememberedToken | null> | null;
  rememberToken(token: string, verified: RememberedToken, nowSec: number): void;
  /** The identity hash under `key`, computed once per key object and identity. */
  identityHash(key: CryptoKey, identity: string, compute: () => Promise<string>): Promise<string>;
  /** True the first time this sandbox is told `what`: for a diagnostic every request would repeat. */
  firstTime(what: string): boolean;
  /** Drops everything: after an unexpected failure, the next request starts as a fresh sandbox would. */
  forget(): void;
}
