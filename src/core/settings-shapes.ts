// The shapes of the room's settings as parsed (src/core/settings/): the typed config a request decides
// with, and what could not be used as written. src/core/types.ts passes them on to the rest of the core.
import type { Locale } from './i18n/index.js';

/** How a visitor is identified (setting `identity`). */
export type IdentitySource =
  | { kind: 'ip' }
  | { kind: 'header'; name: string }
  | { kind: 'jwt'; name: string }
  | { kind: 'none' };

/** A priority lane as the room declares it (`lanes`, `lane_names`: docs/lanes.md). */
export interface Lane {
  id: string;
  /** Its share of the room's admissions, percent (0 < share <= 100). */
  share: number;
  /** The name its pages show (`lane_names`), the id when none is set. */
  name: string;
}

/** A variant of the waiting page in an A/B test (setting `page_variants`) and its share by weight. */
export interface PageVariant {
  name: string;
  weight: number;
}

/** HTTP status for waiting and deny pages (setting `waiting_status`). */
export type WaitingStatus = 200 | 429 | 503;

/** The settings of `waiting_room_config`, parsed once per request into strict types. */
export interface Config {
  /** The room these settings are for (settings/layout.ts); null when no room decides (a bypass, no route). */
  room: string | null;
  enabled: boolean;
  /** 0..100, decimals allowed. */
  allowPercentage: number;
  allowPeriodSeconds: number;
  waitPeriodSeconds: number;
  cookieLifetimeSeconds: number;
  activeKey: string;
  logEndpoint: string | null;
  /** `log_sample_rate`: the share (0 < r <= 1) of token ids whose waiting decisions are logged (log-sample.ts). */
  logSampleRate: number;
  identity: IdentitySource;
  waitingStatus: WaitingStatus;
  cookieSecure: 'auto' | 'true' | 'false';
  cookieSameSite: 'Lax' | 'Strict' | 'None';
  /** Parsed `jwt_jwks` (a JSON Web Key Set), null when unset or unusable. */
  jwtJwks: { keys: Record<string, unknown>[] } | null;
  jwtIssuer: string | null;
  jwtAudience: string | null;
  /**
   * `allow_schedule`: the chance (0..100) of the draws of each cohort, by the cohort's window start
   * (epoch s), ascending; written ahead of time by the controller. Empty when unset.
   */
  allowSchedule: readonly ScheduleEntry[];
  /** `pop_admissions_per_second`: per-POP ceiling (a 10-second average), null when unset. */
  popAdmissionsPerSecond: number | null;
  /** `hammer_limit`: checks a wait token may make in a minute at one POP before it is answered 429; 0: off. */
  hammerLimit: number;
  /** Keys only the controller reads; parsed here so `npm run tune` checks them like the rest. */
  control: ControlTargets;
  /** `queueing_method` (docs/events.md). */
  queueingMethod: 'random' | 'fifo';
  /** The scheduled event, null when `event_start` is unset or unusable. */
  event: EventSchedule | null;
  /** `queue_all`: admit nobody new; those inside stay. */
  queueAll: boolean;
  /** `message`: shown on every waiting page; '' when unset. */
  message: string;
  /** `place_kept_seconds`: how long past its due time a token holding a place keeps it. */
  placeKeptSeconds: number;
  /** `queue_cursor`, published by the controller; null when unset or unusable. */
  queueCursor: QueueCursor | null;
  /** `queue_counts`, ascending by position; empty when unset. */
  queueCounts: readonly QueueCount[];
  /** `pages`: the room's page set (its pages are `PAGES.NAME`), null for the shared pages. */
  pages: string | null;
  /** `page_variants`: the waiting page's variants and their weights (none of weight 0); empty: no test. */
  pageVariants: readonly PageVariant[];
  /** `invite_only`: only a valid invitation lets a new visitor in. */
  inviteOnly: boolean;
  /** `lanes` with `lane_names`: the room's priority lanes besides the general one; empty when none (docs/lanes.md). */
  lanes: readonly Lane[];
  /** `lane_schedule`, published by the controller: each lane's chances by window (`general` too), ascending. */
  laneSchedule: Readonly<Record<string, readonly ScheduleEntry[]>>;
  /** `proof_of_work` (docs/bots.md): no proof, a fixed difficulty, or the controller's `proof_schedule`. */
  proofOfWork: 'off' | 'fixed' | 'auto';
  /** `proof_seconds`: the difficulty in expected seconds on a low-end phone (`auto`: the most), 0 < s <= min(60, d). */
  proofSeconds: number;
  /** `proof_free_share`: the share of the chance a due draw gets without a valid proof while one is asked (0 < f <= 1). */
  proofFreeShare: number;
  /** `bot_queue`: the infinite queue (docs/bots.md). */
  botQueue: boolean;
  /** `proof_schedule`, published by the controller for `auto`: each window's difficulty, ascending; empty when unset. */
  proofSchedule: readonly ProofScheduleEntry[];
  /** `languages`: the languages the room offers, in the order its links list them; never empty. */
  languages: readonly Locale[];
  /** `default_language`: the tag of one of `languages`. */
  defaultLanguage: string;
  /** `message.TAG`, by tag: the operator's message in that language; absent tags use `message`. */
  messages: Readonly<Record<string, string>>;
}

/** What a room's public status needs of its settings, copied where the status reads it (settings/config-status.ts). */
export interface StatusBasis {
  /** When it was written, whole epoch seconds: the status's `updated`. */
  at: number;
  /**
   * The room's status settings as the service-wide `settings` and the room's own `room.ID` set them,
   * merged (the room's over the service's), each as written; a setting neither sets is absent.
   */
  settings: Readonly<Record<string, string>>;
}

export interface ProofScheduleEntry {
  /** Window start, epoch seconds. */
  start: number;
  /** Difficulty, expected seconds on a low-end phone (0..60). */
  seconds: number;
}

/** Times are epoch seconds. */
export interface EventSchedule {
  prequeueStart: number | null;
  start: number;
  end: number | null;
  endAction: 'normal' | 'pass' | 'close';
}

/** At epoch second `at` the cursor stood at `pos` and moves `speed` positions a second. */
export interface QueueCursor {
  at: number;
  pos: number;
  speed: number;
}

/** `count` visitors were waiting with a position below `pos` (counted from the cursor). */
export interface QueueCount {
  pos: number;
  count: number;
}

export interface ScheduleEntry {
  /** Window start, epoch seconds. */
  start: number;
  /** Chance 0..100. */
  pct: number;
}

export interface ControlTargets {
  newUsersPerMinute: number | null;
  totalActiveUsers: number | null;
  sessionDurationMinutes: number;
  /** fallback_percentage: the chance the controller's lease ends on (0..100); null: its forecast's lowest. */
  fallbackPercentage: number | null;
  /** target_mode and the autopilot's bounds and objective (docs/control/auto.md). */
  pace: PaceSettings;
}

/** `target_mode = auto`: the controller chooses the rate, up to new_users_per_minute, from the origin's health. */
export interface PaceSettings {
  mode: 'manual' | 'auto';
  /** auto_floor_per_minute; null: a tenth of new_users_per_minute. */
  floorPerMinute: number | null;
  objective: {
    /** origin_latency_ms: the most the percentile of the origin's time to headers may take. */
    latencyMs: number;
    /** origin_latency_percentile (50..99.9). */
    percentile: number;
    /** origin_error_percent / 100: the most of the forwarded requests that may fail (a failure, 429, 5xx). */
    errorShare: number;
  };
}

/** A setting that could not be used as written (src/core/settings/problem.ts); the room falls back to a safe value and says so. */
export type ConfigProblem = SettingProblem;

/** A value the room could not use as written; it falls back to a safe value and says so. */
export interface SettingProblem {
  /** The setting (`allow_percentage`, or a name that is none); null: the store value as a whole. */
  key: string | null;
  /** The store key the value was read from (`settings`, `room.shop`, ...); null: not yet placed (parseConfig). */
  scope: string | null;
  /** The value as written (cut short), or '' for a setting that is missing. */
  value: string;
  /** What the value must be (`must be between 0 and 100`), or what is wrong with it. */
  reason: string;
  /** What the room does instead (`admitting everyone (100)`); '' when nothing need be said. */
  instead: string;
}

/** The settings as parsed, with what could not be used as written. */
export interface ParsedSettings {
  config: Config;
  problems: ConfigProblem[];
}
