// The shapes the controller's parts agree on: the room's decision line as the controller reads it,
// the targets an operator states, what the control model publishes, and what the dashboard shows.
// The model (control/model/) is pure; the process around it (sources, writer, dashboard) is not.

/**
 * One decision of the room, as the edge logs it (src/core/log/log-line.ts writes it; docs/control/log.md#the-decision-line
 * describes every field). Times are epoch seconds unless named `Ms`.
 */
export interface DecisionLine {
  /** When the edge decided, ms since the epoch. */
  tsMs: number;
  /** The POP that decided (FASTLY_POP); "local" on the local host and in tests. */
  pop: string;
  /**
   * The room that decided; null for a line no room decided (a bypass rule, no route, an unusable
   * routing value): such a line is never an admission and feeds no room's model. A line from an edge
   * older than rooms has no `room` and counts as the one room, `default`.
   */
  room: string | null;
  /** The rule that sent the request where it went, or null. */
  rule: string | null;
  /** Start (epoch s) of the window the request fell in. */
  win: number;
  /** d: the window length the edge used, seconds. */
  period: number;
  /** `allow`, `wait`, `start` or `deny` (src/core/types.ts Decision); the model goes by outcome and reason. */
  decision: string;
  outcome: string;
  reason: string;
  /** Id of the token the visitor presented and the room used (8 base64url chars), or null. */
  tid: string | null;
  /** Its expiry (its cohort's window start for a wait token), or null. */
  exp: number | null;
  /** Its kind, or null. */
  dec: 'wait' | 'allow' | 'won' | 'pre' | null;
  /** Id, expiry and kind of the token the answer set as cookie, or null. */
  newTid: string | null;
  newExp: number | null;
  newDec: 'wait' | 'allow' | 'won' | 'pre' | null;
  /**
   * For a wait token set by this answer: the id of the token the same identity gets if it loses its
   * draw on time (its successor, expiring one window later), so the controller knows next window's
   * tickets a window ahead. Null otherwise.
   */
  nextTid: string | null;
  /** The chance (0..100) the draw of this request used, when it drew; else null. */
  pct: number | null;
  /** The visitor's place in line (docs/events.md), or null. */
  pos: number | null;
  /**
   * How many decisions the line stands for: `w` (1/log_sample_rate) on a sampled waiting decision,
   * 1 on every other line (src/core/log/log-sample.ts).
   */
  weight: number;
  /** `"bot": true`: a token of the infinite queue (docs/bots.md), which never wins; absent (false) otherwise. */
  bot?: boolean;
  /**
   * On a due draw whose token asked for a proof of work: what the request brought (docs/bots.md);
   * absent otherwise. A draw without a valid one used proof_free_share of the chance (`pct` says it).
   */
  proof?: 'valid' | 'wrong' | 'failed' | 'skipped' | 'missing';
  /**
   * `lang`: the language (a BCP 47 tag, `de-DE`) of an answer the room made itself: a page, the JSON
   * answer, the 429, the 502. Absent on the origin's answers and in lines from before the field. No
   * decision reads it; the report counts waiting visitors by it.
   */
  lang?: string;
  /** `lane`: the priority lane the visitor is in (docs/lanes.md); absent in the general lane and in older lines. */
  lane?: string;
  /**
   * `variant`: the waiting page's variant the visitor keeps in an A/B test (`page_variants`), and
   * `variantFallback` when its page could not be shown (`missing`, `unreadable`, `template`: the built-in
   * page was). Absent without a test. No decision reads them; the report compares the variants.
   */
  variant?: string;
  variantFallback?: 'missing' | 'unreadable' | 'template';
  /**
   * `originMs`: on a line whose request went to the origin (admitted, invited, bypassed), the time from
   * sending it to the origin's response headers, whole ms (to the failure, when none came). Absent on
   * every other line and in lines from before the field.
   */
  originMs?: number;
  /**
   * `originStatus`: on the same lines, the origin's HTTP status, or why none came: `timeout` (no
   * headers in time), `refused` (no connection), `failed` (anything else). An error for the
   * controller's objective: a failure, 429, or a status of 500 or above (origin-health.ts).
   */
  originStatus?: OriginStatus;
}

/** How the origin answered a forwarded request: its status, or why it did not. */
export type OriginStatus = number | 'timeout' | 'refused' | 'failed';

/** What the operator asks for (waiting_room_config keys the edge ignores). */
export interface Targets {
  /** new_users_per_minute: admissions a minute the origin can take; null = no controller target. */
  newUsersPerMinute: number | null;
  /** total_active_users: cap on admitted visitors active at once; null = no cap. */
  totalActiveUsers: number | null;
  /** session_duration: minutes after an admitted visitor's last request that they still count as active. */
  sessionDurationMinutes: number;
}

/** The settings the model writes, as strings for waiting_room_config (only keys that change). */
export type SettingWrites = Record<string, string>;

/** One row per minute for the dashboard's charts (the last hour). */
export interface MinutePoint {
  /** Minute start, ms since the epoch. */
  startMs: number;
  /** Distinct wait tokens seen alive in the minute (waiting visitors, one per identity). */
  waiting: number;
  /** Distinct tokens drawn in the minute. */
  draws: number;
  /** Distinct tokens admitted by a draw (or a held win) in the minute. */
  admissions: number;
  /** new_users_per_minute in force, or null. */
  target: number | null;
  /** Mean chance published for the minute's windows, or null. */
  allowPercentage: number | null;
  /** Active sessions at the minute's end (see Targets.sessionDurationMinutes). */
  activeSessions: number;
  /** total_active_users in force, or null. */
  activeCap: number | null;
  /** The origin's minute: forwarded requests, their time to headers at the objective's percentile, their error share. */
  origin: OriginMinute;
}

/** One minute of the origin as the decision lines measure it (lines with `originStatus`). */
export interface OriginMinute {
  /** Forwarded requests with an `originStatus`. */
  requests: number;
  /** Time to headers at the room's objective percentile (90 unless set), ms; null without a request. */
  latencyMs: number | null;
  /** Share of them that were errors (a failure, 429, or 500 and above), 0..1; null without a request. */
  errorShare: number | null;
}

export interface PopRow {
  pop: string;
  /** Share of all decision lines in the minute ModelSnapshot.popMinuteStartMs, 0..1. */
  share: number;
  /** Waiting now. */
  waiting: number;
  /** Draws and admissions in the minute ModelSnapshot.popMinuteStartMs: over all POPs they add up to that minute's MinutePoint. */
  drawsPerMinute: number;
  admissionsPerMinute: number;
  /** Active now. */
  activeSessions: number;
  /** ms since the epoch of the last line from this POP. */
  lastSeenMs: number;
}

/** One priority lane on the dashboard (control/model/lanes.ts). */
export interface LaneRow {
  id: string;
  /** Its share of the room's admissions, percent (the general lane: what the others leave). */
  share: number;
  /** Admissions of the lane in the last complete minute. */
  admitted: number;
  /** The chance its draws use in the current window (0..100), null when none is fixed. */
  chance: number | null;
}

/** What the pure model knows and decided. */
export interface ModelSnapshot {
  nowMs: number;
  waitPeriodSeconds: number | null;
  targets: Targets;
  /** 'observing': no target or not enough data; 'open': nobody needs to wait; 'queueing': controlling. */
  mode: 'observing' | 'open' | 'queueing';
  /** One sentence on why the model is in that mode or holding. */
  why: string;
  /** The chance last decided for the upcoming window, or null. */
  allowPercentage: number | null;
  /**
   * proof_of_work = auto: the difficulty of the current window's draws (proof_schedule), expected
   * seconds on a low-end phone, 0 when none; null when the room is not auto.
   */
  proofSeconds: number | null;
  /**
   * While a proof of work is asked (fixed or auto): the share of the published chance the recent draws
   * asked one got (0..1; 1 when all brought a valid one or none was seen), which the plan divides its
   * chances by (control/model/proof-share.ts); null when the room asks no proof.
   */
  proofShare: number | null;
  waiting: number;
  activeSessions: number;
  minutes: MinutePoint[];
  /** Start (ms since the epoch) of the minute the POP rows' draws and admissions count: the last complete one. */
  popMinuteStartMs: number;
  pops: PopRow[];
  /** `target_mode = auto`: what the autopilot measured and chose (control/model/pace.ts); null in manual. */
  pace: PaceSnapshot | null;
  /** The priority lanes (docs/lanes.md): each one's share, admissions in the last complete minute and chance now; null without lanes. */
  lanes?: LaneRow[] | null;
  /** The queue's cursor (docs/events.md), while it leads a pre-queue or a first-come room; else null. */
  queue: {
    role: 'drain' | 'fifo';
    cursor: number | null;
    perMinute: number | null;
    prequeue: number;
    ahead: number;
    survival: number;
  } | null;
}

/** The log source, as the process sees it. */
export interface SourceStatus {
  /** e.g. "stdin", "file local/room.log", "fastly log-tail SERVICE", "https :8443". */
  name: string;
  /**
   * ok: lines arrive on time; quiet: the source is alive and no line came for 10 s (a room with no
   * traffic); lagging: lines arrive later than the lag limit after the edge wrote them; failing: the
   * source says it cannot give lines now (`error`); dead: the source ended; starting: no line yet.
   * The controller holds while lagging, failing or dead.
   */
  state: 'ok' | 'quiet' | 'lagging' | 'failing' | 'dead' | 'starting';
  /** The newest line's lag: when it arrived minus its tsMs, ms; null before the first line. */
  lagMs: number | null;
  /** When the newest line arrived, ms since the epoch; null before the first line. */
  lastLineMs: number | null;
  lines: number;
  /** Lines that looked like the room's but could not be used. */
  bad: number;
  /** Lines that were not the room's at all (other log output). */
  foreign: number;
  /** Preview links' lines (docs/operating.md, "Previewing a page"): the room's, but no visitor's. */
  previews: number;
  error: string | null;
}

export interface WriteStatus {
  atMs: number;
  /** Room id -> the settings written for it. */
  values: Record<string, SettingWrites>;
  /** The store keys and values that call wrote ('' removed), when it went out. */
  stored?: Record<string, string>;
  ok: boolean;
  error: string | null;
}

/** How many of a room's own answers were written in one language (control/rooms/language-counts.ts). */
export interface LanguageRow {
  /** The line's `lang` (`de-DE`), or `other` for the tags past the bound of a forged log. */
  tag: string;
  /** Answers in the last ten minutes (by the edge's time of the line). */
  recent: number;
  /** Answers since the controller started. */
  session: number;
}

/** One room the controller steers: its id and its model's view. */
export interface RoomView {
  id: string;
  model: ModelSnapshot;
  /** Decision lines this room decided. */
  lines: number;
  /** The languages of the room's own answers, most read recently first; absent where nothing counts them. */
  languages?: LanguageRow[];
}

/** Everything the dashboard shows: GET /api/snapshot returns this as JSON. */
export interface DashboardSnapshot {
  /** Every room, in the order the routing lists them (then as they appeared). */
  rooms: RoomView[];
  /** Lines no room decided, by reason (rule_bypass, no_room, routing_unusable). */
  unrouted: Record<string, number>;
  source: SourceStatus;
  lastWrite: WriteStatus | null;
  /**
   * Write calls done, failed and deferred (held back by the spacing) since start; the spacing in
   * seconds, and the budget of calls an hour it comes from.
   */
  writes: { done: number; failed: number; deferred: number; minIntervalSeconds: number; budgetPerHour: number };
  /** The API budget (control/store/api-budget.ts): calls an hour allowed and spent, the token's calls left, a 429's back-off, the next read; null on a local store file, which costs no API call. */
  api: ApiStatus | null;
  /** Restart and failover (control/failover/failover.ts): learning, standing by or active; absent without it. */
  failover?: FailoverView | null;
  /** True when the process is holding: it writes nothing because its view is not trustworthy. */
  holding: boolean;
  holdingWhy: string | null;
}

/**
 * The pure control model. The process (or the simulator) feeds it every decision line and the
 * operator's settings, and asks it what to write; it never does I/O and reads time only from its
 * arguments, so the simulator runs exactly the code an operator runs.
 */
export interface ControlModel {
  /** The raw waiting_room_config values, whenever they change (targets and the edge's own keys). */
  settings(values: Readonly<Record<string, string>>, nowMs: number): void;
  observe(line: DecisionLine): void;
  /**
   * A line no room decided (a bypass rule, no route) that went to the origin: only its time and
   * status count, for the autopilot's reading of the origin every room forwards to.
   */
  observeOrigin(line: DecisionLine): void;
  /**
   * What to write now, or null when nothing needs writing. Records the tick's history point (the
   * dashboard's minute rows) whether or not anyone looks: snapshot() only reads it.
   */
  plan(nowMs: number, ctx: PlanContext): SettingWrites | null;
  /** The writer reports what it wrote (ok or not), so the model knows what the edge has. */
  written(values: SettingWrites, ok: boolean, nowMs: number): void;
  snapshot(nowMs: number): ModelSnapshot;
  /** Everything needed to go on after a restart, JSON-safe (createControlModel({ restore })). */
  save(): SavedModel;
}

/** What the process tells the model at each plan(). */
export interface PlanContext {
  /** The view may be stale (a lagging or dead source): the model writes nothing then. */
  holding: boolean;
  /**
   * The spacing between the writes the API budget allows now, ms: the model fixes every window whose
   * decision time falls before nowMs + writeIntervalMs, so each window is fixed by the write before
   * its deadline (model/pacing.ts). 0 = every tick may write (the local store file, whose writes
   * cost no API call: only --min-write-interval spaces them).
   */
  writeIntervalMs: number;
}

/** The API budget (control/store/api-budget.ts) as the dashboard shows it: the API side of the dashboard snapshot (DashboardSnapshot.api). */
export interface ApiStatus {
  perHour: number;
  /** Calls in the trailing hour by kind; logTails: starts of `fastly log-tail` (each turns the log stream on). */
  usedLastHour: { reads: number; writes: number; heartbeats: number; logTails: number };
  /** The token's calls left as the API last said (Fastly-RateLimit-Remaining), or null. */
  remaining: number | null;
  /** Until when nothing is called after a 429, ms since the epoch; null when not backing off. */
  backoffUntilMs: number | null;
  /** Why writes are spaced as they are now, in a sentence. */
  why: string;
  /** When the next planned read goes, ms since the epoch (null: every tick, a local file). */
  nextReadMs: number | null;
}

/** Restart and failover (control/failover/failover.ts) as the dashboard shows it. */
export interface FailoverView {
  /** learning: watching before changing anything; standby: another controller writes; active: this one does. */
  mode: 'learning' | 'standby' | 'active';
  /** Seconds of learning left, while learning. */
  learningSecondsLeft: number | null;
  heartbeatId: string;
  leaseSeconds: number;
  /** The other controller, while standing by. */
  other: string | null;
  /** Lines skipped after a restart as already counted. */
  replayed: number;
  stateSaves: number;
}

/** A model's saved state as the process keeps it (JSON-safe, versioned: control/model/state.ts ModelSaved). */
export interface SavedModel {
  readonly version: number;
}

/** The origin's objective in `target_mode = auto`: time to headers at a percentile, and an error share. */
export interface OriginObjective {
  /** origin_latency_percentile, 50..99.9. */
  percentile: number;
  /** origin_latency_ms: the most the percentile may take. */
  latencyMs: number;
  /** origin_error_percent / 100: the most errors may be of the forwarded requests. */
  errorShare: number;
}

/** The autopilot's state, as the dashboard and the journal show it. */
export interface PaceSnapshot {
  /**
   * starting: no measurement yet; raising: healthy, the limit binds, it grows; holding: near the
   * objective, or the crowd does not fill the limit; cutting: the objective broken, the limit cut;
   * stopped: an error storm, nobody new is admitted; reopening: the storm over, back from the floor.
   */
  state: 'starting' | 'raising' | 'holding' | 'cutting' | 'stopped' | 'reopening';
  /** One sentence on why. */
  why: string;
  /** New visitors a minute the autopilot lets in now (0 while stopped). */
  ratePerMinute: number;
  /** The operator's bounds: auto_floor_per_minute (or its default) and new_users_per_minute. */
  floorPerMinute: number;
  ceilingPerMinute: number;
  objective: OriginObjective;
  /** The last measurement: the percentile's time (ms), the error share, the requests it rests on. */
  latencyMs: number | null;
  errorShare: number | null;
  requests: number;
}
