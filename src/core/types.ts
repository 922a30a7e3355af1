// The shapes every part of the room agrees on. The core (everything under src/core) is pure:
// it never imports `fastly:*`; the runtime hands it what it needs through RoomDeps.

/** What a request ends up as. `anon` is internal: no usable token, so a new wait token is issued. */
export type Decision = 'allow' | 'wait' | 'anon' | 'deny';

/** Where a request goes once decided. */
export type Outcome =
  | 'origin' // forwarded to the backend
  | 'startwaiting' // waiting page, new wait token
  | 'keepwaiting' // waiting page, token kept
  | 'deny'; // deny page, cookie cleared

export type PageName = 'startwaiting' | 'keepwaiting' | 'deny';

/** Why a decision was taken; the log line names it. Stable strings: dashboards match on them. */
export type ReasonCode =
  | 'bypass_path'
  | 'disabled'
  | 'allow_all'
  | 'deny_all'
  | 'no_token'
  | 'token_malformed'
  | 'token_bad_signature'
  | 'token_unknown_kid'
  | 'token_other_identity'
  | 'token_expired_allow'
  | 'token_duplicated'
  | 'token_oversized'
  | 'wait_not_due'
  | 'draw_won'
  | 'draw_lost'
  | 'allow_valid'
  | 'allow_renewed'
  | 'no_signing_key'
  | 'identity_missing'
  | 'revoked';

/** How a visitor is identified (setting `identity`). */
export type IdentitySource =
  | { kind: 'ip' }
  | { kind: 'header'; name: string }
  | { kind: 'jwt'; name: string }
  | { kind: 'none' };

/** Raw access to the three Fastly stores. Values are returned exactly as stored (strings). */
export interface Stores {
  /** `waiting_room_config`: a setting, or null when absent. */
  setting(key: string): string | null;
  /** `waiting_room_keys`: base64 of the key bytes, or null when the store has no such key. */
  key(kid: string): Promise<string | null>;
  /** `waiting_room_pages`: base64 HTML template, or null when absent. */
  page(name: PageName): string | null;
}

/** Everything the handler needs from its runtime. Tests pass fakes; src/fastly passes the real thing. */
export interface RoomDeps {
  stores: Stores;
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
}
